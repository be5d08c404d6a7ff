import type { INodeProperties } from 'n8n-workflow';

import type { Operations } from '../types';
import * as add from './add.operation';
import * as deleteSender from './delete.operation';
import * as getMany from './getMany.operation';
import * as verify from './verify.operation';

export const operations: Operations<'verifiedSender'> = {
	getMany,
	add,
	verify,
	delete: deleteSender,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['verifiedSender'] } },
		options: [
			{
				name: 'Add',
				value: 'add',
				description: 'Add a sender address',
				action: 'Add a verified sender',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a sender address',
				action: 'Delete a verified sender',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the senders of the account, or one sender',
				action: 'Get many verified senders',
			},
			{
				name: 'Verify',
				value: 'verify',
				description: 'Check the MX, SPF, DKIM and DMARC records of a sender',
				action: 'Verify a sender',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
	...add.description,
	...verify.description,
	...deleteSender.description,
];
