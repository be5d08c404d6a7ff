import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { dayRangeFields, itemOptions } from '../common.descriptions';
import { readDayRange } from '../../items/commonFields';
import type { ItemParameters } from '../../items/parameterReader';
import type { OperationOption, RequestPlan } from '../../run/operation';

export const option: OperationOption = {
	name: 'Get Stats',
	description: 'Get daily transactional statistics',
	action: 'Get transactional mail stats',
};

export const toolDescription =
	'Reads daily transactional mail statistics for a range of days, both included (YYYY-MM-DD): sent, opened, clicked, bounced, not sent and unsubscribed counts. Returns one row per day.';

export const properties: INodeProperties[] = [...dayRangeFields, itemOptions()];

export const prepare = (item: ItemParameters): RequestPlan => ({
	path: '/v5/transactional/mail/stats/get',
	body: readDayRange(item),
	output: (answer) => (answer.mailStatsList as IDataObject[] | undefined) ?? [],
});
