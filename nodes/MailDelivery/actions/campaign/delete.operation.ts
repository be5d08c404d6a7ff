import type { INodeProperties } from 'n8n-workflow';
import { namesIn } from '../../run/refusals';
import type { ItemParameters } from '../../run/parameters';

import { actOnNamed } from '../../helpers/namedActions';
import { itemOptions, repeatOnRetryOption, sandboxModeField } from '../common.descriptions';
import { campaignNameLocator } from './shared';
import type { ItemRun, NamedRecord, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a campaign task',
	action: 'Delete a campaign',
};

export const toolDescription =
	'Deletes a campaign task by its name. Returns success, or an error when there is no such task.';

export const properties: INodeProperties[] = [
	campaignNameLocator(),
	sandboxModeField,
	itemOptions([repeatOnRetryOption]),
];

/** The records the request names, to explain a refusal in the user's words (run/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'campaign', must: 'existing', names: namesIn('mailName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the campaign may have been deleted';

/** Items naming the same mailName run in input order. */
export const recordOf = (item: ItemParameters) => item.locator('mailName');

export async function execute(item: ItemRun) {
	return await actOnNamed(item, {
		field: 'mailName',
		properties,
		path: '/v5/campaign/mail/delete',
		outcome: 'deleted',
	});
}
