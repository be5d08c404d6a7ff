/** The platform's records as both nodes read them, and how their pickers name them. */
import type { IDataObject } from 'n8n-workflow';

import { type ApiContext, apiRequest, apiRequestPages } from './transport';

/**
 * The account's verified senders (2.5), all at once (the API does not page them); with `senderEmail`, only
 * that one.
 */
export async function verifiedSenders(
	this: ApiContext,
	senderEmail?: string,
	itemIndex?: number,
): Promise<IDataObject[]> {
	const body = senderEmail ? { senderEmail } : {};
	return sendersOf(await apiRequest.call(this, '/v5/verified_senders/get', body, itemIndex));
}

/** The senders of an answer of verified_senders/get. */
export const sendersOf = (answer: IDataObject): IDataObject[] =>
	(answer.mailFromDomains as IDataObject[] | undefined) ?? [];

/**
 * The template of exactly this name, or undefined when there is none. The API's search matches parts of names,
 * so pages are followed until it is found (one request unless more than a page of templates contain the name).
 */
export async function templateNamed(
	this: ApiContext,
	name: string,
	itemIndex?: number,
): Promise<IDataObject | undefined> {
	const isIt = (template: IDataObject) => String(template.templateName) === name;
	const templates = await apiRequestPages.call(
		this,
		'/v5/campaign/mail/template/get',
		{ templateName: name },
		'templateList',
		{ returnAll: true, limit: 0, until: isIt, itemIndex },
	);
	return templates.find(isIt);
}

/** senderType of a verified sender (2.5): 1 marketing (campaigns), 2 transactional. */
const SENDER_KINDS: Record<string, { kind: string; meantFor: string }> = {
	'1': { kind: 'marketing', meantFor: 'campaigns' },
	'2': { kind: 'transactional', meantFor: 'transactional mail' },
};

/** The senderType a verified sender has (as a string: the API's table says int, its add operation string). */
export const senderTypeOf = (sender: IDataObject) => String(sender.senderType ?? '');

/**
 * "news@example.com (marketing)": pickers say which sender suits which kind of mail. Where the operation
 * sends one kind (`wanted`), a sender of the other kind says what it is meant for.
 */
export function senderLabel(address: string, sender: IDataObject, wanted?: string): string {
	const type = senderTypeOf(sender);
	const kind = SENDER_KINDS[type];
	if (!kind) return address;
	if (wanted === undefined || wanted === type) return `${address} (${kind.kind})`;
	return `${address} (${kind.kind}, for ${kind.meantFor})`;
}

/** The name of a contact list record: the API's table spells it ListName, its sample listName. */
export const listNameOf = (list: IDataObject) => String(list.ListName ?? list.listName ?? '');
