import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { itemOptions } from '../common.descriptions';
import type { ItemParameters } from '../../items/parameterReader';
import type { OperationOption, RequestPlan } from '../../run/operation';
import { contactEmailField, contactNamedBy } from './shared';

export const option: OperationOption = {
	name: 'Get',
	description: 'Get a contact by email',
	action: 'Get a contact',
};

export const toolDescription =
	'Looks up one contact by email address. Returns its name, phone number and properties, or an error when there is none.';

export const properties: INodeProperties[] = [contactEmailField, itemOptions()];

export const prepare = (item: ItemParameters): RequestPlan => ({
	path: '/v5/contacts/get',
	body: contactNamedBy(item),
	output: (answer) => (answer.contact as IDataObject | undefined) ?? {},
});
