import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	taskTypeFilter,
	dayRangeFields,
	itemOptions,
	filtersCollection,
} from '../common.descriptions';
import { setIfPresent } from '../../helpers/requestValues';
import { readDayRange } from '../../items/commonFields';
import type { ItemParameters } from '../../items/parameterReader';
import type { OperationOption, RequestPlan } from '../../run/operation';

export const option: OperationOption = {
	name: 'Get Stats',
	description: 'Get campaign statistics over a date range',
	action: 'Get campaign stats',
};

export const toolDescription =
	'Reads campaign statistics for a range of days (YYYY-MM-DD, both included), optionally for one campaign name. Returns one row per campaign.';

export const properties: INodeProperties[] = [
	...dayRangeFields,
	filtersCollection([
		{ displayName: 'Campaign Name', name: 'mailName', type: 'string', default: '' },
		taskTypeFilter,
	]),
	itemOptions(),
];

export function prepare(item: ItemParameters): RequestPlan {
	const filters = item.get('filters', {}) as IDataObject;
	const body: IDataObject = readDayRange(item);
	setIfPresent(body, 'mailName', filters.mailName);
	setIfPresent(body, 'type', filters.type);
	return {
		path: '/v5/campaign/mail/stats/get',
		body,
		output: (answer) => (answer.mailStatsList as IDataObject[] | undefined) ?? [],
	};
}
