import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { namesIn } from '../../run/refusals';

import { assertValid, type FieldRules, labelledBy, LIMITS, rules } from '../../helpers/validation';
import { pickedLists } from '../../items/locators';
import {
	EDITOR_TYPE_OPTIONS,
	LANGUAGE_OPTIONS,
	PLATFORM_TAGS_HINT,
	attachmentField,
	itemOptions,
	listsField,
	retryOptions,
	replyToField,
	sandboxModeField,
	sendDateField,
	senderLocator,
	additionalFieldsCollection,
	textContentField,
} from '../common.descriptions';
import { sendDateOf, setIfPresent, trimmed } from '../../helpers/requestValues';
import { applySandboxMode } from '../../items/commonFields';
import {
	type AttachmentReference,
	attachmentReference,
	readAttachment,
} from '../../items/attachments';
import { textAsHtml } from '../../helpers/textBody';
import { writeResult } from '../../run/results';
import type { ItemParameters } from '../../items/parameterReader';
import type { ItemPlatform, NamedRecord, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Create',
	description: 'Create a campaign task, and send or schedule it',
	action: 'Create a campaign',
};

export const toolDescription =
	'Creates a marketing campaign that sends HTML (or plain text, made into HTML) to whole contact lists (minus exclusion lists), now or at a scheduled time, or saves it as a draft (Only Save). ' +
	'Real mail goes out to every contact of the lists unless Only Save or Sandbox Mode is on. Returns the task id and guid.';

export const properties: INodeProperties[] = [
	{
		displayName: 'Campaign Name',
		name: 'mailName',
		type: 'string',
		required: true,
		default: '',
		description: `Name of the campaign task (mailName), at most ${LIMITS.campaignMailName} characters; cancel and delete find the task by it`,
	},
	senderLocator(
		'senderMail',
		'Sender Email',
		'A verified sender of the account. The list shows marketing senders first; a transactional one says so.',
	),
	{
		displayName: 'Only Save',
		name: 'onlySave',
		type: 'boolean',
		default: false,
		description: 'Whether to save the task as a draft without sending it',
	},
	listsField({
		displayName: 'Send to Lists',
		name: 'sendLists',
		description:
			'Contact lists to send to; required unless Only Save is on (a saved draft keeps them)',
	}),
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		default: '',
		description: `Subject of the campaign. ${PLATFORM_TAGS_HINT} At most ${LIMITS.campaignSubject} characters.`,
	},
	{
		displayName: 'Body Format',
		name: 'bodyFormat',
		type: 'options',
		options: [
			{ name: 'HTML', value: 'html', description: 'HTML you write below, sent as it is' },
			{
				name: 'Text',
				value: 'text',
				description:
					'Plain text you write below, turned into safe HTML: characters shown as typed, line breaks and links kept',
			},
		],
		default: 'html',
	},
	{
		displayName: 'HTML Content',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		description: `HTML body. ${PLATFORM_TAGS_HINT} Add the attribute ef:disable-tracking to a link to turn click tracking off for it.`,
		displayOptions: { show: { bodyFormat: ['html'] } },
	},
	{ ...textContentField, displayOptions: { show: { bodyFormat: ['text'] } } },
	sandboxModeField,
	additionalFieldsCollection([
		attachmentField,
		{
			displayName: 'Activity Name',
			name: 'marketName',
			type: 'string',
			default: '',
			description:
				'The campaign (activity) this task belongs to on the platform; created there when it does not exist',
		},
		{
			displayName: 'Editor Type',
			name: 'editorType',
			type: 'options',
			options: EDITOR_TYPE_OPTIONS,
			default: 'DRAG',
		},
		listsField({
			displayName: 'Exclude Lists',
			name: 'excludeLists',
			description: 'Contacts of these lists are not sent to',
		}),
		{
			displayName: 'Language',
			name: 'languageCode',
			type: 'options',
			options: LANGUAGE_OPTIONS,
			default: 'en',
			description: 'Language of system parts of the mail, such as the unsubscribe text',
		},
		{
			displayName: 'Project Code',
			name: 'projectCode',
			type: 'string',
			default: '',
			description: 'Created on the platform when it does not exist',
		},
		replyToField,
		sendDateField,
		{
			displayName: 'Sender Name',
			name: 'senderName',
			type: 'string',
			default: '',
			description: 'Display name of the sender; the platform uses the sender address when empty',
		},
		{
			displayName: 'Subscription Name',
			name: 'subscriptName',
			type: 'string',
			default: '',
			description: 'Must already exist on the platform',
		},
	]),
	// One campaign after another by default: each sends to whole lists.
	itemOptions(retryOptions, 1),
];

// Subject and sender name become mail headers: one line each.
const fieldRules: FieldRules = labelledBy(properties, {
	mailName: [rules.required, rules.textOrDigits, rules.maxChars(LIMITS.campaignMailName)],
	senderMail: [rules.required, rules.email],
	subject: [rules.text, rules.singleLine, rules.maxChars(LIMITS.campaignSubject)],
	content: [rules.text],
	senderName: [rules.textOrDigits, rules.singleLine],
	sendListNames: { label: 'Send to Lists', rules: [rules.nonEmptyList] },
	replyTo: [rules.text, rules.email],
	marketName: [rules.textOrDigits],
	subscriptName: [rules.textOrDigits],
	projectCode: [rules.textOrDigits],
});

/** The records the request names, to explain a refusal in the user's words (run/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'campaign', must: 'new', names: namesIn('mailName') },
	{ kind: 'sender', must: 'existing', names: namesIn('senderMail') },
	{ kind: 'list', must: 'existing', names: (item) => pickedLists(item, 'sendLists') },
	{
		kind: 'list',
		must: 'existing',
		names: (item) => pickedLists(item, 'additionalFields.excludeLists'),
	},
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the campaign may have been created, and its mail sent';

/** Items naming the same campaign run in input order. */
export const recordOf = (item: ItemParameters) => String(item.get('mailName', '')).trim();

/** The campaign the item creates, and the file to attach, read when its request is due. */
interface Campaign {
	body: IDataObject;
	attachment: AttachmentReference | undefined;
}

export function prepare(this: IExecuteFunctions, item: ItemParameters): Campaign {
	const extra = item.get('additionalFields', {}) as IDataObject;
	const onlySave = item.get('onlySave', false) as boolean;
	const body: IDataObject = {
		mailName: trimmed(item.get('mailName')),
		senderMail: item.locator('senderMail'),
	};
	setIfPresent(body, 'subject', item.tagged('subject', 'Subject'));
	setIfPresent(
		body,
		'content',
		item.get<string>('bodyFormat', 'html') === 'text'
			? textAsHtml('Text Content', item.tagged('textContent', 'Text Content'))
			: item.tagged('content', 'HTML Content'),
	);
	if (onlySave) body.onlySave = true;
	// 4.1: sendListNames is required unless onlySave; a draft may already name its lists.
	const sendListNames = pickedLists(item, 'sendLists');
	if (onlySave) setIfPresent(body, 'sendListNames', sendListNames);
	else body.sendListNames = sendListNames;
	for (const key of [
		'senderName',
		'replyTo',
		'languageCode',
		'marketName',
		'subscriptName',
		'projectCode',
		'editorType',
	]) {
		setIfPresent(body, key, extra[key]);
	}
	if (extra.excludeLists !== undefined)
		setIfPresent(body, 'repelListNames', pickedLists(item, 'additionalFields.excludeLists'));
	setIfPresent(body, 'sendDate', sendDateOf('Send Date', extra.sendDate, item.timezone));
	assertValid(
		item.node,
		body,
		onlySave ? { ...fieldRules, sendListNames: [] } : fieldRules,
		item.index,
	);
	const attachment = attachmentReference(
		item,
		this.getInputData()[item.index],
		String(extra.attachmentBinaryProperty ?? ''),
	);
	applySandboxMode(body, item);
	return { body, attachment };
}

export async function send(this: IExecuteFunctions, plan: Campaign, platform: ItemPlatform) {
	// The file is read when the item's request is due, not while every item is checked.
	const body = plan.attachment
		? { ...plan.body, attachment: await readAttachment.call(this, plan.attachment) }
		: plan.body;
	const answer = await platform.request('/v5/campaign/mail/sends', body);
	return writeResult(body, answer, { mailName: body.mailName, id: answer.id, guid: answer.guid });
}
