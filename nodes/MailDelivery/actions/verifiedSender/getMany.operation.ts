import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { sendersOf } from '../../../shared/records';
import { itemOptions, returnAllOrLimit, filtersCollection } from '../common.descriptions';
import { type Paging, pagingOf } from '../../items/commonFields';
import type { ItemParameters } from '../../items/parameterReader';
import type { ItemPlatform, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Get Many',
	description: 'List the senders of the account, or one sender',
	action: 'Get many verified senders',
};

export const toolDescription =
	'Lists the sender addresses of the account with their DNS check results and type (marketing or transactional).';

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filtersCollection([
		{
			displayName: 'Sender Email',
			name: 'senderEmail',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			description: 'Return only this sender',
		},
	]),
	itemOptions(),
];

interface Search {
	body: IDataObject;
	paging: Paging;
}

export function prepare(item: ItemParameters): Search {
	const filters = item.get('filters', {}) as IDataObject;
	const senderEmail = filters.senderEmail ? String(filters.senderEmail).trim() : undefined;
	return { body: senderEmail ? { senderEmail } : {}, paging: pagingOf(item) };
}

export async function send({ body, paging }: Search, platform: ItemPlatform) {
	// Through the item's request, paced with the run's others, like every operation's.
	const senders = sendersOf(await platform.request('/v5/verified_senders/get', body));
	// The platform answers all senders at once; Limit is applied here.
	return paging.returnAll ? senders : senders.slice(0, paging.limit);
}
