import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { senderLabel } from '../records';
import { apiRequest } from '../transport';

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
