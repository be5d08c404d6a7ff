/**
 * Texts cut into literal text and {{ blocks }} exactly as n8n's own template splitter cuts them
 * (@n8n/tournament's splitExpression, quirks included): the fast reading of item references
 * (itemReferences.ts) and the platform's tags (taggedValues.ts) read a field the way n8n would.
 * test/unit/template-chunks.test.cts holds it against n8n's splitter on generated texts.
 */

/** A part of a text as n8n's template splitter cuts it. */
export type TemplateChunk =
	/** Literal text, as n8n copies it into the result. */
	| { type: 'text'; text: string }
	/**
	 * A {{ block }} from `start` to `end`: `inside` as written, `code` as n8n runs it. An unclosed last
	 * block (`Hi {{ $json.name`) is still code to n8n.
	 */
	| { type: 'code'; inside: string; code: string; start: number; end: number; closed: boolean };

/**
 * The text cut as @n8n/tournament's splitExpression cuts it, quirks included: a "{{" or "}}" after an odd
 * number of backslashes is no bracket; text before a block has each "\\" pair made one "\", text after the
 * last block is kept as written; the first "\}}" in a block's code becomes "}}"; a text ending in a
 * bracket or an escaped "{{" drops what followed the last block.
 */
export function templateChunks(text: string): TemplateChunk[] {
	if (text === '') return [{ type: 'text', text: '' }];
	const chunks: TemplateChunk[] = [];
	const code = (inside: string, start: number, end: number, closed: boolean): TemplateChunk => ({
		type: 'code',
		inside,
		code: inside.replace('\\}}', '}}'),
		start,
		end,
		closed,
	});
	let inBlock = false;
	let buffer = '';
	let blockStart = 0;
	let index = 0;
	while (index < text.length) {
		const at = text.indexOf(inBlock ? '}}' : '{{', index);
		if (at === -1) {
			buffer += text.slice(index);
			chunks.push(
				inBlock ? code(buffer, blockStart, text.length, false) : { type: 'text', text: buffer },
			);
			break;
		}
		let backslashes = 0;
		while (at - 1 - backslashes >= index && text[at - 1 - backslashes] === '\\') backslashes++;
		if (backslashes % 2 === 1) {
			buffer += text.slice(index, at + 2);
		} else {
			buffer += text.slice(index, at);
			if (inBlock) chunks.push(code(buffer, blockStart, at + 2, true));
			else {
				chunks.push({ type: 'text', text: buffer.replace(/\\\\/g, '\\') });
				blockStart = at;
			}
			inBlock = !inBlock;
			buffer = '';
		}
		index = at + 2;
	}
	return chunks;
}
