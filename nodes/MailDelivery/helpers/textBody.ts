/**
 * A mail body written as plain text (Content Source: Text in the send, Body Format: Text in Campaign → Create):
 * the platform takes HTML only, so the node turns the text into safe HTML. Every character shows as typed
 * (<, > and & are escaped, so a value from the input can never add markup), each line break is kept (a blank
 * line starts a new paragraph) and web addresses become links. Platform tags ({{name}}) pass through as they
 * are, in the text and in links, for the platform to fill in.
 */
import { describeValue } from '../../shared/parameterKinds';
import { ItemProblem } from '../items/itemErrors';

const ESCAPED: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPED[char]);

/** A web address as people write it in text: http:// or https:// up to a space or a quote. */
const WEB_ADDRESS = /\bhttps?:\/\/[^\s<>"']+/gi;

/**
 * The address without what ends the sentence around it: a full stop, comma, colon, semicolon, "!" or "?", and
 * a closing bracket that the address did not open ("(see https://example.com/a)").
 */
function withoutTrailingPunctuation(address: string): string {
	let end = address.length;
	for (;;) {
		const last = address[end - 1];
		const opened = (open: string) => address.slice(0, end).split(open).length - 1;
		if (/[.,;:!?]/.test(last)) end--;
		else if (last === ')' && opened('(') < opened(')')) end--;
		else if (last === ']' && opened('[') < opened(']')) end--;
		else return address.slice(0, end);
	}
}

/** One line of text as HTML: escaped, with its web addresses as links. */
function lineAsHtml(line: string): string {
	let html = '';
	let from = 0;
	for (const match of line.matchAll(WEB_ADDRESS)) {
		const address = withoutTrailingPunctuation(match[0]);
		const at = match.index;
		const shown = escapeHtml(address);
		html += `${escapeHtml(line.slice(from, at))}<a href="${shown}">${shown}</a>`;
		from = at + address.length;
	}
	return html + escapeHtml(line.slice(from));
}

/** Plain text as safe HTML: paragraphs at blank lines, <br> at line breaks, links for web addresses. */
export function htmlFromText(text: string): string {
	const paragraphs = text
		.replace(/\r\n?/g, '\n')
		.split(/\n[ \t]*\n+/)
		.map((paragraph) => paragraph.replace(/^\n+|\n+$/g, ''))
		.filter((paragraph) => paragraph.trim() !== '');
	return paragraphs
		.map((paragraph) => `<p>${paragraph.split('\n').map(lineAsHtml).join('<br>\n')}</p>`)
		.join('\n');
}

/**
 * A text body (its tags kept, n8n's expressions evaluated: items/taggedValues.ts), as HTML; undefined when
 * empty. Anything but text is refused, naming the field: a number or an object has no lines to keep.
 */
export function textAsHtml(label: string, text: unknown): string | undefined {
	if (text === undefined || text === null || text === '') return undefined;
	if (typeof text !== 'string')
		throw new ItemProblem(`Field "${label}" must be text (it is ${describeValue(text)})`);
	const html = htmlFromText(text);
	return html === '' ? undefined : html;
}
