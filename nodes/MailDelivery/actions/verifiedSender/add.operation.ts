import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { type NamedRecord, namesIn } from '../../helpers/refusals';

import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';
import { sandboxModeField } from '../common.descriptions';
import { applySandboxMode, trimmed } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';

const properties: INodeProperties[] = [
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
			{ name: 'Marketing', value: '1' },
			{ name: 'Transactional', value: '2' },
		],
		default: '2',
	},
	sandboxModeField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['verifiedSender'], operation: ['add'] } },
	properties,
);

/** The records the request names, to explain a refusal in the user's words (helpers/refusals.ts). */
const FIELD_RULES = labelledBy(properties, {
	senderEmail: [rules.required, rules.text, rules.email],
	senderType: [rules.oneOf(['1', '2'])],
});

export const named: NamedRecord[] = [
	{ kind: 'sender', must: 'new', names: namesIn('senderEmail') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the sender may have been added';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = {
		senderEmail: trimmed(this.getNodeParameter('senderEmail', itemIndex)),
		senderType: String(this.getNodeParameter('senderType', itemIndex)),
	};
	assertValid(this.getNode(), body, FIELD_RULES, itemIndex);
	applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, '/v5/verified_senders/add', body, itemIndex);
	return writeResult(body, answer, { senderEmail: body.senderEmail });
}
