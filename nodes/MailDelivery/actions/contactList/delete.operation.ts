import type { INodeProperties } from 'n8n-workflow';
import { namesIn } from '../../run/refusals';
import type { ItemParameters } from '../../run/parameters';

import { actOnNamed } from '../../helpers/namedActions';
import {
	itemOptions,
	listLocator,
	repeatOnRetryOption,
	sandboxModeField,
} from '../common.descriptions';
import type { ItemRun, NamedRecord, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a contact list',
	action: 'Delete a contact list',
};

export const toolDescription =
	'Deletes the contact list with this name. Returns success, or an error when there is none.';

export const properties: INodeProperties[] = [
	listLocator(),
	sandboxModeField,
	itemOptions([repeatOnRetryOption]),
];

/** The records the request names, to explain a refusal in the user's words (run/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'list', must: 'existing', names: namesIn('listName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the list may have been deleted';

/** Items naming the same listName run in input order. */
export const recordOf = (item: ItemParameters) => item.locator('listName');

export async function execute(item: ItemRun) {
	return await actOnNamed(item, {
		field: 'listName',
		properties,
		path: '/v5/lists/delete',
		outcome: 'deleted',
	});
}
