import type { INodeProperties } from 'n8n-workflow';

import type { Operations } from '../types';
import * as create from './create.operation';
import * as deleteTemplate from './delete.operation';
import * as getMany from './getMany.operation';

export const operations: Operations<'template'> = {
	create,
	getMany,
	delete: deleteTemplate,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Add an email template',
				action: 'Create a template',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete an email template',
				action: 'Delete a template',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Search email templates',
				action: 'Get many templates',
			},
		],
		default: 'create',
	},
	...create.description,
	...getMany.description,
	...deleteTemplate.description,
];
