import type { INodeProperties } from 'n8n-workflow';

import type { Operations } from '../types';
import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as deleteCampaign from './delete.operation';
import * as getMany from './getMany.operation';
import * as getStats from './getStats.operation';

export const operations: Operations<'campaign'> = {
	create,
	cancel,
	getMany,
	delete: deleteCampaign,
	getStats,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['campaign'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Cancel a scheduled campaign task',
				action: 'Cancel a campaign',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a campaign task, and send or schedule it',
				action: 'Create a campaign',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a campaign task',
				action: 'Delete a campaign',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Search campaign tasks',
				action: 'Get many campaigns',
			},
			{
				name: 'Get Stats',
				value: 'getStats',
				description: 'Get campaign statistics over a date range',
				action: 'Get campaign stats',
			},
		],
		default: 'create',
	},
	...create.description,
	...cancel.description,
	...getMany.description,
	...deleteCampaign.description,
	...getStats.description,
];
