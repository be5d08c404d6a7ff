import type { IDataObject } from 'n8n-workflow';

/** The platform's sample spells ListName as listName and sends ids as strings: one shape for users. */
export function normalizeList(list: IDataObject): IDataObject {
	const { listName, ...rest } = list;
	const normalized: IDataObject = { ...rest, ListName: list.ListName ?? listName };
	for (const key of ['Id', 'TeamId', 'CreateUserId', 'ListStatus', 'ListType']) {
		const value = normalized[key];
		if (typeof value === 'string' && /^\d+$/.test(value)) normalized[key] = Number(value);
	}
	return normalized;
}
