/**
 * The platform's tag syntax, {{name}}, which is also n8n's expression syntax. Blocks are found as n8n's
 * own template splitter finds them (@n8n/tournament: a "{{" or "}}" after an odd number of backslashes
 * is escaped), so a text is read the way n8n would read it.
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

/** How n8n reads the text: which spans are {{ blocks }}, by their position in the text. */
export function blocksOf(text: string): Array<{ start: number; end: number; inside: string }> {
	const blocks: Array<{ start: number; end: number; inside: string }> = [];
	const unescaped = (token: string, from: number) => {
		for (let at = text.indexOf(token, from); at !== -1; at = text.indexOf(token, at + 2)) {
			let backslashes = 0;
			while (text[at - 1 - backslashes] === '\\') backslashes++;
			if (backslashes % 2 === 0) return at;
		}
		return -1;
	};
	for (let open = unescaped('{{', 0); open !== -1;) {
		const close = unescaped('}}', open + 2);
		if (close === -1) break;
		blocks.push({ start: open, end: close + 2, inside: text.slice(open + 2, close) });
		open = unescaped('{{', close + 2);
	}
	return blocks;
}
