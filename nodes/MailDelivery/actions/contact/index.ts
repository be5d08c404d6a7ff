import type { INodeProperties } from 'n8n-workflow';

import type { Operations } from '../types';
import * as deleteContact from './delete.operation';
import * as get from './get.operation';
import * as importContacts from './import.operation';
import * as upsert from './upsert.operation';

export const operations: Operations<'contact'> = {
	upsert,
	import: importContacts,
	get,
	delete: deleteContact,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				action: 'Create or update a contact',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a contact',
				action: 'Delete a contact',
			},
			{ name: 'Get', value: 'get', description: 'Get a contact by email', action: 'Get a contact' },
			{
				name: 'Import',
				value: 'import',
				description: 'Import many contacts from the input items',
				action: 'Import contacts',
			},
		],
		default: 'upsert',
	},
	...upsert.description,
	...importContacts.description,
	...get.description,
	...deleteContact.description,
];
