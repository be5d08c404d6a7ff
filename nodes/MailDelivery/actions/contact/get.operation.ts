import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { itemOptions } from '../common.descriptions';
import type { ItemRun, OperationOption } from '../../run/operation';
import { contactEmailField, contactNamedBy } from './shared';

export const option: OperationOption = {
	name: 'Get',
	description: 'Get a contact by email',
	action: 'Get a contact',
};

export const toolDescription =
	'Looks up one contact by email address. Returns its name, phone number and properties, or an error when there is none.';

export const properties: INodeProperties[] = [contactEmailField, itemOptions()];

export async function execute(item: ItemRun) {
	const body = contactNamedBy(item);
	const answer = await item.request('/v5/contacts/get', body);
	return (answer.contact as IDataObject | undefined) ?? {};
}
