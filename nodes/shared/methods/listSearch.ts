import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listNameOf, senderLabel } from '../records';
import { apiRequest } from '../transport';

const SEARCH_PAGE_SIZE = 50;

/**
 * One page per call: n8n asks for the next page with the token we hand back, "<next page>:<records
 * seen>". Like Return All, it trusts totalRecords (a platform may answer fewer than asked per page)
 * and stops on an empty page.
 */
async function searchPaged(
	this: ILoadOptionsFunctions,
	path: string,
	listKey: string,
	body: IDataObject,
	nameOf: (record: IDataObject) => string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const [pageIndex, seenBefore] = (paginationToken ?? '1:0').split(':').map(Number);
	const page = await apiRequest.call(this, path, {
		...body,
		pageSize: SEARCH_PAGE_SIZE,
		pageIndex,
	});
	const records = (page[listKey] as IDataObject[] | undefined) ?? [];
	const seen = seenBefore + records.length;
	const total = typeof page.totalRecords === 'number' ? page.totalRecords : Infinity;
	return {
		results: records.map((record) => ({ name: nameOf(record), value: nameOf(record) })),
		paginationToken: records.length > 0 && seen < total ? `${pageIndex + 1}:${seen}` : undefined,
	};
}

export async function searchLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	return await searchPaged.call(
		this,
		'/v5/lists/get',
		'lists',
		filter ? { search: filter } : {},
		listNameOf,
		paginationToken,
	);
}

export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	return await searchPaged.call(
		this,
		'/v5/campaign/mail/template/get',
		'templateList',
		filter ? { templateName: filter } : {},
		(template) => String(template.templateName ?? ''),
		paginationToken,
	);
}

export async function searchCampaigns(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	return await searchPaged.call(
		this,
		'/v5/campaign/mail/get',
		'mailList',
		filter ? { mailName: filter } : {},
		(task) => String(task.mailName ?? ''),
		paginationToken,
	);
}

export async function searchSenders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const answer = await apiRequest.call(this, '/v5/verified_senders/get', {});
	const senders = (answer.mailFromDomains as IDataObject[] | undefined) ?? [];
	const needle = (filter ?? '').toLowerCase();
	return {
		results: senders
			.map((sender) => ({ address: String(sender.fromDomain ?? ''), sender }))
			.filter(({ address }) => address && address.toLowerCase().includes(needle))
			.map(({ address, sender }) => ({ name: senderLabel(address, sender), value: address })),
	};
}
