import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, LIMITS, rules } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';
import {
	attachmentField,
	EDITOR_TYPE_OPTIONS,
	LANGUAGE_OPTIONS,
	sandboxModeField,
	senderLocator,
} from '../common.descriptions';
import {
	applySandboxMode,
	sendDateParam,
	locatorValue,
	setIfPresent,
	trimmed,
} from '../../helpers/parameters';
import { attachmentFromBinary } from '../../helpers/attachments';
import { writeResult } from '../../helpers/results';

const properties: INodeProperties[] = [
	{
		displayName: 'Campaign Name',
		name: 'mailName',
		type: 'string',
		required: true,
		default: '',
		description: `Name of the campaign task (mailName), at most ${LIMITS.campaignMailName} characters; cancel and delete find the task by it`,
	},
	senderLocator(),
	{
		displayName: 'Only Save',
		name: 'onlySave',
		type: 'boolean',
		default: false,
		description: 'Whether to save the task as a draft without sending it',
	},
	{
		displayName: 'Send to Lists Names or IDs',
		name: 'sendListNames',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getListNames' },
		default: [],
		description:
			'Contact lists to send to; required unless Only Save is on (a saved draft keeps them). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		default: '',
		description: `At most ${LIMITS.campaignSubject} characters`,
	},
	{
		displayName: 'HTML Content',
		name: 'content',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		description:
			'HTML body. Add the attribute ef:disable-tracking to a link to turn click tracking off for it.',
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
				displayName: 'Campaign (Activity) Name',
				name: 'marketName',
				type: 'string',
				default: '',
				description: 'Created on the platform when it does not exist',
			},
			{
				displayName: 'Editor Type',
				name: 'editorType',
				type: 'options',
				options: EDITOR_TYPE_OPTIONS,
				default: 'DRAG',
			},
			{
				displayName: 'Exclude Lists Names or IDs',
				name: 'repelListNames',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getListNames' },
				default: [],
				description:
					'Contacts of these lists are not sent to. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
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
				description: 'When to send; empty sends now. Sent to the platform in UTC.',
			},
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
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['create'] } },
	properties,
);

// Subject and sender name become mail headers: one line each.
const fieldRules = {
	mailName: [rules.required, rules.text, rules.maxChars(LIMITS.campaignMailName)],
	senderMail: [rules.required, rules.email],
	subject: [rules.text, rules.singleLine, rules.maxChars(LIMITS.campaignSubject)],
	content: [rules.text],
	senderName: [rules.text, rules.singleLine],
	sendListNames: [rules.nonEmptyList],
	replyTo: [rules.text, rules.email],
};

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const onlySave = this.getNodeParameter('onlySave', itemIndex, false) as boolean;
	const body: IDataObject = {
		mailName: trimmed(this.getNodeParameter('mailName', itemIndex)),
		senderMail: locatorValue.call(this, 'senderMail', itemIndex),
	};
	setIfPresent(body, 'subject', this.getNodeParameter('subject', itemIndex, ''));
	setIfPresent(body, 'content', this.getNodeParameter('content', itemIndex, ''));
	if (onlySave) body.onlySave = true;
	// 4.1: sendListNames is required unless onlySave; a draft may already name its lists.
	const sendListNames = this.getNodeParameter('sendListNames', itemIndex, []) as string[];
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
	setIfPresent(body, 'repelListNames', extra.repelListNames);
	setIfPresent(body, 'sendDate', sendDateParam.call(this, 'Send Date', extra.sendDate, itemIndex));
	assertValid(
		this.getNode(),
		body,
		onlySave ? { ...fieldRules, sendListNames: [] } : fieldRules,
		itemIndex,
	);
	setIfPresent(
		body,
		'attachment',
		await attachmentFromBinary.call(this, itemIndex, String(extra.attachmentBinaryProperty ?? '')),
	);
	applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, '/v5/campaign/mail/sends', body, itemIndex);
	return writeResult(body, answer, { mailName: body.mailName, id: answer.id, guid: answer.guid });
}
