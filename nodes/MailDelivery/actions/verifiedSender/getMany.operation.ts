import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { sendersOf } from '../../../shared/records';
import { itemOptions, returnAllOrLimit, filtersCollection } from '../common.descriptions';
import { pagingOf } from '../../helpers/requestValues';
import type { ItemRun, OperationOption } from '../../run/operation';

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

export async function execute(item: ItemRun) {
	const filters = item.get('filters', {}) as IDataObject;
	const senderEmail = filters.senderEmail ? String(filters.senderEmail).trim() : undefined;
	// Through the item's request, paced with the run's others, like every operation's.
	const senders = sendersOf(
		await item.request('/v5/verified_senders/get', senderEmail ? { senderEmail } : {}),
	);
	// The platform answers all senders at once; Limit is applied here.
	const { returnAll, limit } = pagingOf(item);
	return returnAll ? senders : senders.slice(0, limit);
}
