import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { type NamedRecord, namesIn } from '../../helpers/refusals';

import { actOnNamed } from '../../helpers/namedActions';
import { sandboxModeField, senderLocator } from '../common.descriptions';

const properties: INodeProperties[] = [senderLocator('senderEmail', 'Sender'), sandboxModeField];

export const description = updateDisplayOptions(
	{ show: { resource: ['verifiedSender'], operation: ['delete'] } },
	properties,
);

/** The records the request names, to explain a refusal in the user's words (helpers/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'sender', must: 'existing', names: namesIn('senderEmail') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the sender may have been deleted';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return await actOnNamed.call(this, itemIndex, {
		field: 'senderEmail',
		properties,
		path: '/v5/verified_senders/delete',
		outcome: 'deleted',
	});
}
