import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { type NamedRecord, namesIn } from '../../helpers/refusals';

import { actOnNamed } from '../../helpers/namedActions';
import { sandboxModeField } from '../common.descriptions';
import { campaignNameLocator } from './shared';

const properties: INodeProperties[] = [
	campaignNameLocator('A scheduled task; one whose send time has passed cannot be cancelled'),
	sandboxModeField,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['cancel'] } },
	properties,
);

/** The records the request names, to explain a refusal in the user's words (helpers/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'campaign', must: 'existing', names: namesIn('mailName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the campaign may have been cancelled';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return await actOnNamed.call(this, itemIndex, {
		field: 'mailName',
		properties,
		path: '/v5/campaign/mail/cancel',
		outcome: 'cancelled',
	});
}
