import type { INodeProperties } from 'n8n-workflow';

import type { Operations } from '../types';
import * as get from './get.operation';
import * as save from './save.operation';

export const operations: Operations<'webhook'> = { get, save };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get the push configuration of the account',
				action: 'Get the webhook configuration',
			},
			{
				name: 'Save',
				value: 'save',
				description: 'Save push addresses and event switches',
				action: 'Save the webhook configuration',
			},
		],
		default: 'get',
	},
	...get.description,
	...save.description,
];
