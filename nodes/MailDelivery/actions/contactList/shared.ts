import type { IDataObject } from 'n8n-workflow';
import { listNameOf } from '../../../shared/records';

const lowerFirst = (key: string) => key.charAt(0).toLowerCase() + key.slice(1);

/**
 * One shape for list records. The platform's table spells them in PascalCase (ListName, ListStatus)
 * while its sample writes listName and ids as strings; the node outputs camelCase like every other
 * record (listName, listStatus, id), and numeric ids as numbers.
 */
export function normalizeList(list: IDataObject): IDataObject {
	const normalized: IDataObject = { ...list, ListName: listNameOf(list) };
	delete normalized.listName;
	for (const key of ['Id', 'TeamId', 'CreateUserId', 'ListStatus', 'ListType']) {
		const value = normalized[key];
		if (typeof value === 'string' && /^\d+$/.test(value)) normalized[key] = Number(value);
	}
	return Object.fromEntries(
		Object.entries(normalized).map(([key, value]) => [lowerFirst(key), value]),
	);
}
