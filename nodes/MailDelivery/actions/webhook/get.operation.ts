import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';

const properties: INodeProperties[] = [];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['get'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const answer = await apiRequest.call(this, '/v5/webhook/get', {}, itemIndex);
	return {
		transEvent: answer.transEvent ?? null,
		transCallbackUrl: answer.transCallbackUrl ?? null,
		transCallbackUrlExtra: answer.transCallbackUrlExtra ?? null,
		transEnable: answer.transEnable ?? null,
	};
}
