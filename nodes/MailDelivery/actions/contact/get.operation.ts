import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { trimmed } from '../../helpers/parameters';
import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { itemOptions } from '../common.descriptions';
import type { ItemRun, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Get',
	description: 'Get a contact by email',
	action: 'Get a contact',
};

export const toolDescription =
	'Looks up one contact by email address. Returns its name, phone number and properties, or an error when there is none.';

export const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
	},
	itemOptions(),
];

const FIELD_RULES = labelledBy(properties, { email: [rules.required, rules.text, rules.email] });

export async function execute(item: ItemRun) {
	const body = { email: trimmed(item.get('email')) };
	assertValid(item.node, body, FIELD_RULES, item.index);
	const answer = await item.request('/v5/contacts/get', body);
	return (answer.contact as IDataObject | undefined) ?? {};
}
