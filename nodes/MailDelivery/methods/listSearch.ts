import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import {
	listNameOf,
	senderLabel,
	senderTypeOf,
	templateNamed,
	verifiedSenders,
} from '../../shared/records';
import { tagsIn } from '../helpers/tags';
import { apiRequest } from '../../shared/transport';

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

/**
 * Lists for a field whose list is created when missing (Contact → Import's Add to List): a name typed in the
 * search that no list listed has is offered first, as a new list, so typing a new name never ends in "No
 * results". Picking it creates nothing: the import does, when it runs.
 */
export async function searchListsOrNew(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const found = await searchLists.call(this, filter, paginationToken);
	const name = (filter ?? '').trim();
	if (!name || paginationToken || found.results.some((list) => list.value === name)) return found;
	return {
		...found,
		results: [{ name: `${name} (new list)`, value: name }, ...found.results],
	};
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

/** The senderType an operation sends with (2.5): transactional mail 2 (both sends), campaign creation 1. */
const SENDER_TYPE_OF_OPERATION: Record<string, string> = {
	'transactionalMail.send': '2',
	'transactionalMail.sendAndWait': '2',
	'campaign.create': '1',
};

/**
 * The account's senders. Where the operation sends one kind of mail, senders of that kind come first and
 * the others say what they are meant for (the platform does not document refusing either).
 */
export async function searchSenders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const senders = await verifiedSenders.call(this);
	const needle = (filter ?? '').toLowerCase();
	const wanted =
		SENDER_TYPE_OF_OPERATION[
			`${String(this.getCurrentNodeParameter('resource') ?? '')}.${String(this.getCurrentNodeParameter('operation') ?? '')}`
		];
	return {
		results: senders
			.map((sender) => ({ address: String(sender.fromDomain ?? ''), sender }))
			.filter(({ address }) => address && address.toLowerCase().includes(needle))
			// Stable: the platform's order within each kind.
			.sort(
				(a, b) =>
					Number(wanted !== undefined && senderTypeOf(b.sender) === wanted) -
					Number(wanted !== undefined && senderTypeOf(a.sender) === wanted),
			)
			.map(({ address, sender }) => ({
				name: senderLabel(address, sender, wanted),
				value: address,
			})),
	};
}

/**
 * Names for Tag Values: the tags ({{name}}) of the send's content, the chosen template's subject and HTML or
 * the HTML Content or Text Content field, and of its Subject field. A template is looked up once; HTML needs no request.
 */
export async function searchTagNames(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const texts: unknown[] = [];
	const source = this.getCurrentNodeParameter('contentSource');
	if (source === 'html' || source === 'text') {
		texts.push(this.getCurrentNodeParameter(source === 'html' ? 'content' : 'textContent'));
	} else {
		const name = String(
			this.getCurrentNodeParameter('templateName', { extractValue: true }) ?? '',
		).trim();
		if (name && !name.startsWith('=')) {
			const template = await templateNamed.call(this, name);
			if (template) texts.push(template.templateSubject, template.templateContent);
		}
	}
	texts.push(this.getCurrentNodeParameter('subject'));
	const needle = (filter ?? '').toLowerCase();
	return {
		results: tagsIn(...texts)
			.filter((tag) => tag.toLowerCase().includes(needle))
			.map((tag) => ({ name: tag, value: tag })),
	};
}
