import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { senderLabel, verifiedSenders } from '../records';

/** Sender addresses of the account, for the trigger's per-sender registration. */
export async function getSenderAddresses(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return (await verifiedSenders.call(this))
		.filter((sender) => String(sender.fromDomain ?? ''))
		.map((sender) => ({
			name: senderLabel(String(sender.fromDomain), sender),
			value: String(sender.fromDomain),
		}));
}
