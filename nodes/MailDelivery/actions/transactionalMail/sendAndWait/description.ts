/**
 * The fields of Send and Wait for Response, named as n8n's own send-and-wait nodes name them (sendTo, subject,
 * message, responseType, approvalOptions.values, options.limitWaitTime.values, the form's fields and texts), so
 * that people, templates and n8n's Human review tool find them; the sender is Send's picker.
 */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LIMITS } from '../../../helpers/validation';
import { sandboxModeField, senderLocator } from '../../common.descriptions';
import { formFieldsProperties } from './formFields';
import { options } from './options';

const buttonStyle = (displayName: string, name: string, fallback: string): INodeProperties => ({
	displayName,
	name,
	type: 'options',
	default: fallback,
	options: [
		{ name: 'Primary', value: 'primary' },
		{ name: 'Secondary', value: 'secondary' },
	],
});

const approvalOptions: INodeProperties = {
	displayName: 'Approval Options',
	name: 'approvalOptions',
	type: 'fixedCollection',
	placeholder: 'Add option',
	default: {},
	displayOptions: { show: { responseType: ['approval'] } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Type of Approval',
					name: 'approvalType',
					type: 'options',
					default: 'single',
					options: [
						{ name: 'Approve Only', value: 'single' },
						{ name: 'Approve and Disapprove', value: 'double' },
					],
				},
				{
					displayName: 'Approve Button Label',
					name: 'approveLabel',
					type: 'string',
					default: 'Approve',
				},
				buttonStyle('Approve Button Style', 'buttonApprovalStyle', 'primary'),
				{
					displayName: 'Disapprove Button Label',
					name: 'disapproveLabel',
					type: 'string',
					default: 'Decline',
					displayOptions: { show: { approvalType: ['double'] } },
				},
				{
					...buttonStyle('Disapprove Button Style', 'buttonDisapprovalStyle', 'secondary'),
					displayOptions: { show: { approvalType: ['double'] } },
				},
			],
		},
	],
};

export const properties: INodeProperties[] = [
	senderLocator(
		'senderMail',
		'Sender Email',
		'A verified sender of the account. The list shows transactional senders first; a marketing one says so.',
	),
	{
		displayName: 'To',
		name: 'sendTo',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ada@example.org',
		description: `Who answers: an address or "Name &lt;address&gt;"; several (at most ${LIMITS.recipientsPerField}, separated by commas) get the same mail, and the first answer counts`,
	},
	{
		displayName: 'Subject',
		name: 'subject',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Approval required',
	},
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		description: 'Text of the mail, above the buttons; line breaks are kept',
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'User can approve/disapprove from within the message',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'User can submit a response via a form',
			},
			{
				name: 'Custom Form',
				value: 'customForm',
				description: 'User can submit a response via a custom form',
			},
		],
	},
	...updateDisplayOptions({ show: { responseType: ['customForm'] } }, formFieldsProperties),
	approvalOptions,
	sandboxModeField,
	options,
];
