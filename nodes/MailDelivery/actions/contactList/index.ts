import type { INodeProperties } from 'n8n-workflow';

import type { Operations } from '../types';
import * as create from './create.operation';
import * as deleteList from './delete.operation';
import * as getMany from './getMany.operation';

export const operations: Operations<'contactList'> = { create, getMany, delete: deleteList };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contactList'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Add a static contact list',
				action: 'Create a contact list',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a contact list',
				action: 'Delete a contact list',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Search contact lists',
				action: 'Get many contact lists',
			},
		],
		default: 'create',
	},
	...create.description,
	...getMany.description,
	...deleteList.description,
];
