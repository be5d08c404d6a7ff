import type { IDataObject } from 'n8n-workflow';
import { listNameOf } from '../../helpers/namedActions';

const lowerFirst = (key: string) => key.charAt(0).toLowerCase() + key.slice(1);

/**
 * One shape for list records. The platform's table spells them in PascalCase (ListName, ListStatus)
 * while its sample writes listName and ids as strings. Version 1.1 outputs camelCase like every other
 * record (listName, listStatus, id); version 1 kept the PascalCase names. Numeric ids become numbers.
 */
export function normalizeList(list: IDataObject, nodeVersion: number): IDataObject {
	const normalized: IDataObject = { ...list, ListName: listNameOf(list) };
	delete normalized.listName;
	for (const key of ['Id', 'TeamId', 'CreateUserId', 'ListStatus', 'ListType']) {
		const value = normalized[key];
		if (typeof value === 'string' && /^\d+$/.test(value)) normalized[key] = Number(value);
	}
	if (nodeVersion < 1.1) return normalized;
	return Object.fromEntries(Object.entries(normalized).map(([key, value]) => [lowerFirst(key), value]));
}
