import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { LIMITS } from '../../helpers/validation';
import type { LookupMemo } from './send/diagnosis';
import {
	checkTags,
	type Message,
	messageOutputs,
	messagePacking,
	messageReader,
	messageRequests,
} from './send/messages';
import { tagValueFields } from './send/tagValueFields';
import { templateNameOf } from '../../items/sendFields';
import {
	PLATFORM_TAGS_HINT,
	attachmentField,
	retryOptions,
	replyToField,
	sandboxModeField,
	sendDateField,
	senderLocator,
	templateLocator,
	textContentField,
	throughputOptions,
	additionalFieldsCollection,
	optionsCollection,
} from '../common.descriptions';
import { combinedSteps } from '../../run/combined';
import type { OperationOption } from '../../run/operation';
import { MISSING_TAG_VALUES, MissingTagCheck, missingTagsField } from './send/missingTags';
import { previewHint } from './send/preview';

// Inside a collection a root parameter is named with a leading slash.
const showInCollection = (messageSource: string) => ({
	show: { '/messageSource': [messageSource] },
});

/** Items share requests: each request carries up to 100 messages (run/engine.ts). */
export const combinesItems = true;

export const effect = 'mail may have gone out';

export const option: OperationOption = {
	name: 'Send',
	description: 'Send personalized mail to each input item; up to 100 messages share one request',
	action: 'Send transactional mail',
};

export const toolDescription =
	`Sends real email now (or at the Send Date) through the mail delivery platform; nothing can be recalled once sent. ` +
	`To takes one or more recipients separated by commas, each an address or "Name <address>", at most ${LIMITS.recipientsPerField}. ` +
	'With a template the subject is optional (the template has one); with HTML or text content a subject is required. Tag values fill the {{tags}} of the content. ' +
	"Returns success, the recipients, the request's uniqueMsgID (delivery, bounce, open and click events about this mail carry it), the sender and the template; " +
	'on failure an error that names the field to correct. With Sandbox Mode on the request is only checked and nothing is sent.';

export const fasterWays = {
	to: 'Recipients From → An Input Field reads each address from a field of the item',
	tagValues:
		'Define Tag Values → From All Input Fields (or From Chosen Input Fields) reads the tag values from the item',
};

export const properties: INodeProperties[] = [
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
					'Each input item sends several messages (versions), each with its own recipients, subject or tag values, listed below or as JSON',
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
			{
				name: 'Template',
				value: 'template',
				description: 'A template of the account: its HTML, and its subject unless you give one',
			},
			{ name: 'HTML', value: 'html', description: 'HTML you write below, sent as it is' },
			{
				name: 'Text',
				value: 'text',
				description:
					'Plain text you write below, turned into safe HTML: characters shown as typed, line breaks and links kept',
			},
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
	// Not marked required: n8n would then refuse every workflow whose Content Source is an expression and which
	// leaves Text Content empty (it cannot tell which fields such a workflow shows). An empty text is refused by the
	// node, naming the field.
	{ ...textContentField, displayOptions: { show: { contentSource: ['text'] } } },
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		default: '',
		description: `Subject of the mails. ${PLATFORM_TAGS_HINT} Empty uses the template's subject.`,
	},
	...tagValueFields,
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
	additionalFieldsCollection([
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
			description: `A label of your choice that the platform's reports group mails by (its campaign field): letters and digits only, at most ${LIMITS.campaignBytes} bytes`,
		},
		{
			displayName: 'Category',
			name: 'category',
			type: 'string',
			default: '',
			description: `A second label of your choice for the platform's reports (its category field): letters and digits only, at most ${LIMITS.categoryBytes} bytes`,
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
			description: `The name recipients see beside the sender address, at most ${LIMITS.transactionalSenderName} characters. A number is sent as its digits.`,
		},
		{
			displayName: 'Shared Tag Values',
			name: 'sharedParams',
			type: 'json',
			default: '{}',
			description:
				'Tag values for every message, as JSON such as {"shop": "Atelier"}; a message\'s own tag values win',
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
	]),
	optionsCollection([
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
		...throughputOptions(),
		...retryOptions,
	]),
];

/**
 * Reads top to bottom: read and check every item, pack its messages into requests, send them, report; the
 * engine takes these steps in this order (run/combined.ts). The steps' own code is in send/messages.ts.
 */
export const steps = combinedSteps<Message, IDataObject>(function (run) {
	const inputs = this.getInputData();
	const lookups: LookupMemo = new Map();
	// Failing is the default: a send whose Options lack Missing Tag Values fails such messages.
	const tags = new MissingTagCheck(
		this,
		run.options.missingTagValues !== MISSING_TAG_VALUES.send,
		lookups,
	);
	const outputs = messageOutputs(run, inputs, tags);
	return {
		// 0. The first item's template (or the one fixed for all) is looked up from the start, beside the reading.
		beforeReading: (first) => tags.lookUpTemplate(templateNameOf(first) ?? '', first.index),
		// 1. Read and check every item; the templates' tags are looked up meanwhile.
		readItem: messageReader(inputs, tags),
		lookingUp: tags.lookingUp,
		// 2. With Fail the Item, a message missing a tag value fails now, before any request.
		check: tags.failItems ? async (messages) => await checkTags(run, tags, messages) : undefined,
		// 3. Pack the messages into requests of up to 100, by equal request-level fields.
		packing: messagePacking,
		// 4. Send them, several at once; a request refused whole is split to find the message at fault. Each
		// item's output is made as its request is answered, unless its missing tags are only known after.
		requests: messageRequests(this, run, lookups),
		outputs,
		describeAsAnswered: tags.failItems,
		// 5. Report each item's recipients, request and missing tags (in Sandbox Mode its mail), and the run's hints.
		beforeOutputs: tags.failItems
			? undefined
			: async (messages) => void (await checkTags(run, tags, messages)),
		hints: () => {
			tags.addHint();
			previewHint.call(this, outputs.sandboxed());
		},
		// However the run ends, no look-up is left under way after it.
		settle: async () => await tags.ready(),
	};
});
