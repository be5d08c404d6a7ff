/**
 * The platform's tag syntax, {{name}}, which is also n8n's expression syntax. Texts are cut into text and
 * {{ blocks }} exactly as n8n's own template splitter cuts them (@n8n/tournament's splitExpression), so a
 * text is read the way n8n would read it.
 */

/** A tag name: letters, digits and "_", in parts joined by "." or "-" (e.g. firstName, order.id, first-name). */
export const TAG_NAME = /^[\p{L}_][\p{L}\p{N}_]*(?:[.-][\p{L}\p{N}_]+)*$/u;

/** The distinct tag names a text uses ({{name}} or {{ name }}), in order of first use. */
export function tagsIn(...texts: unknown[]): string[] {
	const names = new Set<string>();
	for (const text of texts) {
		if (typeof text !== 'string') continue;
		for (const block of blocksOf(text)) {
			const name = block.inside.trim();
			if (TAG_NAME.test(name)) names.add(name);
		}
	}
	return [...names];
}

/** How n8n reads the text: which spans are closed {{ blocks }}, by their position in the text. */
export function blocksOf(text: string): Array<{ start: number; end: number; inside: string }> {
	return templateChunks(text).flatMap((chunk) =>
		chunk.type === 'code' && chunk.closed
			? [{ start: chunk.start, end: chunk.end, inside: chunk.inside }]
			: [],
	);
}

/** A part of a text as n8n's template splitter cuts it. */
type TemplateChunk =
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
