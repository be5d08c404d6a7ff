/**
 * The fields of Send and Wait for Response, named as n8n's own send-and-wait nodes name them (sendTo, subject,
 * message, responseType, approvalOptions.values, options.limitWaitTime.values, the form's fields and texts), so
 * that people, templates and n8n's Human review tool find them; the sender is Send's picker.
 */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { LIMITS } from '../../../helpers/validation';
import {
	replyToField,
	repeatOnRetryOption,
	sandboxModeField,
	senderLocator,
	throughputOptions,
} from '../../common.descriptions';
import { formFieldsProperties } from './formFields';

/** Shows an option of the Options collection for some response types only. */
const forResponses = (...responseType: string[]) => ({ show: { '/responseType': responseType } });

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
					displayName: 'Disapprove Label',
					name: 'disapproveLabel',
					type: 'string',
					default: 'Decline',
					displayOptions: { show: { approvalType: ['double'] } },
				},
				{
					...buttonStyle('Disapprove Style', 'buttonDisapprovalStyle', 'secondary'),
					displayOptions: { show: { approvalType: ['double'] } },
				},
			],
		},
	],
};

/** n8n's Limit Wait Time, with its names and default (45 minutes). */
const limitWaitTime: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether to limit the time this node waits for an answer; after it the run goes on with the input items as they came',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{
							name: 'After Time Interval',
							description: 'Waits for a certain amount of time',
							value: 'afterTimeInterval',
						},
						{
							name: 'At Specified Time',
							description: 'Waits until the set date and time to continue',
							value: 'atSpecifiedTime',
						},
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 1,
					description: 'The time to wait',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					default: 'hours',
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description: "Continue after this date and time, read in the workflow's time zone",
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

const text = (displayName: string, name: string, fallback: string, description: string) =>
	({
		displayName,
		name,
		type: 'string',
		default: fallback,
		description,
		displayOptions: forResponses('freeText', 'customForm'),
	}) as INodeProperties;

const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		{
			displayName: 'Append Attribution',
			name: 'appendAttribution',
			type: 'boolean',
			default: true,
			description:
				'Whether to end the mail (and the form page) with "This message was sent automatically with n8n"',
		},
		{
			displayName: 'Campaign Label',
			name: 'campaign',
			type: 'string',
			default: '',
			description: `Task name for the platform's reports: letters and digits, at most ${LIMITS.campaignBytes} bytes`,
		},
		{
			displayName: 'Category',
			name: 'category',
			type: 'string',
			default: '',
			description: `Report label: letters and digits, at most ${LIMITS.categoryBytes} bytes`,
		},
		{
			displayName: 'Confirm on a Page',
			name: 'confirmOnPage',
			type: 'boolean',
			default: true,
			description:
				"Whether Approve and Disapprove open a page whose button records the answer, so that a link scanner opening the mail's links (Safe Links and the like, which look like a browser) never answers for the person. Off, opening a link records the answer at once, as n8n's own nodes do.",
			displayOptions: forResponses('approval'),
		},
		text(
			'Form Button Label',
			'responseFormButtonLabel',
			'Submit',
			'Label of the button that sends the form',
		),
		{
			...text(
				'Form Custom CSS',
				'responseFormCustomCss',
				'',
				'CSS added to the form page, overriding its default styling',
			),
			typeOptions: { rows: 6, editor: 'cssEditor' },
		},
		text(
			'Form Description',
			'responseFormDescription',
			'',
			'Text above the form; empty shows the message',
		),
		text('Form Title', 'responseFormTitle', '', 'Title of the form page'),
		limitWaitTime,
		text(
			'Message Button Label',
			'messageButtonLabel',
			'Respond',
			'Label of the button in the mail',
		),
		replyToField,
		{
			displayName: 'Sender Name',
			name: 'senderName',
			type: 'string',
			default: '',
			description: `At most ${LIMITS.transactionalSenderName} characters`,
		},
		{
			displayName: 'Track Opens',
			name: 'trackOpen',
			type: 'boolean',
			default: false,
			description:
				"Whether the platform tracks when the mail is opened (its reports and the trigger's Opened events)",
		},
		// One mail per execution: Requests in Parallel has nothing to do here.
		...throughputOptions().filter((option) => option.name !== 'parallelRequests'),
		repeatOnRetryOption,
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
