import { randomUUID } from 'node:crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { groupKey, runBatched } from '../../helpers/batching';
import { assertValid, type FieldRules, inputError, LIMITS, rules } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import {
	attachmentField,
	batchThroughputOptions,
	sandboxModeField,
	senderLocator,
	templateLocator,
} from '../common.descriptions';
import {
	applySandboxMode,
	dateTimeParam,
	jsonParam,
	locatorValue,
	setIfPresent,
} from '../../helpers/parameters';
import {
	type AttachmentReference,
	attachmentReference,
	readAttachment,
} from '../../helpers/attachments';
import { batchOptionsOf } from '../../helpers/batchOptions';
import { AddressListError, parseRecipients } from '../../helpers/recipients';

// Inside the Options collection a root parameter is named with a leading slash.
const showInOptions = (messageSource: string) => ({ show: { '/messageSource': [messageSource] } });

const properties: INodeProperties[] = [
	senderLocator(),
	{
		displayName: 'Messages',
		name: 'messageSource',
		type: 'options',
		options: [
			{
				name: 'One Message per Input Item',
				value: 'perItem',
				description: 'Each input item is one personalized message (a message version)',
			},
			{
				name: 'Versions Defined Here',
				value: 'definedHere',
				description:
					'Each input item sends its own list of message versions, given below or as JSON',
			},
		],
		default: 'perItem',
	},
	{
		displayName: 'Recipients From',
		name: 'recipientSource',
		type: 'options',
		options: [
			{
				name: 'The To Field Below',
				value: 'to',
				description: 'Addresses typed in, or an expression that gives them',
			},
			{
				name: 'An Input Field',
				value: 'inputField',
				description:
					"Each item's address (and name) read from its fields, with no expression to evaluate: the fastest for many items",
			},
		],
		default: 'to',
		displayOptions: { show: { messageSource: ['perItem'] } },
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'ada@example.org, Grace <grace@example.org>',
		description: `Recipients, separated by commas; "Name &lt;address&gt;" sets a name. At most ${LIMITS.recipientsPerField}.`,
		displayOptions: {
			show: { messageSource: ['perItem'] },
			hide: { recipientSource: ['inputField'] },
		},
	},
	{
		displayName: 'Email Field',
		name: 'recipientField',
		type: 'string',
		required: true,
		default: 'email',
		description: 'Name of the input field holding the address (or several, separated by commas)',
		displayOptions: { show: { messageSource: ['perItem'], recipientSource: ['inputField'] } },
	},
	{
		displayName: 'Name Field',
		name: 'recipientNameField',
		type: 'string',
		default: '',
		placeholder: 'name',
		description: "Name of the input field holding the recipient's name; empty sends no name",
		displayOptions: { show: { messageSource: ['perItem'], recipientSource: ['inputField'] } },
	},
	{
		displayName: 'Content Source',
		name: 'contentSource',
		type: 'options',
		options: [
			{ name: 'Template', value: 'template' },
			{ name: 'HTML', value: 'html' },
		],
		default: 'template',
	},
	{ ...templateLocator(), displayOptions: { show: { contentSource: ['template'] } } },
	{
		displayName: 'HTML Content',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 6 },
		required: true,
		default: '',
		description: 'HTML body; tags are written {{name}} and filled from Tag Values',
		displayOptions: { show: { contentSource: ['html'] } },
	},
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		default: '',
		description: "Subject; may contain tags. Empty uses the template's subject.",
	},
	{
		displayName: 'Define Tag Values',
		name: 'tagValuesMode',
		type: 'options',
		options: [
			{
				name: 'From All Input Fields',
				value: 'inputFields',
				description:
					'Each field of the item is a tag of the same name, with no expression to evaluate',
			},
			{
				name: 'From Chosen Input Fields',
				value: 'chosenInputFields',
				description: 'The named fields of the item, each a tag of the same name',
			},
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'One name and value per tag; drag input fields into the values',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: 'One JSON object, e.g. {"firstName": "Ada"}',
			},
		],
		default: 'fields',
	},
	{
		displayName: 'Input Fields',
		name: 'tagValueFields',
		type: 'string',
		default: '',
		placeholder: 'firstName, orderId',
		description: 'Names of the input fields that become tag values, separated by commas',
		displayOptions: { show: { tagValuesMode: ['chosenInputFields'] } },
	},
	{
		displayName: 'Tag Values',
		name: 'tagValues',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Tag Value',
		default: {},
		description:
			'Values of the personalization tags ({{name}} in the template, subject or HTML). Per message, they win over shared tag values.',
		displayOptions: { show: { tagValuesMode: ['fields'] } },
		options: [
			{
				displayName: 'Tag Value',
				name: 'values',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'firstName',
						description: 'The tag, as written between {{ }} in the content',
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'Ada' },
				],
			},
		],
	},
	{
		displayName: 'Tag Values (JSON)',
		name: 'params',
		type: 'json',
		default: '{}',
		description:
			'Values of the personalization tags, e.g. {"firstName": "Ada"}. Per message, they win over shared tag values.',
		displayOptions: { show: { tagValuesMode: ['json'] } },
	},
	{
		displayName: 'Define Versions',
		name: 'versionsMode',
		type: 'options',
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{
				name: 'Using JSON',
				value: 'json',
				description: "A JSON array of versions in the API's own shape",
			},
		],
		default: 'fields',
		displayOptions: { show: { messageSource: ['definedHere'] } },
	},
	{
		displayName: 'Message Versions',
		name: 'messageVersionsUi',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Version',
		default: {},
		displayOptions: { show: { messageSource: ['definedHere'], versionsMode: ['fields'] } },
		options: [
			{
				// Addresses first, as people write a mail (n8n's lint allows this order for address fields).
				displayName: 'Addresses and Content',
				name: 'versions',
				values: [
					{
						displayName: 'To',
						name: 'to',
						type: 'string',
						default: '',
						placeholder: 'ada@example.org, Grace <grace@example.org>',
						description: `Recipients, separated by commas; "Name &lt;address&gt;" sets a name. At most ${LIMITS.recipientsPerField}.`,
					},
					{ displayName: 'Cc', name: 'cc', type: 'string', default: '' },
					{ displayName: 'Bcc', name: 'bcc', type: 'string', default: '' },
					{
						displayName: 'Subject',
						name: 'subject',
						type: 'string',
						default: '',
						description: "Empty uses the subject above, or the template's",
					},
					{
						displayName: 'Template Name or ID',
						name: 'templateName',
						type: 'options',
						typeOptions: { loadOptionsMethod: 'getTemplateNames' },
						default: '',
						description:
							'Overrides the template above for this version. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Tag Values (JSON)',
						name: 'params',
						type: 'json',
						default: '{}',
						description: 'Tag values of this version; they win over the ones above',
					},
				],
			},
		],
	},
	{
		displayName: 'Message Versions (JSON)',
		name: 'messageVersionsJson',
		type: 'json',
		default: '',
		placeholder:
			'[{"to": [{"email": "ada@example.org", "name": "Ada"}], "params": {"name": "Ada"}}]',
		description: "Versions in the API's own shape",
		displayOptions: { show: { messageSource: ['definedHere'], versionsMode: ['json'] } },
	},
	sandboxModeField,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			attachmentField,
			{
				displayName: 'Bcc',
				name: 'bcc',
				type: 'string',
				default: '',
				description: 'Blind copy recipients, separated by commas',
				displayOptions: showInOptions('perItem'),
			},
			{
				displayName: 'Campaign Label',
				name: 'campaign',
				type: 'string',
				default: '',
				description: `Task name for reports: letters and digits, at most ${LIMITS.campaignBytes} bytes`,
			},
			{
				displayName: 'Category',
				name: 'category',
				type: 'string',
				default: '',
				description: `Report label: letters and digits, at most ${LIMITS.categoryBytes} bytes`,
			},
			{
				displayName: 'Cc',
				name: 'cc',
				type: 'string',
				default: '',
				description: 'Copy recipients, separated by commas',
				displayOptions: showInOptions('perItem'),
			},
			{
				displayName: 'Combine Items Into Requests',
				name: 'combineItems',
				type: 'boolean',
				default: true,
				description: `Whether to send up to ${LIMITS.messageVersionsPerRequest} input items in one request (items whose shared fields are equal); off sends one request per item`,
				displayOptions: showInOptions('perItem'),
			},
			{
				displayName: 'Include Input Fields',
				name: 'includeInputFields',
				type: 'boolean',
				default: false,
				description:
					"Whether to put the input item's fields (an order number, say) before the result in each output item",
			},
			...batchThroughputOptions,
			{
				displayName: 'Reply To',
				name: 'replyTo',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
			},
			{
				displayName: 'Send Date',
				name: 'sendDate',
				type: 'dateTime',
				default: '',
				description: 'When to send; empty sends at once. Sent in UTC.',
			},
			{
				displayName: 'Sender Name',
				name: 'senderName',
				type: 'string',
				default: '',
				description: `At most ${LIMITS.transactionalSenderName} characters`,
			},
			{
				displayName: 'Shared Tag Values (JSON)',
				name: 'sharedParams',
				type: 'json',
				default: '{}',
				description: 'Tag values for every message of the request',
			},
			{
				displayName: 'Track Clicks',
				name: 'trackClick',
				type: 'boolean',
				default: true,
				description: 'Whether to track clicks on links',
			},
			{
				displayName: 'Track Opens',
				name: 'trackOpen',
				type: 'boolean',
				default: true,
				description: 'Whether to track opens',
			},
			{
				displayName: 'Unique Message ID',
				name: 'uniqueMsgID',
				type: 'string',
				default: '',
				description: `Your own identifier of the request, at most ${LIMITS.uniqueMsgIdBytes} bytes; items with different IDs are never combined. Empty: the node makes one per request. Events carry it as UniqueMsgID.`,
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transactionalMail'], operation: ['send'] } },
	properties,
);

const RECIPIENT_LABELS = { to: 'To', cc: 'Cc', bcc: 'Bcc' } as const;
const recipientRules = (field: 'to' | 'cc' | 'bcc') => {
	const label = RECIPIENT_LABELS[field];
	return {
		[`messageVersions[].${field}`]: {
			label,
			rules:
				field === 'to'
					? [rules.nonEmptyList, rules.maxItems(LIMITS.recipientsPerField)]
					: [rules.maxItems(LIMITS.recipientsPerField)],
		},
		[`messageVersions[].${field}[].email`]: { label, rules: [rules.required, rules.email] },
		[`messageVersions[].${field}[].name`]: {
			label: `${label} (a recipient's name)`,
			rules: [rules.maxChars(LIMITS.recipientName)],
		},
	};
};

const FIELD_RULES: FieldRules = {
	senderMail: { label: 'Sender Email', rules: [rules.required, rules.email] },
	senderName: { label: 'Sender Name', rules: [rules.maxChars(LIMITS.transactionalSenderName)] },
	replyTo: { label: 'Reply To', rules: [rules.email] },
	category: {
		label: 'Category',
		rules: [rules.maxBytes(LIMITS.categoryBytes), rules.lettersAndDigits],
	},
	campaign: {
		label: 'Campaign Label',
		rules: [rules.maxBytes(LIMITS.campaignBytes), rules.lettersAndDigits],
	},
	uniqueMsgID: { label: 'Unique Message ID', rules: [rules.maxBytes(LIMITS.uniqueMsgIdBytes)] },
	messageVersions: { label: 'Message Versions', rules: [rules.nonEmptyList] },
	...recipientRules('to'),
	...recipientRules('cc'),
	...recipientRules('bcc'),
};

/** One input item, read and checked: its request-level fields and its message versions. */
interface PreparedItem {
	shared: IDataObject;
	versions: IDataObject[];
	attachment?: AttachmentReference;
}

function objectParam(
	this: IExecuteFunctions,
	field: string,
	value: unknown,
	itemIndex: number,
): IDataObject | undefined {
	const parsed = jsonParam.call(this, field, value, itemIndex);
	if (parsed === undefined || parsed === null) return undefined;
	if (typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw inputError(
			this.getNode(),
			`Field "${field}" must be a JSON object such as {"name": "Ada"}`,
			itemIndex,
		);
	}
	return Object.keys(parsed).length ? (parsed as IDataObject) : undefined;
}

/** The item's tag values: from its input fields, name/value pairs, or one JSON object. */
function tagValuesOf(this: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const mode = this.getNodeParameter('tagValuesMode', itemIndex, 'fields') as string;
	if (mode === 'inputFields' || mode === 'chosenInputFields') {
		const fields = this.getInputData()[itemIndex]?.json ?? {};
		if (mode === 'inputFields') return Object.keys(fields).length > 0 ? fields : undefined;
		const chosen = listOfNames(this.getNodeParameter('tagValueFields', itemIndex, '') as string);
		return chosen.length > 0
			? Object.fromEntries(
					chosen.filter((name) => name in fields).map((name) => [name, fields[name]]),
				)
			: undefined;
	}
	if (mode === 'json') {
		return objectParam.call(
			this,
			'Tag Values (JSON)',
			this.getNodeParameter('params', itemIndex, '{}'),
			itemIndex,
		);
	}
	const pairs = (this.getNodeParameter('tagValues.values', itemIndex, []) as IDataObject[]) ?? [];
	const values: IDataObject = {};
	pairs.forEach((pair, index) => {
		const name = String(pair.name ?? '').trim();
		if (!name)
			throw inputError(
				this.getNode(),
				`Field "Tag Values": tag value ${index + 1} has no name`,
				itemIndex,
			);
		values[name] = pair.value as IDataObject[keyof IDataObject];
	});
	return Object.keys(values).length > 0 ? values : undefined;
}

const listOfNames = (text: string) =>
	text
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);

/** The item's To from its own fields (Recipients From: An Input Field). */
function recipientsFromFields(this: IExecuteFunctions, itemIndex: number): unknown {
	const fields = this.getInputData()[itemIndex]?.json ?? {};
	const emailField = String(this.getNodeParameter('recipientField', itemIndex, 'email')).trim();
	const nameField = String(this.getNodeParameter('recipientNameField', itemIndex, '')).trim();
	const address = fields[emailField];
	if (address === undefined || address === null || address === '') {
		throw inputError(
			this.getNode(),
			`Field "Email Field": the input item has no value in its field "${emailField}"`,
			itemIndex,
		);
	}
	const name = nameField ? fields[nameField] : undefined;
	if (name === undefined || name === null || name === '') return address;
	return [{ email: String(address).trim(), name: String(name) }];
}

function recipientsOf(this: IExecuteFunctions, value: unknown, field: string, itemIndex: number) {
	try {
		return parseRecipients(value, field);
	} catch (error) {
		if (error instanceof AddressListError)
			throw inputError(this.getNode(), error.message, itemIndex);
		throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
	}
}

function readVersion(this: IExecuteFunctions, raw: IDataObject, itemIndex: number): IDataObject {
	const version: IDataObject = {
		to: recipientsOf.call(this, raw.to, 'To', itemIndex),
		cc: recipientsOf.call(this, raw.cc, 'Cc', itemIndex),
		bcc: recipientsOf.call(this, raw.bcc, 'Bcc', itemIndex),
	};
	setIfPresent(version, 'subject', raw.subject);
	setIfPresent(version, 'content', raw.content);
	setIfPresent(
		version,
		'templateName',
		typeof raw.templateName === 'string' ? raw.templateName.trim() : raw.templateName,
	);
	setIfPresent(
		version,
		'params',
		objectParam.call(this, 'Tag Values (JSON)', raw.params, itemIndex),
	);
	return version;
}

/**
 * Where a version's body comes from. A request never mixes the two kinds: with a request-level
 * templateName the platform would use the template over a version's own HTML (4.6).
 */
function contentSourceOf(version: IDataObject, shared: IDataObject): 'template' | 'content' {
	if (version.templateName) return 'template';
	if (version.content) return 'content';
	return shared.templateName ? 'template' : 'content';
}

async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<PreparedItem> {
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const messageSource = this.getNodeParameter('messageSource', itemIndex, 'perItem') as string;
	const contentSource = this.getNodeParameter('contentSource', itemIndex, 'template') as string;
	const content: IDataObject = {};
	if (contentSource === 'template')
		setIfPresent(content, 'templateName', locatorValue.call(this, 'templateName', itemIndex));
	else setIfPresent(content, 'content', this.getNodeParameter('content', itemIndex, ''));
	setIfPresent(content, 'subject', this.getNodeParameter('subject', itemIndex, ''));
	const params = tagValuesOf.call(this, itemIndex);

	const shared: IDataObject = { senderMail: locatorValue.call(this, 'senderMail', itemIndex) };
	for (const key of ['senderName', 'replyTo', 'category', 'campaign', 'uniqueMsgID']) {
		setIfPresent(
			shared,
			key,
			typeof options[key] === 'string' ? (options[key] as string).trim() : options[key],
		);
	}
	setIfPresent(
		shared,
		'sendDate',
		dateTimeParam.call(this, 'Send Date', options.sendDate, itemIndex),
	);
	if (options.trackOpen !== undefined) shared.trackOpen = options.trackOpen ? 1 : 0;
	if (options.trackClick !== undefined) shared.trackClick = options.trackClick ? 1 : 0;
	setIfPresent(
		shared,
		'params',
		objectParam.call(this, 'Shared Tag Values (JSON)', options.sharedParams, itemIndex),
	);
	applySandboxMode.call(this, shared, itemIndex);

	let versions: IDataObject[];
	if (messageSource === 'perItem') {
		const to = (
			this.getNodeParameter('recipientSource', itemIndex, 'to') === 'inputField'
				? recipientsFromFields.call(this, itemIndex)
				: this.getNodeParameter('to', itemIndex, '')
		) as IDataObject[string];
		versions = [
			readVersion.call(
				this,
				{ to, cc: options.cc, bcc: options.bcc, ...content, params },
				itemIndex,
			),
		];
		// __item is part of the grouping key only (buildRequest drops it): this item gets its own request.
		if (options.combineItems === false) shared.__item = itemIndex;
	} else {
		// Versions defined here: content and tags given above are the request-level defaults.
		Object.assign(shared, content);
		const merged = { ...((shared.params as IDataObject) ?? {}), ...(params ?? {}) };
		if (Object.keys(merged).length > 0) shared.params = merged;
		const versionsMode = this.getNodeParameter('versionsMode', itemIndex, 'fields') as
			'fields' | 'json';
		const json =
			versionsMode === 'fields'
				? undefined
				: jsonParam.call(
						this,
						'Message Versions (JSON)',
						this.getNodeParameter('messageVersionsJson', itemIndex, ''),
						itemIndex,
					);
		const fromUi =
			versionsMode === 'json'
				? []
				: ((this.getNodeParameter('messageVersionsUi.versions', itemIndex, []) as IDataObject[]) ??
					[]);
		if (json !== undefined && !Array.isArray(json)) {
			throw inputError(
				this.getNode(),
				'Field "Message Versions (JSON)" must be a JSON array of versions',
				itemIndex,
			);
		}
		versions = ((json as IDataObject[] | undefined) ?? fromUi).map((raw) =>
			readVersion.call(this, raw ?? {}, itemIndex),
		);
		// An item's own versions are never mixed with another item's.
		shared.__item = itemIndex;
	}

	assertValid(this.getNode(), { ...shared, messageVersions: versions }, FIELD_RULES, itemIndex);
	versions.forEach((version, index) => {
		const source = contentSourceOf(version, shared);
		if (source === 'content' && !version.content && !shared.content) {
			throw inputError(
				this.getNode(),
				`Field "Template" or "HTML Content" is required (message version ${index + 1})`,
				itemIndex,
			);
		}
		// HTML has no subject of its own: only a template can supply one (4.6).
		if (source === 'content' && !version.subject && !shared.subject) {
			throw inputError(
				this.getNode(),
				`Field "Subject" is required when the content is HTML rather than a template (message version ${index + 1})`,
				itemIndex,
			);
		}
	});
	const attachment = attachmentReference.call(
		this,
		itemIndex,
		String(options.attachmentBinaryProperty ?? ''),
	);
	return { shared, versions, attachment };
}

/** The value most versions share (the first of equals on a tie), or undefined when none has one. */
function mostShared(versions: IDataObject[], key: string): unknown {
	const counts = new Map<unknown, number>();
	for (const version of versions)
		if (version[key] !== undefined) counts.set(version[key], (counts.get(version[key]) ?? 0) + 1);
	let best: unknown;
	let bestCount = 0;
	for (const [value, count] of counts) if (count > bestCount) [best, bestCount] = [value, count];
	return best;
}

/**
 * The request-level body of a chunk, chosen once and kept when a refused request is split: the
 * shared fields, and the template or HTML most versions use (the API wants one at the request level;
 * versions that use another keep their own, which overrides it).
 */
function requestLevel(shared: IDataObject, versions: IDataObject[]): IDataObject {
	// __item is part of the grouping key only.
	const body = { ...shared };
	delete body.__item;
	const source = contentSourceOf(versions[0], shared);
	const key = source === 'template' ? 'templateName' : 'content';
	delete body[source === 'template' ? 'content' : 'templateName'];
	body[key] ??= mostShared(versions, key) as string;
	if (
		body.subject === undefined &&
		versions.every(
			(version) => version.subject !== undefined && version.subject === versions[0].subject,
		)
	) {
		body.subject = versions[0].subject;
	}
	return body;
}

/** One request: the request-level body, and each version without what it shares with it. */
function buildRequest(level: IDataObject, versions: IDataObject[]): IDataObject {
	const messageVersions = versions.map((version) => {
		const own = { ...version };
		for (const key of ['templateName', 'content', 'subject'])
			if (own[key] !== undefined && own[key] === level[key]) delete own[key];
		return own;
	});
	return { ...level, messageVersions };
}

interface VersionEntry {
	itemIndex: number;
	shared: IDataObject;
	version: IDataObject;
	attachment?: AttachmentReference;
}

/** One look-up, made only after a refusal, to say which condition applies. */
async function templateExists(this: IExecuteFunctions, name: string): Promise<boolean> {
	const answer = await apiRequest.call(this, '/v5/campaign/mail/template/get', {
		templateName: name,
		pageSize: 100,
		pageIndex: 1,
	});
	return ((answer.templateList as IDataObject[] | undefined) ?? []).some(
		(template) => template.templateName === name,
	);
}

async function isVerifiedSender(this: IExecuteFunctions, address: string): Promise<boolean> {
	const answer = await apiRequest.call(this, '/v5/verified_senders/get', {});
	return ((answer.mailFromDomains as IDataObject[] | undefined) ?? []).some(
		(sender) => String(sender.fromDomain).toLowerCase() === address.toLowerCase(),
	);
}

/** What identifies a sent message's request, to match the trigger's events (UniqueMsgID, SenderEmail) later. */
function requestIdentity(level: IDataObject, version: IDataObject): IDataObject {
	const identity: IDataObject = { uniqueMsgID: level.uniqueMsgID, senderMail: level.senderMail };
	const templateName =
		version.templateName ?? (version.content === undefined ? level.templateName : undefined);
	if (templateName) identity.templateName = templateName;
	return identity;
}

export async function executeBatch(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const path = '/v5/transactional/mail/sends_customised';
	// Throughput options are read once, for item 0: they shape the whole run.
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	return await runBatched<VersionEntry, IDataObject>(
		this,
		items.length,
		{
			maxPerRequest: LIMITS.messageVersionsPerRequest,
			// Equal request-level fields, the same kind of content, the same attachment file.
			keyOf: (entry) =>
				groupKey([
					entry.shared,
					contentSourceOf(entry.version, entry.shared),
					entry.attachment?.identity ?? null,
				]),
			prepare: async (itemIndex) => {
				const { shared, versions, attachment } = await prepare.call(this, itemIndex);
				return versions.map((version) => ({ itemIndex, shared, version, attachment }));
			},
			fix: (chunk) => {
				const level = requestLevel(
					chunk[0].shared,
					chunk.map((entry) => entry.version),
				);
				// Events carry the request's UniqueMsgID: one per request when the user gives none, so every
				// output item can be matched with the trigger's events. Halves of a refused request keep it.
				level.uniqueMsgID ??= randomUUID();
				return level;
			},
			send: async (chunk, level, options) => {
				const body = buildRequest(
					level,
					chunk.map((entry) => entry.version),
				);
				// The file is read now, request by request, so memory holds one request's attachment at a time.
				if (chunk[0].attachment)
					body.attachment = await readAttachment.call(this, chunk[0].attachment);
				return { body, answer: await apiRequest.call(this, path, body, options) };
			},
			// 7.2: every 400 is a refusal of the whole request before anything is sent.
			refusedWhole: (error) => error instanceof NodeApiError && error.httpCode === '400',
			diagnose: async (chunk, level, error) => {
				const code = Number(error.httpCode);
				const usesTemplate = (version: IDataObject) =>
					version.templateName ?? (version.content === undefined ? level.templateName : undefined);
				if (code === 400 && chunk.length === 1) {
					const name = usesTemplate(chunk[0].version) as string | undefined;
					if (name && !(await templateExists.call(this, name)))
						return `the template "${name}" this item names is not in the account's template list`;
				}
				if (code === 403) {
					if (!(await isVerifiedSender.call(this, String(level.senderMail))))
						return `${String(level.senderMail)} is not a verified sender of the account`;
					const name = level.templateName as string | undefined;
					if (name && !(await templateExists.call(this, name)))
						return `the template "${name}" is not in the account's template list`;
				}
				return undefined;
			},
			describe: (entries, level) => ({
				recipients: entries.flatMap((entry) =>
					['to', 'cc', 'bcc'].flatMap((field) =>
						(entry.version[field] as IDataObject[]).map((recipient) => recipient.email as string),
					),
				),
				...(level ? requestIdentity(level, entries[0].version) : {}),
			}),
		},
		{
			...batchOptionsOf.call(this, options),
			includeInputFields: options.includeInputFields === true,
		},
	);
}
