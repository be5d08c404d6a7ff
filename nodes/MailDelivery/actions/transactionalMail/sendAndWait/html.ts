/** Text made safe for HTML, for the mail and the pages. */

const ENTITIES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;',
	// The platform fills {{name}} in a mail's HTML as its own tags (4.6): braces written as entities show the
	// same to the reader and are never read as a tag, whatever the text holds.
	'{': '&#123;',
	'}': '&#125;',
};

/** Text as HTML: every character that means something in HTML (or to the platform's tags) escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"'{}]/g, (c) => ENTITIES[c]);

/**
 * A message as HTML paragraphs: escaped, its line breaks kept (also the `\n` and `<br>` that n8n's own nodes
 * read as line breaks, so a message written for them reads the same here).
 */
export function messageHtml(message: string): string {
	const lines = message
		.trim()
		.replace(/\\n/g, '\n')
		.replace(/<br\s*\/?>/gi, '\n')
		.split(/\r?\n/);
	return lines.map(escapeHtml).join('<br>');
}
