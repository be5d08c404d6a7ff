import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiRequestPages } from '../transport';

/** All contact list names, for the multi-select fields of campaign creation. */
export async function getListNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const lists = await apiRequestPages.call(this, '/v5/lists/get', {}, 'lists', { returnAll: true, limit: 0 });
	return lists
		.map((list: IDataObject) => String(list.ListName ?? list.listName ?? ''))
		.filter(Boolean)
		.sort((a, b) => a.localeCompare(b))
		.map((name) => ({ name, value: name }));
}
