import type { INodeProperties } from 'n8n-workflow';

import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { itemOptions, senderLocator } from '../common.descriptions';
import { trimmed } from '../../helpers/requestValues';
import type { ItemParameters } from '../../items/parameterReader';
import type { OperationOption, RequestPlan } from '../../run/operation';

export const option: OperationOption = {
	name: 'Verify',
	description: 'Check the MX, SPF, DKIM and DMARC records of a sender',
	action: 'Verify a sender',
};

export const toolDescription =
	"Checks a sender domain's MX, SPF, DKIM and DMARC records. Returns whether each is good and whether the sender is valid.";

export const properties: INodeProperties[] = [
	senderLocator('fromDomain', 'Sender'),
	{
		displayName: 'DKIM Selector',
		name: 'selector',
		type: 'string',
		required: true,
		default: 'default',
		description: 'Selector of the DKIM record to check',
	},
	itemOptions(),
];

const FIELD_RULES = labelledBy(properties, {
	fromDomain: [rules.required],
	selector: [rules.required, rules.textOrDigits],
});

export function prepare(item: ItemParameters): RequestPlan {
	const body = {
		fromDomain: item.locator('fromDomain'),
		selector: trimmed(item.get('selector')),
	};
	assertValid(item.node, body, FIELD_RULES, item.index);
	return {
		path: '/v5/verified_senders/verify',
		body,
		output: (answer) => ({
			fromDomain: body.fromDomain,
			valid: answer.valid,
			goodMX: answer.goodMX,
			goodSPF: answer.goodSPF,
			goodDKIM: answer.goodDKIM,
			goodDMARC: answer.goodDMARC,
		}),
	};
}
