/**
 * Read-only look-ups of named platform records, made only after a refusal to say which condition applies
 * (helpers/refusals.ts, transactional/diagnosis.ts). Names match exactly; searches match parts of names.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listNameOf } from '../../shared/records';
import { apiRequest } from '../../shared/transport';

/** The largest page asked for; a search by name rarely finds more. */
const PAGE = { pageSize: 100, pageIndex: 1 };

const found = (records: unknown, nameOf: (record: IDataObject) => string, name: string) =>
	((records as IDataObject[] | undefined) ?? []).some((record) => nameOf(record) === name);

export async function templateExists(this: IExecuteFunctions, name: string): Promise<boolean> {
	const answer = await apiRequest.call(this, '/v5/campaign/mail/template/get', {
		templateName: name,
		...PAGE,
	});
	return found(answer.templateList, (template) => String(template.templateName), name);
}

export async function listExists(this: IExecuteFunctions, name: string): Promise<boolean> {
	const answer = await apiRequest.call(this, '/v5/lists/get', { search: name, ...PAGE });
	return found(answer.lists, listNameOf, name);
}

export async function campaignExists(this: IExecuteFunctions, name: string): Promise<boolean> {
	const answer = await apiRequest.call(this, '/v5/campaign/mail/get', { mailName: name, ...PAGE });
	return found(answer.mailList, (task) => String(task.mailName), name);
}

export async function isVerifiedSender(this: IExecuteFunctions, address: string): Promise<boolean> {
	const answer = await apiRequest.call(this, '/v5/verified_senders/get', {});
	return found(
		answer.mailFromDomains,
		(sender) => String(sender.fromDomain).toLowerCase(),
		address.toLowerCase(),
	);
}
