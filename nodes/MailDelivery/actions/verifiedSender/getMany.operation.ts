import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
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
	const body: IDataObject = filters.senderEmail
		? { senderEmail: String(filters.senderEmail).trim() }
		: {};
	const answer = await apiRequest.call(this, '/v5/verified_senders/get', body, itemIndex);
	const senders = (answer.mailFromDomains as IDataObject[] | undefined) ?? [];
	// The platform answers all senders at once; Limit is applied here.
	const { returnAll, limit } = pagingOf.call(this, itemIndex);
	return returnAll ? senders : senders.slice(0, limit);
}
