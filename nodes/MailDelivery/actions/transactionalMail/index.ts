import type { INodeProperties } from 'n8n-workflow';

import type { Operations } from '../types';
import * as getStats from './getStats.operation';
import * as send from './send.operation';

export const operations: Operations<'transactionalMail'> = { send, getStats };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transactionalMail'] } },
		options: [
			// Send first: the node creator lists actions in this order.
			{
				name: 'Send',
				value: 'send',
				description: 'Send personalized mails, up to 100 versions per request',
				action: 'Send transactional mail',
			},
			{
				name: 'Get Stats',
				value: 'getStats',
				description: 'Get daily transactional statistics',
				action: 'Get transactional mail stats',
			},
		],
		default: 'send',
	},
	...send.description,
	...getStats.description,
];
