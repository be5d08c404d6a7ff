import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { dayRangeFields, TASK_TYPE_OPTIONS } from '../common.descriptions';
import { readDayRange, setIfPresent } from '../../helpers/parameters';

const properties: INodeProperties[] = [
	...dayRangeFields,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{ displayName: 'Campaign Name', name: 'mailName', type: 'string', default: '' },
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				options: TASK_TYPE_OPTIONS,
				default: 'MailList',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['getStats'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const body: IDataObject = readDayRange.call(this, itemIndex);
	setIfPresent(body, 'mailName', filters.mailName);
	setIfPresent(body, 'type', filters.type);
	const answer = await apiRequest.call(this, '/v5/campaign/mail/stats/get', body, itemIndex);
	return (answer.mailStatsList as IDataObject[] | undefined) ?? [];
}
