/**
 * Read-only look-ups of named platform records, made only after a refusal to say which condition applies
 * (refusals.ts; a send's in actions/transactionalMail/send/diagnosis.ts). Names match exactly; searches match
 * parts of names.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { listNameOf, templateNamed, verifiedSenders } from '../../shared/records';
import { apiRequestPages } from '../../shared/transport';

/**
 * Whether a search finds a record of exactly this name. Searches match parts of names, so the record may
 * stand on any page: pages are followed (as Get Many follows them) until it is found or none are left.
 */
async function exists(
	context: IExecuteFunctions,
	path: string,
	body: IDataObject,
	listKey: string,
	isIt: (record: IDataObject) => boolean,
): Promise<boolean> {
	const records = await apiRequestPages.call(context, path, body, listKey, {
		returnAll: true,
		limit: 0,
		until: isIt,
	});
	return records.some(isIt);
}

export async function templateExists(this: IExecuteFunctions, name: string): Promise<boolean> {
	return (await templateNamed.call(this, name)) !== undefined;
}

export async function listExists(this: IExecuteFunctions, name: string): Promise<boolean> {
	return await exists(
		this,
		'/v5/lists/get',
		{ search: name },
		'lists',
		(list) => listNameOf(list) === name,
	);
}

export async function campaignExists(this: IExecuteFunctions, name: string): Promise<boolean> {
	return await exists(
		this,
		'/v5/campaign/mail/get',
		{ mailName: name },
		'mailList',
		(task) => String(task.mailName) === name,
	);
}

export async function isVerifiedSender(this: IExecuteFunctions, address: string): Promise<boolean> {
	return (await verifiedSenders.call(this)).some(
		(sender) => String(sender.fromDomain).toLowerCase() === address.toLowerCase(),
	);
}
