import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { itemOptions, returnAllOrLimit, filtersCollection } from '../common.descriptions';
import { setIfPresent } from '../../helpers/requestValues';
import { type Paging, pagingOf } from '../../items/commonFields';
import { normalizeList } from './shared';
import type { ItemParameters } from '../../items/parameterReader';
import type { ItemPlatform, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Get Many',
	description: 'Search contact lists',
	action: 'Get many contact lists',
};

export const toolDescription =
	'Searches contact lists by name. Returns at most Limit lists with their id, name, status and type.';

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	filtersCollection([
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
	]),
	itemOptions(),
];

interface Search {
	body: IDataObject;
	paging: Paging;
}

export function prepare(item: ItemParameters): Search {
	const filters = item.get('filters', {}) as IDataObject;
	const body: IDataObject = {};
	for (const key of ['search', 'listType', 'sort']) setIfPresent(body, key, filters[key]);
	return { body, paging: pagingOf(item) };
}

export async function send({ body, paging }: Search, platform: ItemPlatform) {
	const lists = await platform.pages('/v5/lists/get', body, 'lists', paging);
	return lists.map(normalizeList);
}
