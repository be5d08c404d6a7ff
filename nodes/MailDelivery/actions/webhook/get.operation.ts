import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { maskSecret } from '../../../shared/triggerAddresses';
import { itemOptions } from '../common.descriptions';
import type { ApiResponse } from '../../../shared/transport';
import type { OperationOption, RequestPlan } from '../../run/operation';

export const option: OperationOption = {
	name: 'Get',
	description: 'Get the push configuration of the account',
	action: 'Get the webhook configuration',
};

export const toolDescription =
	"Reads the account's push configuration: the default push address, per-sender addresses, which event kinds are pushed, and whether pushes are on.";

export const properties: INodeProperties[] = [itemOptions()];

export const prepare = (): RequestPlan => ({ path: '/v5/webhook/get', body: {}, output: shown });

/**
 * The configuration as the platform holds it, except the secret of a Mail Delivery Trigger's URL: with
 * it anyone could post forged events into that workflow, so it is masked (the user's own URLs are shown
 * as they are).
 */
function shown(answer: ApiResponse): IDataObject {
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
