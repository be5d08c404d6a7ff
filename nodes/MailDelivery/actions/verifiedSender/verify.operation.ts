import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';
import { senderLocator } from '../common.descriptions';
import { locatorValue, trimmed } from '../../helpers/parameters';

const properties: INodeProperties[] = [
	senderLocator('fromDomain', 'Sender'),
	{
		displayName: 'DKIM Selector',
		name: 'selector',
		type: 'string',
		required: true,
		default: 'default',
		description: 'Selector of the DKIM record to check',
	},
];

const FIELD_RULES = labelledBy(properties, {
	fromDomain: [rules.required],
	selector: [rules.required, rules.text],
});

export const description = updateDisplayOptions(
	{ show: { resource: ['verifiedSender'], operation: ['verify'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = {
		fromDomain: locatorValue.call(this, 'fromDomain', itemIndex),
		selector: trimmed(this.getNodeParameter('selector', itemIndex)),
	};
	assertValid(this.getNode(), body, FIELD_RULES, itemIndex);
	const answer = await apiRequest.call(this, '/v5/verified_senders/verify', body, itemIndex);
	return {
		fromDomain: body.fromDomain,
		valid: answer.valid,
		goodMX: answer.goodMX,
		goodSPF: answer.goodSPF,
		goodDKIM: answer.goodDKIM,
		goodDMARC: answer.goodDMARC,
	};
}
