import type { INodeProperties } from 'n8n-workflow';
import { namesIn } from '../../run/refusals';
import type { ItemParameters } from '../../run/parameters';

import { actOnNamed } from '../../helpers/namedActions';
import {
	itemOptions,
	repeatOnRetryOption,
	sandboxModeField,
	senderLocator,
} from '../common.descriptions';
import type { ItemRun, NamedRecord, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a sender address',
	action: 'Delete a verified sender',
};

export const toolDescription = 'Removes a sender address from the account. Returns success.';

export const properties: INodeProperties[] = [
	senderLocator('senderEmail', 'Sender'),
	sandboxModeField,
	itemOptions([repeatOnRetryOption]),
];

/** The records the request names, to explain a refusal in the user's words (run/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'sender', must: 'existing', names: namesIn('senderEmail') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the sender may have been deleted';

/** Items naming the same senderEmail run in input order. */
export const recordOf = (item: ItemParameters) => item.locator('senderEmail').toLowerCase();

export async function execute(item: ItemRun) {
	return await actOnNamed(item, {
		field: 'senderEmail',
		properties,
		path: '/v5/verified_senders/delete',
		outcome: 'deleted',
	});
}
