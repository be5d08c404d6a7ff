/**
 * The platform's tag syntax, {{name}}, which is also n8n's expression syntax. A text is split into chunks
 * exactly as n8n's own template splitter splits it (@n8n/tournament 1.13, splitExpression): a "{{" or "}}"
 * after an odd number of backslashes is escaped, and a text chunk followed by a block has each pair of
 * backslashes read as one (the text after the last block keeps them all). So a text is read the way n8n
 * would read it.
 */

/** A tag name: letters, digits and "_", in parts joined by "." or "-" (e.g. firstName, order.id, first-name). */
const TAG_NAME = /^[\p{L}_][\p{L}\p{N}_]*(?:[.-][\p{L}\p{N}_]+)*$/u;

/** Values JavaScript gives a bare name: in n8n's expressions they are values, never tags. */
const LITERALS = new Set(['true', 'false', 'null', 'undefined', 'NaN', 'Infinity']);
/** Globals n8n's expressions define (n8n-workflow's expression sandbox): `Math.PI` is n8n's, `Date` alone a tag. */
const GLOBALS = new Set([
	'Array',
	'BigInt',
	'Boolean',
	'Date',
	'DateTime',
	'Duration',
	'Interval',
	'Intl',
	'JSON',
	'Math',
	'Number',
	'Object',
	'RegExp',
	'String',
	'Symbol',
]);

/**
 * Whether the inside of a {{ block }} is the platform's tag: a tag name, but not a JavaScript literal
 * (`true`, `null`) nor a name under one of n8n's globals (`Math.PI`), which n8n gives a value.
 */
export function isTagName(inside: string): boolean {
	const name = inside.trim();
	if (!TAG_NAME.test(name) || LITERALS.has(name)) return false;
	const dot = name.indexOf('.');
	return dot === -1 || !GLOBALS.has(name.slice(0, dot));
}

/** A chunk of a text as n8n reads it: text as n8n outputs it, or a {{ block }} with its place in the text. */
export type Chunk =
	| { kind: 'text'; text: string }
	| { kind: 'block'; inside: string; closed: boolean; start: number; end: number };

/** Where the next unescaped `token` is, from `from`, counting backslashes as n8n does (since `from`). */
function unescaped(text: string, token: string, from: number): number {
	for (let at = text.indexOf(token, from); at !== -1; at = text.indexOf(token, at + 2)) {
		let backslashes = 0;
		while (at - 1 - backslashes >= from && text[at - 1 - backslashes] === '\\') backslashes++;
		if (backslashes % 2 === 0) return at;
	}
	return -1;
}

/** The text's chunks, as n8n's template splitter makes them. */
export function chunksOf(text: string): Chunk[] {
	const chunks: Chunk[] = [];
	let from = 0;
	while (from < text.length) {
		const open = unescaped(text, '{{', from);
		if (open === -1) {
			chunks.push({ kind: 'text', text: text.slice(from) });
			break;
		}
		chunks.push({ kind: 'text', text: text.slice(from, open).replace(/\\\\/g, '\\') });
		const close = unescaped(text, '}}', open + 2);
		const end = close === -1 ? text.length : close + 2;
		const inside = text.slice(open + 2, close === -1 ? text.length : close).replace('\\}}', '}}');
		chunks.push({ kind: 'block', inside, closed: close !== -1, start: open, end });
		from = end;
	}
	return chunks;
}

/** The distinct tag names a text uses ({{name}} or {{ name }}), in order of first use. */
export function tagsIn(...texts: unknown[]): string[] {
	const names = new Set<string>();
	for (const text of texts) {
		if (typeof text !== 'string') continue;
		for (const chunk of chunksOf(text))
			if (chunk.kind === 'block' && chunk.closed && isTagName(chunk.inside))
				names.add(chunk.inside.trim());
	}
	return [...names];
}
