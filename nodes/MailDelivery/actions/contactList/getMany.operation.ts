import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestPages } from '../../../shared/transport';
import { returnAllOrLimit } from '../common.descriptions';
import { pagingOf, setIfPresent } from '../../helpers/parameters';
import { normalizeList } from './shared';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{ displayName: 'Name Contains', name: 'search', type: 'string', default: '' },
			{
				displayName: 'List Type',
				name: 'listType',
				type: 'options',
				options: [
					{ name: 'Dynamic', value: 0 },
					{ name: 'Static', value: 1 },
				],
				default: 1,
			},
			{
				displayName: 'Sort By',
				name: 'sort',
				type: 'options',
				options: [
					{ name: 'Creation Date', value: 'CreateDate' },
					{ name: 'Modification Date', value: 'ModifyDate' },
				],
				default: 'CreateDate',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactList'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	for (const key of ['search', 'listType', 'sort']) setIfPresent(body, key, filters[key]);
	const lists = await apiRequestPages.call(
		this,
		'/v5/lists/get',
		body,
		'lists',
		pagingOf.call(this, itemIndex),
	);
	return lists.map(normalizeList);
}
