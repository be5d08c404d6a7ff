import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { type NamedRecord, namesIn } from '../../helpers/refusals';

import { actOnNamed } from '../../helpers/namedActions';
import { listLocator, sandboxModeField } from '../common.descriptions';

const properties: INodeProperties[] = [listLocator(), sandboxModeField];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactList'], operation: ['delete'] } },
	properties,
);

/** The records the request names, to explain a refusal in the user's words (helpers/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'list', must: 'existing', names: namesIn('listName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the list may have been deleted';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return await actOnNamed.call(this, itemIndex, {
		field: 'listName',
		properties,
		path: '/v5/lists/delete',
		outcome: 'deleted',
	});
}
