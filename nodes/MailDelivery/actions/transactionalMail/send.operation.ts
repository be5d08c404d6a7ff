import { randomUUID } from 'node:crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { groupKey, runBatched } from '../../helpers/batching';
import { LIMITS } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';
import {
	attachmentField,
	batchThroughputOptions,
	PLATFORM_TAGS_HINT,
	replyToField,
	sandboxModeField,
	sendDateField,
	senderLocator,
	templateLocator,
} from '../common.descriptions';
import { type AttachmentReference, readAttachment } from '../../helpers/attachments';
import { batchOptionsOf } from '../../helpers/batchOptions';
import { diagnoseSendFailure, type LookupMemo } from '../../helpers/transactional/diagnosis';
import {
	MISSING_TAG_VALUES,
	MissingTagCheck,
	missingTagsField,
	missingTagsOutput,
} from '../../helpers/transactional/missingTags';
import { readSendItem } from '../../helpers/transactional/readItem';
import {
	buildRequest,
	contentSourceOf,
	requestIdentity,
	requestIdentityFields,
	requestLevel,
	sharedRefusalCause,
} from '../../helpers/transactional/requests';

// Inside a collection a root parameter is named with a leading slash.
const showInCollection = (messageSource: string) => ({
	show: { '/messageSource': [messageSource] },
});

const properties: INodeProperties[] = [
	senderLocator(
		'senderMail',
		'Sender Email',
		'A verified sender of the account. The list shows transactional senders first; a marketing one says so.',
	),
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
		description: `HTML body. ${PLATFORM_TAGS_HINT} Tag Values fill them in.`,
		displayOptions: { show: { contentSource: ['html'] } },
	},
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		default: '',
		description: `Subject of the mails. ${PLATFORM_TAGS_HINT} Empty uses the template's subject.`,
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
						type: 'resourceLocator',
						default: { mode: 'list', value: '' },
						description:
							"The tag, as written between {{ }}: pick one of the template's (or the HTML's), or type it",
						modes: [
							{
								displayName: 'From Template',
								name: 'list',
								type: 'list',
								typeOptions: { searchListMethod: 'searchTagNames', searchable: true },
							},
							{
								displayName: 'By Name',
								name: 'name',
								type: 'string',
								placeholder: 'firstName',
							},
						],
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
						description: `Subject of this version. ${PLATFORM_TAGS_HINT} Empty uses the subject above, or the template's.`,
					},
					{
						...templateLocator(false),
						description: 'Overrides the template above for this version',
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
		description: `Versions in the API's own shape. ${PLATFORM_TAGS_HINT} This holds for a version's subject and content too.`,
		displayOptions: { show: { messageSource: ['definedHere'], versionsMode: ['json'] } },
	},
	sandboxModeField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			attachmentField,
			{
				displayName: 'Bcc',
				name: 'bcc',
				type: 'string',
				default: '',
				description: 'Blind copy recipients, separated by commas',
				displayOptions: showInCollection('perItem'),
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
				displayOptions: showInCollection('perItem'),
			},
			replyToField,
			sendDateField,
			{
				displayName: 'Sender Name',
				name: 'senderName',
				type: 'string',
				default: '',
				description: `At most ${LIMITS.transactionalSenderName} characters`,
			},
			{
				displayName: 'Shared Tag Values',
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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Combine Items',
				name: 'combineItems',
				type: 'boolean',
				default: true,
				description: `Whether to send up to ${LIMITS.messageVersionsPerRequest} input items in one request (items whose shared fields are equal); off sends one request per item`,
				displayOptions: showInCollection('perItem'),
			},
			{
				displayName: 'Include Input Fields',
				name: 'includeInputFields',
				type: 'boolean',
				default: false,
				description:
					"Whether to put the input item's fields (an order number, say) before the result in each output item",
			},
			missingTagsField,
			...batchThroughputOptions,
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['transactionalMail'], operation: ['send'] } },
	properties,
);

interface VersionEntry {
	itemIndex: number;
	shared: IDataObject;
	version: IDataObject;
	attachment?: AttachmentReference;
	/** Tags its content uses that none of its tag values fill. */
	missingTags: string[];
}

export async function executeBatch(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const path = '/v5/transactional/mail/sends_customised';
	// Throughput options are read once, for item 0: they shape the whole run.
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const lookups: LookupMemo = new Map();
	const tagCheck = new MissingTagCheck(
		this,
		options.missingTagValues === MISSING_TAG_VALUES.fail,
		lookups,
	);
	const output = await runBatched<VersionEntry, IDataObject>(
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
				const { shared, versions, attachment } = await readSendItem.call(this, itemIndex);
				const missing = await tagCheck.check(itemIndex, shared, versions);
				return versions.map((version, index) => ({
					itemIndex,
					shared,
					version,
					attachment,
					missingTags: missing[index],
				}));
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
			remember: requestIdentityFields,
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
			effect: 'mail may have gone out',
			refusedWhole: (error) => error instanceof NodeApiError && error.httpCode === '400',
			sharedCause: (chunk, level, error) =>
				sharedRefusalCause(
					chunk.map((entry) => entry.version),
					level,
					error,
				),
			diagnose: async (chunk, level, error) =>
				await diagnoseSendFailure.call(
					this,
					chunk.map((entry) => entry.version),
					level,
					error,
					lookups,
				),
			describe: (entries, level) => ({
				recipients: entries.flatMap((entry) =>
					['to', 'cc', 'bcc'].flatMap((field) =>
						(entry.version[field] as IDataObject[]).map((recipient) => recipient.email as string),
					),
				),
				...(level ? requestIdentity(level, entries[0].version) : {}),
				...missingTagsOutput(entries.flatMap((entry) => entry.missingTags)),
			}),
		},
		{
			...batchOptionsOf.call(this, options),
			includeInputFields: options.includeInputFields === true,
		},
	);
	tagCheck.addHint();
	return output;
}
