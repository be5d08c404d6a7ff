/**
 * The Options of Send and Wait for Response, as a person asking for an answer needs them: the time limit, the
 * confirmation page, the answer page's texts (n8n's names), the attribution, reply-to and sender name in front;
 * the platform's reports and how the one request is sent in two groups, each saying what it is for (most
 * workflows never open them). run/engine.ts reads the Sending group as the Options of every other operation.
 */
import type { INodeProperties } from 'n8n-workflow';

import { LIMITS } from '../../../helpers/validation';
import { replyToField, retryOptions, throughputOptions } from '../../common.descriptions';

/** Shows an option of the Options collection for some response types only. */
const forResponses = (...responseType: string[]) => ({ show: { '/responseType': responseType } });

/** n8n's Limit Wait Time, with its names and default (45 minutes). */
const limitWaitTime: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether to limit the time this node waits for an answer; after it the run goes on with the input items, each with timedOut: true',
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
					typeOptions: { minValue: 0.01, numberPrecision: 2 },
					default: 1,
					description: 'The time to wait, more than 0',
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
					description:
						"Continue after this date and time, read in the workflow's time zone; it must be later than the moment the mail goes out",
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

/**
 * A group of options under one heading (n8n draws a fixed collection's fields together), its first line a notice
 * saying what the group is for (the group's description shows only on hover).
 */
const group = (
	displayName: string,
	name: string,
	description: string,
	values: INodeProperties[],
): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	description,
	default: {
		values: Object.fromEntries(values.map((value) => [value.name, value.default])),
	},
	options: [
		{
			displayName,
			name: 'values',
			values: [
				{ displayName: description, name: `${name}Notice`, type: 'notice', default: '' },
				...values,
			],
		},
	],
});

const reports = group(
	'Platform Reports',
	'reports',
	"How the platform's reports file the mail, and whether it tracks its opening (the Mail Delivery Trigger's Opened events)",
	[
		{
			displayName: 'Category',
			name: 'category',
			type: 'string',
			default: '',
			description: `Report label: letters and digits, at most ${LIMITS.categoryBytes} bytes`,
		},
		{
			displayName: 'Campaign Label',
			name: 'campaign',
			type: 'string',
			default: '',
			description: `Task name for the platform's reports: letters and digits, at most ${LIMITS.campaignBytes} bytes`,
		},
		{
			displayName: 'Track Opens',
			name: 'trackOpen',
			type: 'boolean',
			default: false,
			description: 'Whether the platform tracks when the mail is opened',
		},
	],
);

// One mail per execution: Requests in Parallel has nothing to do here.
const sending = group(
	'Sending the Mail',
	'sending',
	'How the one request that sends the mail is made: how often a "try later" answer is retried, how long the platform may take, and whether a retry after a crash sends again. The defaults suit almost every workflow.',
	[...throughputOptions().filter((option) => option.name !== 'parallelRequests'), ...retryOptions],
);

export const options: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [
		limitWaitTime,
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
			'Message Button Label',
			'messageButtonLabel',
			'Respond',
			'Label of the button in the mail',
		),
		text('Form Title', 'responseFormTitle', '', 'Title of the form page'),
		text(
			'Form Description',
			'responseFormDescription',
			'',
			'Text above the form; empty shows the message',
		),
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
		{
			displayName: 'Append Attribution',
			name: 'appendAttribution',
			type: 'boolean',
			default: true,
			description:
				'Whether to end the mail (and the form page) with "This message was sent automatically with n8n"',
		},
		replyToField,
		{
			displayName: 'Sender Name',
			name: 'senderName',
			type: 'string',
			default: '',
			description: `At most ${LIMITS.transactionalSenderName} characters`,
		},
		reports,
		sending,
	],
};
