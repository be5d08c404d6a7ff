import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { listNameOf, senderLabel } from '../records';
import { apiRequest, apiRequestPages } from '../transport';

/** All contact list names, for the multi-select fields of campaign creation. */
export async function getListNames(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const lists = await apiRequestPages.call(this, '/v5/lists/get', {}, 'lists', {
		returnAll: true,
		limit: 0,
	});
	return lists
		.map(listNameOf)
		.filter(Boolean)
		.sort((a, b) => a.localeCompare(b))
		.map((name) => ({ name, value: name }));
}

/** Sender addresses of the account, for the trigger's per-sender registration. */
export async function getSenderAddresses(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const answer = await apiRequest.call(this, '/v5/verified_senders/get', {});
	return ((answer.mailFromDomains as IDataObject[] | undefined) ?? [])
		.filter((sender) => String(sender.fromDomain ?? ''))
		.map((sender) => ({
			name: senderLabel(String(sender.fromDomain), sender),
			value: String(sender.fromDomain),
		}));
}

/** All template names, for the per-version template of the transactional send (a list inside a list). */
export async function getTemplateNames(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const templates = await apiRequestPages.call(
		this,
		'/v5/campaign/mail/template/get',
		{},
		'templateList',
		{ returnAll: true, limit: 0 },
	);
	return templates
		.map((template: IDataObject) => String(template.templateName ?? ''))
		.filter(Boolean)
		.sort((a, b) => a.localeCompare(b))
		.map((name) => ({ name, value: name }));
}
