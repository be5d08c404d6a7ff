import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { namesIn } from '../../run/refusals';

import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { itemOptions, retryOptions, sandboxModeField } from '../common.descriptions';
import { setIfPresent, trimmed } from '../../helpers/requestValues';
import { applySandboxMode } from '../../items/commonFields';
import { writeResult } from '../../run/results';
import type { ItemParameters } from '../../items/parameterReader';
import type { NamedRecord, OperationOption, RequestPlan } from '../../run/operation';

export const option: OperationOption = {
	name: 'Create',
	description: 'Add a static contact list',
	action: 'Create a contact list',
};

export const toolDescription =
	'Creates a static contact list with this name. Returns success, or an error when the name is taken.';

export const properties: INodeProperties[] = [
	{ displayName: 'List Name', name: 'listName', type: 'string', required: true, default: '' },
	{ displayName: 'Description', name: 'listDescription', type: 'string', default: '' },
	sandboxModeField,
	itemOptions(retryOptions),
];

const FIELD_RULES = labelledBy(properties, {
	listName: [rules.required, rules.textOrDigits],
	listDescription: [rules.text],
});

/** The records the request names, to explain a refusal in the user's words (run/refusals.ts). */
export const named: NamedRecord[] = [{ kind: 'list', must: 'new', names: namesIn('listName') }];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the list may have been created';

/** Items naming the same listName run in input order. */
export const recordOf = (item: ItemParameters) => String(item.get('listName', '')).trim();

export function prepare(item: ItemParameters): RequestPlan {
	const body: IDataObject = {
		listName: trimmed(item.get('listName')),
	};
	setIfPresent(body, 'listDescription', item.get('listDescription', ''));
	assertValid(item.node, body, FIELD_RULES, item.index);
	applySandboxMode(body, item);
	return {
		path: '/v5/lists/add',
		body,
		output: (answer) => writeResult(body, answer, { listName: body.listName }),
	};
}
