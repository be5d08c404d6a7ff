/**
 * HTML a form page shows from the node's parameters (a form's Custom HTML element) and its custom CSS, made
 * harmless without a runtime dependency (n8n's own nodes use sanitize-html): only an allowlist of tags and
 * attributes stays, links and images only over http(s), and script, style and similar elements go with their
 * content. The page is sandboxed as well (pages.ts, SANDBOX_CSP).
 */
import { escapeHtml } from './html';

const ALLOWED_TAGS = new Set(
	'a b blockquote br code div em h1 h2 h3 h4 h5 h6 hr i img li ol p pre s span strong sub sup table tbody td tfoot th thead tr u ul'.split(
		' ',
	),
);
const VOID_TAGS = new Set(['br', 'hr', 'img']);
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
	a: ['href', 'target'],
	img: ['src', 'alt', 'width', 'height'],
	td: ['colspan', 'rowspan'],
	th: ['colspan', 'rowspan'],
};
const URL_ATTRIBUTES = new Set(['href', 'src']);

/** Elements dropped with everything inside them. */
const DROPPED_WITH_CONTENT =
	/<(script|style|iframe|object|embed|template|noscript|textarea|select|svg|math)\b[\s\S]*?(<\/\1\s*>|$)/gi;
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>/g;
const ATTRIBUTE = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/g;

const safeUrl = (value: string) => /^(https?:\/\/|mailto:)/i.test(value.trim());

function attributesOf(tag: string, text: string): string {
	const allowed = ALLOWED_ATTRIBUTES[tag] ?? [];
	const kept: string[] = [];
	for (const match of text.matchAll(ATTRIBUTE)) {
		const name = match[1].toLowerCase();
		const value = (match[3] ?? match[4] ?? match[5] ?? '').replace(/&amp;/g, '&');
		if (!allowed.includes(name) || (URL_ATTRIBUTES.has(name) && !safeUrl(value))) continue;
		kept.push(` ${name}="${escapeHtml(value)}"`);
	}
	if (tag === 'a') kept.push(' rel="noopener noreferrer"');
	return kept.join('');
}

/** HTML with only allowed tags and attributes; everything else as text or gone. */
export function sanitizeHtml(html: string): string {
	const text = html.replace(/<!--[\s\S]*?(-->|$)/g, '').replace(DROPPED_WITH_CONTENT, '');
	let out = '';
	let last = 0;
	for (const match of text.matchAll(TAG)) {
		out += escapeText(text.slice(last, match.index));
		last = match.index + match[0].length;
		const tag = match[2].toLowerCase();
		if (!ALLOWED_TAGS.has(tag)) continue;
		if (match[1]) out += VOID_TAGS.has(tag) ? '' : `</${tag}>`;
		else out += `<${tag}${attributesOf(tag, match[3])}>`;
	}
	return out + escapeText(text.slice(last));
}

/** Text between tags: a stray < or > shown as such. */
const escapeText = (text: string) => text.replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Custom CSS for a style element: nothing that could close it. */
export const sanitizeCss = (css: string): string => css.replace(/</g, '');
