import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { verifiedSenders } from '../../../shared/records';
import { returnAllOrLimit } from '../common.descriptions';
import { pagingOf } from '../../helpers/parameters';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Sender Email',
				name: 'senderEmail',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
				description: 'Return only this sender',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['verifiedSender'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const senderEmail = filters.senderEmail ? String(filters.senderEmail).trim() : undefined;
	const senders = await verifiedSenders.call(this, senderEmail, itemIndex);
	// The platform answers all senders at once; Limit is applied here.
	const { returnAll, limit } = pagingOf.call(this, itemIndex);
	return returnAll ? senders : senders.slice(0, limit);
}
