import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
	},
];

const FIELD_RULES = labelledBy(properties, { email: [rules.required, rules.email] });

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = { email: String(this.getNodeParameter('email', itemIndex)).trim() };
	assertValid(this.getNode(), body, FIELD_RULES, itemIndex);
	const answer = await apiRequest.call(this, '/v5/contacts/get', body, itemIndex);
	return (answer.contact as IDataObject | undefined) ?? {};
}
