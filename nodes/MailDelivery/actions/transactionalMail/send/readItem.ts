/** Reading one input item of a transactional send: its request-level fields and its message versions. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { textOrDigits } from '../../../../shared/parameterKinds';
import type { ItemParameters } from '../../../items/parameterReader';
import { type AttachmentReference, attachmentReference } from '../../../helpers/attachments';
import {
	applySandboxMode,
	jsonParam,
	sendDateParam,
	setIfPresent,
} from '../../../helpers/requestValues';
import { namesOfLocator } from '../../../helpers/locators';
import { taggedParameter } from '../../../helpers/platformTags';
import { textBodyParameter } from '../../../helpers/textBody';
import { AddressListError, parseRecipients } from '../../../helpers/recipients';
import {
	assertValid,
	type FieldRules,
	findProblems,
	inputError,
	type Problem,
	refuseProblems,
} from '../../../helpers/validation';
import {
	recipientLabel,
	type SendPanel,
	sendFieldRules,
	sendPanelOf,
	sendRulesByPart,
} from './fieldLabels';
import { contentSourceOf } from './requests';
import { objectParam, tagValuesOf } from './tagValues';

/** One input item, read and checked: its request-level fields and its message versions. */
interface PreparedItem {
	shared: IDataObject;
	versions: IDataObject[];
	attachment?: AttachmentReference;
}

/** The item's To from its own fields (Recipients From: An Input Field). */
function recipientsFromFields(item: ItemParameters, fields: IDataObject): unknown {
	const emailField = String(item.get('recipientField', 'email')).trim();
	const nameField = String(item.get('recipientNameField', '')).trim();
	const address = fields[emailField];
	if (address === undefined || address === null || address === '') {
		throw inputError(
			item.node,
			`Field "Email Field": the input item has no value in its field "${emailField}"`,
			item.index,
		);
	}
	const name = nameField ? fields[nameField] : undefined;
	if (name === undefined || name === null || name === '') return address;
	// A name that is a whole number (a customer number) is its digits; the Name Field is named otherwise.
	const read = textOrDigits(name);
	if ('problem' in read)
		throw inputError(
			item.node,
			`Field "Name Field": the input item's field "${nameField}" ${read.problem}`,
			item.index,
		);
	return [{ email: String(address).trim(), name: read.value }];
}

function recipientsOf(item: ItemParameters, value: unknown, field: string) {
	try {
		return parseRecipients(value, field);
	} catch (error) {
		if (error instanceof AddressListError) throw inputError(item.node, error.message, item.index);
		throw new NodeOperationError(item.node, error as Error, { itemIndex: item.index });
	}
}

function readVersion(item: ItemParameters, raw: IDataObject, panel: SendPanel): IDataObject {
	const version: IDataObject = {
		to: recipientsOf(item, raw.to, recipientLabel(panel, 'To')),
		cc: recipientsOf(item, raw.cc, recipientLabel(panel, 'Cc')),
		bcc: recipientsOf(item, raw.bcc, recipientLabel(panel, 'Bcc')),
	};
	setIfPresent(version, 'subject', raw.subject);
	setIfPresent(version, 'content', raw.content);
	setIfPresent(
		version,
		'templateName',
		typeof raw.templateName === 'string' ? raw.templateName.trim() : raw.templateName,
	);
	setIfPresent(version, 'params', objectParam(item, 'Tag Values (JSON)', raw.params));
	return version;
}

/** The versions given in Message Versions' fields, each field read for the item; a subject keeps its tags. */
function versionsFromFields(item: ItemParameters): IDataObject[] {
	const path = 'messageVersionsUi.versions';
	const stored = (item.raw(path, []) ?? []) as IDataObject[];
	return stored.map((version, index) => {
		const read: IDataObject = {};
		for (const key of Object.keys(version ?? {})) {
			const field = `${path}[${index}].${key}`;
			if (key === 'subject')
				read[key] = taggedParameter(item, field, 'Subject (message version)') as string;
			else if (key === 'templateName') read[key] = namesOfLocator(item.get(field))[0];
			else read[key] = item.get<IDataObject[string]>(field);
		}
		return read;
	});
}

/** The content given above the versions: a template, HTML or text (as HTML), and a subject (tags kept). */
function readContent(item: ItemParameters): IDataObject {
	const content: IDataObject = {};
	const source = item.get<string>('contentSource', 'template');
	if (source === 'template') setIfPresent(content, 'templateName', item.locator('templateName'));
	else if (source === 'text')
		setIfPresent(content, 'content', textBodyParameter(item, 'textContent', 'Text Content'));
	else setIfPresent(content, 'content', taggedParameter(item, 'content', 'HTML Content'));
	setIfPresent(content, 'subject', taggedParameter(item, 'subject', 'Subject'));
	return content;
}

/** The request-level fields of the item: sender, Additional Fields, Sandbox Mode. */
function readShared(item: ItemParameters, fields: IDataObject): IDataObject {
	const shared: IDataObject = { senderMail: item.locator('senderMail') };
	for (const key of ['senderName', 'replyTo', 'category', 'campaign', 'uniqueMsgID']) {
		setIfPresent(
			shared,
			key,
			typeof fields[key] === 'string' ? (fields[key] as string).trim() : fields[key],
		);
	}
	setIfPresent(shared, 'sendDate', sendDateParam(item, 'Send Date', fields.sendDate));
	if (fields.trackOpen !== undefined) shared.trackOpen = fields.trackOpen ? 1 : 0;
	if (fields.trackClick !== undefined) shared.trackClick = fields.trackClick ? 1 : 0;
	setIfPresent(shared, 'params', objectParam(item, 'Shared Tag Values', fields.sharedParams));
	return applySandboxMode(shared, item);
}

/** The versions defined in the node (fields or JSON), each read for the item. */
function versionsDefinedHere(
	item: ItemParameters,
	versionsMode: string,
	panel: SendPanel,
): IDataObject[] {
	const json =
		versionsMode === 'fields'
			? undefined
			: jsonParam(
					item,
					'Message Versions (JSON)',
					taggedParameter(item, 'messageVersionsJson', 'Message Versions (JSON)'),
				);
	const fromUi = versionsMode === 'json' ? [] : versionsFromFields(item);
	if (json !== undefined && !Array.isArray(json)) {
		throw inputError(
			item.node,
			'Field "Message Versions (JSON)" must be a JSON array of versions',
			item.index,
		);
	}
	return ((json as IDataObject[] | undefined) ?? fromUi).map((raw) =>
		readVersion(item, raw ?? {}, panel),
	);
}

/** Every version has content, and HTML a subject, of its own or the request's. */
function checkContent(item: ItemParameters, shared: IDataObject, versions: IDataObject[]) {
	const written =
		item.get<string>('contentSource', 'template') === 'text' ? 'Text Content' : 'HTML Content';
	versions.forEach((version, index) => {
		if (contentSourceOf(version, shared) !== 'content') return;
		if (!version.content && !shared.content) {
			throw inputError(
				item.node,
				`Field "Template" or "${written}" is required (message version ${index + 1})`,
				item.index,
			);
		}
		// HTML has no subject of its own: only a template can supply one (4.6).
		if (!version.subject && !shared.subject) {
			throw inputError(
				item.node,
				`Field "Subject" is required when the content is ${written === 'Text Content' ? 'text' : 'HTML'} rather than a template (message version ${index + 1})`,
				item.index,
			);
		}
	});
}

/** The fields the request level of an item is read from. */
const REQUEST_FIELDS = [
	'messageSource',
	'recipientSource',
	'versionsMode',
	'contentSource',
	'templateName',
	'content',
	'subject',
	'senderMail',
	'additionalFields',
	'options',
	'sandboxMode',
];

/** An item's request-level fields and content, read and checked; its rules for its messages. */
interface RequestPart {
	perItem: boolean;
	recipientSource: string;
	versionsMode: string;
	panel: SendPanel;
	fields: IDataObject;
	options: IDataObject;
	content: IDataObject;
	/** Read-only: shared by every item when none of REQUEST_FIELDS holds an expression. */
	shared: IDataObject;
	/** What its checks found wrong with the shared fields (a message version's are added per item). */
	sharedProblems: Problem[];
	versionRules: FieldRules;
}

function readRequestPart(item: ItemParameters): RequestPart {
	const fields = item.get<IDataObject>('additionalFields', {});
	const options = item.get<IDataObject>('options', {});
	const messageSource = item.get<string>('messageSource', 'perItem');
	const perItem = messageSource === 'perItem';
	const recipientSource = perItem ? item.get<string>('recipientSource', 'to') : '';
	const versionsMode = perItem ? '' : item.get<string>('versionsMode', 'fields');
	const panel = sendPanelOf(messageSource, recipientSource, versionsMode);
	const content = readContent(item);
	const shared = readShared(item, fields);
	const rules = sendRulesByPart(panel);
	return {
		perItem,
		recipientSource,
		versionsMode,
		panel,
		fields,
		options,
		content,
		shared,
		// Versions defined here take the content above as the request's; it is checked with them.
		sharedProblems: perItem ? findProblems(shared, rules.request) : [],
		versionRules: rules.versions,
	};
}

/**
 * Reads and checks one input item of a send; an error fails that item only, before any request. The request
 * level is read and checked once for the run when its fields hold no expression (item.once).
 */
export function readSendItem(
	item: ItemParameters,
	input: INodeExecutionData | undefined,
): PreparedItem {
	const json = input?.json ?? {};
	const params = tagValuesOf(item, json);
	const part = item.once(REQUEST_FIELDS, () => readRequestPart(item));
	const { fields, options, content, panel } = part;
	let shared = part.shared;
	let versions: IDataObject[];
	if (part.perItem) {
		const to = (
			part.recipientSource === 'inputField' ? recipientsFromFields(item, json) : item.get('to', '')
		) as IDataObject[string];
		versions = [
			readVersion(
				item,
				{
					to,
					cc: fields.cc,
					bcc: fields.bcc,
					subject: content.subject,
					content: content.content,
					templateName: content.templateName,
					params,
				},
				panel,
			),
		];
		const problems = findProblems({ messageVersions: versions }, part.versionRules);
		// The shared fields' problems first, as one check of the whole request would list them.
		if (part.sharedProblems.length > 0 || problems.length > 0)
			refuseProblems(item.node, [...part.sharedProblems, ...problems], item.index);
		// __item is part of the grouping key only (requestLevel drops it): this item gets its own request.
		if (options.combineItems === false) shared = { ...shared, __item: item.index };
	} else {
		// Versions defined here: content and tags given above are the request-level defaults.
		shared = { ...shared, ...content };
		const merged = { ...((shared.params as IDataObject) ?? {}), ...(params ?? {}) };
		if (Object.keys(merged).length > 0) shared.params = merged;
		versions = versionsDefinedHere(item, part.versionsMode, panel);
		// An item's own versions are never mixed with another item's.
		shared.__item = item.index;
		const request: IDataObject = { ...shared, messageVersions: versions };
		assertValid(item.node, request, sendFieldRules(panel), item.index);
		// The request-level fields as the checks read them (a whole number given for a name is its digits).
		delete request.messageVersions;
		shared = request;
	}
	checkContent(item, shared, versions);
	const attachment = attachmentReference(
		item,
		input,
		String(fields.attachmentBinaryProperty ?? ''),
	);
	return { shared, versions, attachment };
}
