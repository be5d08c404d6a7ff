import type { INodeProperties } from 'n8n-workflow';
import { namesIn } from '../../run/refusals';

import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { itemOptions, retryOptions, sandboxModeField } from '../common.descriptions';
import { trimmed } from '../../helpers/requestValues';
import { applySandboxMode } from '../../items/commonFields';
import { writeResult } from '../../run/results';
import type { ItemParameters } from '../../items/parameterReader';
import type { NamedRecord, OperationOption, RequestPlan } from '../../run/operation';

export const option: OperationOption = {
	name: 'Add',
	description: 'Add a sender address',
	action: 'Add a verified sender',
};

export const toolDescription =
	'Adds a sender address to the account, for marketing or transactional mail. Returns success.';

export const properties: INodeProperties[] = [
	{
		displayName: 'Sender Email',
		name: 'senderEmail',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
		description: 'Address to send from; its domain must not be a top-level domain',
	},
	{
		displayName: 'Sender Type',
		name: 'senderType',
		type: 'options',
		options: [
			{ name: 'Marketing', value: '1', description: 'Sends campaigns (Campaign → Create)' },
			{
				name: 'Transactional',
				value: '2',
				description: 'Sends one-to-one mail (Transactional Mail → Send)',
			},
		],
		default: '2',
	},
	sandboxModeField,
	itemOptions(retryOptions),
];

/** The records the request names, to explain a refusal in the user's words (run/refusals.ts). */
const FIELD_RULES = labelledBy(properties, {
	senderEmail: [rules.required, rules.text, rules.email],
	senderType: [rules.oneOf(['1', '2'])],
});

export const named: NamedRecord[] = [
	{ kind: 'sender', must: 'new', names: namesIn('senderEmail') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the sender may have been added';

/** Items naming the same senderEmail run in input order. */
export const recordOf = (item: ItemParameters) =>
	String(item.get('senderEmail', '')).trim().toLowerCase();

export function prepare(item: ItemParameters): RequestPlan {
	const body = {
		senderEmail: trimmed(item.get('senderEmail')),
		senderType: String(item.get('senderType')),
	};
	assertValid(item.node, body, FIELD_RULES, item.index);
	applySandboxMode(body, item);
	return {
		path: '/v5/verified_senders/add',
		body,
		output: (answer) => writeResult(body, answer, { senderEmail: body.senderEmail }),
	};
}
