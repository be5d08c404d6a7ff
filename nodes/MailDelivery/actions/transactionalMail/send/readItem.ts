/**
 * One input item of a transactional send, read (items/sendFields.ts) and made into its messages: its
 * request-level fields and its message versions, in the API's formats and checked, before any request.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { AttachmentReference } from '../../../items/attachments';
import type { ItemParameters } from '../../../items/parameterReader';
import { readSendFields, type SendFields, type SendRequestFields } from '../../../items/sendFields';
import { givenOnly, jsonObjectOf, jsonOf, sendDateOf } from '../../../helpers/requestValues';
import { parseRecipients } from '../../../helpers/recipients';
import { textAsHtml } from '../../../helpers/textBody';
import {
	type FieldRules,
	findProblems,
	problemOf,
	type Problem,
} from '../../../helpers/validation';
import { ItemProblem } from '../../../items/itemErrors';
import {
	recipientLabel,
	type MessageFieldsShown,
	messageFieldsShown,
	sendRulesByPart,
} from './fieldLabels';
import { contentSourceOf } from './requests';

/** One input item, read and checked: its request-level fields and its message versions. */
interface PreparedItem {
	shared: IDataObject;
	versions: IDataObject[];
	attachment?: AttachmentReference;
	/**
	 * Its messages go in requests of their own, never beside another item's: Combine Items is off, or the item
	 * defines its own versions.
	 */
	ownRequest: boolean;
}

/** An item's request-level fields in the API's formats, and what the checks found wrong with them. */
interface RequestPart {
	panel: MessageFieldsShown;
	/** The content given above the versions: a template, or HTML (text made HTML), and a subject. */
	content: IDataObject;
	/** Sender, Additional Fields, Sandbox Mode. Read-only: shared by every item when read once. */
	shared: IDataObject;
	/** What its checks found wrong with the shared fields (a message version's are added per item). */
	sharedProblems: Problem[];
	/** Rules for the whole request, and for its message versions. */
	rules: { request: FieldRules; versions: FieldRules; whole: FieldRules };
	/** The field that holds written content, for errors. */
	written: 'Text Content' | 'HTML Content';
}

const SHARED_TEXT = ['senderName', 'replyTo', 'category', 'campaign', 'uniqueMsgID'];

/** Made once per request fields read: once for the run when they hold no expression (ItemParameters.once). */
const requestParts = new WeakMap<SendRequestFields, RequestPart>();

function requestPartOf(request: SendRequestFields): RequestPart {
	const known = requestParts.get(request);
	if (known) return known;
	const { additional } = request;
	const text = request.contentSource === 'text';
	const content = givenOnly({
		templateName: request.templateName,
		content: (text ? textAsHtml('Text Content', request.content) : request.content) as string,
		subject: request.subject as string,
	});
	const shared = givenOnly({
		senderMail: request.senderMail,
		...Object.fromEntries(
			SHARED_TEXT.map((key) => {
				const value = additional[key];
				return [key, typeof value === 'string' ? value.trim() : value];
			}),
		),
		sendDate: sendDateOf('Send Date', additional.sendDate, request.timezone),
		trackOpen: additional.trackOpen === undefined ? undefined : additional.trackOpen ? 1 : 0,
		trackClick: additional.trackClick === undefined ? undefined : additional.trackClick ? 1 : 0,
		params: jsonObjectOf('Shared Tag Values', additional.sharedParams),
		sandboxMode: request.sandboxMode || undefined,
	});
	const panel = messageFieldsShown(request.perItem, request.recipientSource, request.versionsMode);
	const rules = sendRulesByPart(panel);
	const part: RequestPart = {
		panel,
		content,
		shared,
		// Versions defined here take the content above as the request's; it is checked with them.
		sharedProblems: request.perItem ? findProblems(shared, rules.request) : [],
		rules,
		written: text ? 'Text Content' : 'HTML Content',
	};
	requestParts.set(request, part);
	return part;
}

/** A message version in the API's format: its recipients read, its tag values an object; only what was given. */
function versionOf(raw: IDataObject, panel: MessageFieldsShown): IDataObject {
	const version: IDataObject = {
		to: parseRecipients(raw.to, recipientLabel(panel, 'To')),
		cc: parseRecipients(raw.cc, recipientLabel(panel, 'Cc')),
		bcc: parseRecipients(raw.bcc, recipientLabel(panel, 'Bcc')),
	};
	const templateName =
		typeof raw.templateName === 'string' ? raw.templateName.trim() : raw.templateName;
	const params = jsonObjectOf('Tag Values (JSON)', raw.params);
	return Object.assign(
		version,
		givenOnly({ subject: raw.subject, content: raw.content, templateName, params }),
	);
}

/** Every version has content, and HTML a subject, of its own or the request's. */
function contentProblem(part: RequestPart, shared: IDataObject, versions: IDataObject[]) {
	for (let index = 0; index < versions.length; index++) {
		const version = versions[index];
		if (contentSourceOf(version, shared) !== 'content') continue;
		if (!version.content && !shared.content)
			return new ItemProblem(
				`Field "Template" or "${part.written}" is required (message version ${index + 1})`,
			);
		// HTML has no subject of its own: only a template can supply one (4.6).
		if (!version.subject && !shared.subject)
			return new ItemProblem(
				`Field "Subject" is required when the content is ${part.written === 'Text Content' ? 'text' : 'HTML'} rather than a template (message version ${index + 1})`,
			);
	}
	return undefined;
}

/** An item's one message (Messages From: one per item): To from the field or the item, the rest from above. */
function oneMessage(fields: SendFields, part: RequestPart, params: IDataObject | undefined) {
	const { additional } = fields.request;
	const { content } = part;
	const version = versionOf(
		{
			to: fields.to as IDataObject[string],
			cc: additional.cc,
			bcc: additional.bcc,
			subject: content.subject,
			content: content.content,
			templateName: content.templateName,
			params,
		},
		part.panel,
	);
	const problems = findProblems({ messageVersions: [version] }, part.rules.versions);
	// The shared fields' problems first, as one check of the whole request would list them.
	if (part.sharedProblems.length > 0 || problems.length > 0)
		throw problemOf([...part.sharedProblems, ...problems]);
	return { shared: part.shared, versions: [version] };
}

/** An item's own versions (defined in the node): content and tags given above are their defaults. */
function ownVersions(fields: SendFields, part: RequestPart, params: IDataObject | undefined) {
	const shared = { ...part.shared, ...part.content };
	const merged = { ...((shared.params as IDataObject) ?? {}), ...(params ?? {}) };
	if (Object.keys(merged).length > 0) shared.params = merged;
	const given = fields.versions!;
	const json = 'json' in given ? jsonOf('Message Versions (JSON)', given.json) : undefined;
	if (json !== undefined && !Array.isArray(json))
		throw new ItemProblem('Field "Message Versions (JSON)" must be a JSON array of versions');
	const raw = 'json' in given ? ((json as IDataObject[] | undefined) ?? []) : given.fields;
	const versions = raw.map((version) => versionOf(version ?? {}, part.panel));
	const request: IDataObject = { ...shared, messageVersions: versions };
	const problem = problemOf(findProblems(request, part.rules.whole));
	if (problem) throw problem;
	// The request-level fields as the checks read them (a whole number given for a name is its digits).
	delete request.messageVersions;
	return { shared: request, versions };
}

/**
 * Reads and checks one input item of a send; an error fails that item only, before any request. The request
 * level is made once for the run when its fields hold no expression.
 */
export function readSendItem(
	item: ItemParameters,
	input: INodeExecutionData | undefined,
): PreparedItem {
	const fields = readSendFields(item, input);
	const { request, tagValues } = fields;
	const part = requestPartOf(request);
	const params =
		'json' in tagValues ? jsonObjectOf('Tag Values (JSON)', tagValues.json) : tagValues.byTag;
	const { shared, versions } = request.perItem
		? oneMessage(fields, part, params)
		: ownVersions(fields, part, params);
	const problem = contentProblem(part, shared, versions);
	if (problem) throw problem;
	return {
		shared,
		versions,
		attachment: fields.attachment,
		ownRequest: !request.perItem || request.options.combineItems === false,
	};
}
