import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, rules } from '../../helpers/validation';
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

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = { email: String(this.getNodeParameter('email', itemIndex)).trim() };
	assertValid(this.getNode(), body, { email: [rules.required, rules.email] }, itemIndex);
	const answer = await apiRequest.call(this, '/v5/contacts/get', body, itemIndex);
	return (answer.contact as IDataObject | undefined) ?? {};
}
