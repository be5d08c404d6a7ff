import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { maskSecret } from '../../../shared/triggerAddresses';
import { apiRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['get'] } },
	properties,
);

/**
 * The configuration as the platform holds it, except the secret of a Mail Delivery Trigger's URL: with
 * it anyone could post forged events into that workflow, so it is masked (the user's own URLs are shown
 * as they are).
 */
export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const answer = await apiRequest.call(this, '/v5/webhook/get', {}, itemIndex);
	const extra = answer.transCallbackUrlExtra as IDataObject[] | null | undefined;
	return {
		transEvent: answer.transEvent ?? null,
		transCallbackUrl: maskSecret(answer.transCallbackUrl ?? null),
		transCallbackUrlExtra: Array.isArray(extra)
			? extra.map((entry) => ({
					...entry,
					url: maskSecret(entry.url),
				}))
			: null,
		transEnable: answer.transEnable ?? null,
	};
}
