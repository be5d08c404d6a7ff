import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { dayRangeFields, itemOptions } from '../common.descriptions';
import { readDayRange } from '../../helpers/requestValues';
import type { ItemRun, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Get Stats',
	description: 'Get daily transactional statistics',
	action: 'Get transactional mail stats',
};

export const toolDescription =
	'Reads daily transactional mail statistics for a range of days, both included (YYYY-MM-DD): sent, opened, clicked, bounced, not sent and unsubscribed counts. Returns one row per day.';

export const properties: INodeProperties[] = [...dayRangeFields, itemOptions()];

export async function execute(item: ItemRun) {
	const answer = await item.request('/v5/transactional/mail/stats/get', readDayRange(item));
	return (answer.mailStatsList as IDataObject[] | undefined) ?? [];
}
