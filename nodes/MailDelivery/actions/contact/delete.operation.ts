import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';
import { sandboxModeField } from '../common.descriptions';
import { applySandboxMode } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
	},
	sandboxModeField,
];

const FIELD_RULES = labelledBy(properties, { email: [rules.required, rules.email] });

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['delete'] } },
	properties,
);

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the contact may have been deleted';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = { email: String(this.getNodeParameter('email', itemIndex)).trim() };
	assertValid(this.getNode(), body, FIELD_RULES, itemIndex);
	applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, '/v5/contacts/delete', body, itemIndex);
	return writeResult(body, answer, { email: body.email, deleted: !('sandboxMode' in body) });
}
