/**
 * The mail before it goes out: with Sandbox Mode on, each item's output shows its messages as their recipients
 * would read them, the subject and the HTML with the tags filled from the message's values (its own over the
 * shared ones, as the platform merges them) in the template the missing-tag check read, or in the node's own
 * content. n8n's expression preview cannot: it shows a platform tag as nothing. JSON for the table and the next
 * node. Bounded (the first PREVIEWED_ITEMS items of a run), and made only for requests the platform took in
 * Sandbox Mode: nothing of it runs otherwise.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { fillTags } from '../../../helpers/tags';
import type { MissingTagCheck } from './missingTags';
import { contentSourceOf } from './requests';

/** Items of a run that show their mail: enough to check a send, few enough for n8n to keep with the execution. */
export const PREVIEWED_ITEMS = 100;

interface MessageParts {
	shared: IDataObject;
	version: IDataObject;
}

const addressesOf = (recipients: unknown) =>
	((recipients as IDataObject[] | undefined) ?? []).map((recipient) => String(recipient.email));

/** One message as its recipient reads it: its recipients, subject and HTML, tags filled. */
function messagePreview({ shared, version }: MessageParts, tags: MissingTagCheck): IDataObject {
	const values = {
		...((shared.params as IDataObject | undefined) ?? {}),
		...((version.params as IDataObject | undefined) ?? {}),
	};
	const preview: IDataObject = { to: addressesOf(version.to) };
	for (const field of ['cc', 'bcc'])
		if ((version[field] as unknown[] | undefined)?.length)
			preview[field] = addressesOf(version[field]);
	let subject = (version.subject ?? shared.subject) as string | undefined;
	let body: unknown;
	if (contentSourceOf(version, shared) === 'content') body = version.content ?? shared.content;
	else {
		const name = String(version.templateName ?? shared.templateName ?? '');
		const texts = tags.textsOf(name);
		if ('unreadable' in texts)
			return {
				...preview,
				note: `The template "${name}" ${texts.unreadable}: its mail cannot be shown.`,
			};
		// The template's subject is used only when the send gives none.
		if (subject === undefined || subject === '') subject = texts.subject;
		body = texts.content;
	}
	preview.subject = fillTags(String(subject ?? ''), values);
	preview.html = fillTags(String(body ?? ''), values);
	preview.text = readableText(preview.html as string);
	return preview;
}

const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	nbsp: ' ',
	'#39': "'",
};

/**
 * The body as a person reads it, for n8n's table and JSON views (n8n does not show an HTML file): no markup,
 * a line per line break and a blank line per paragraph, a link's address after its text.
 */
function readableText(html: string): string {
	return (
		html
			.replace(/<(style|script|head)\b[^]*?<\/\1\s*>/gi, '')
			.replace(
				/<a\b[^>]*?href\s*=\s*["']([^"']*)["'][^>]*>([^]*?)<\/a\s*>/gi,
				(_a, href: string, text: string) => (text.includes(href) ? text : `${text} (${href})`),
			)
			// Line breaks in HTML source are spaces; only markup breaks lines.
			.replace(/\s+/g, ' ')
			.replace(/<br\s*\/?>/gi, '\n')
			.replace(/<\/(p|div|h[1-6]|li|tr|table|blockquote)\s*>/gi, '\n\n')
			.replace(/<[^>]*>/g, '')
			.replace(/&(amp|lt|gt|quot|nbsp|#39);/g, (_e, name: string) => ENTITIES[name])
			.replace(/ *\n */g, '\n')
			.replace(/\n{3,}/g, '\n\n')
			.trim()
	);
}

/**
 * What an item's output shows of its messages. `columns` come first in the output item: n8n opens a sandboxed
 * send's output on its Table view, whose columns are the item's keys in order, and the mail is what the person
 * came to see (issue 61): to whom, the subject and the text of its message (an item with several: its first).
 * `preview` holds the whole mail (HTML too), or `messages` for an item with several, for the JSON view and the
 * next node.
 */
export function itemPreview(
	messages: MessageParts[],
	tags: MissingTagCheck,
): { columns: IDataObject; preview: IDataObject } {
	const previews = messages.map((message) => messagePreview(message, tags));
	const first = previews[0];
	const columns: IDataObject = { previewTo: (first.to as string[]).join(', ') };
	if (first.note !== undefined) columns.previewNote = first.note;
	else {
		columns.previewSubject = first.subject;
		columns.previewText = first.text;
	}
	return { columns, preview: previews.length === 1 ? first : { messages: previews } };
}

/**
 * Says in one hint when the run had more sandboxed items than it previews. The preview stays in the JSON, not
 * in an HTML file as well: n8n's output panel opens on its Binary view whenever an item holds a file, so the
 * person would see a file to download before the mail itself (issue 54.5).
 */
export function previewHint(this: IExecuteFunctions, sandboxedItems: number) {
	if (sandboxedItems > PREVIEWED_ITEMS)
		this.addExecutionHints({
			message: `Sandbox Mode: the first ${PREVIEWED_ITEMS} items show their mail (preview); the other ${sandboxedItems - PREVIEWED_ITEMS} were checked by the platform without one.`,
			location: 'outputPane',
		});
}
