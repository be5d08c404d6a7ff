import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { type NamedRecord, namesIn } from '../../helpers/refusals';

import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';
import { sandboxModeField } from '../common.descriptions';
import { applySandboxMode, setIfPresent, trimmed } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';

const properties: INodeProperties[] = [
	{ displayName: 'List Name', name: 'listName', type: 'string', required: true, default: '' },
	{ displayName: 'Description', name: 'listDescription', type: 'string', default: '' },
	sandboxModeField,
];

const FIELD_RULES = labelledBy(properties, { listName: [rules.required] });

export const description = updateDisplayOptions(
	{ show: { resource: ['contactList'], operation: ['create'] } },
	properties,
);

/** The records the request names, to explain a refusal in the user's words (helpers/refusals.ts). */
export const named: NamedRecord[] = [{ kind: 'list', must: 'new', names: namesIn('listName') }];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the list may have been created';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body: IDataObject = {
		listName: trimmed(this.getNodeParameter('listName', itemIndex)),
	};
	setIfPresent(body, 'listDescription', this.getNodeParameter('listDescription', itemIndex, ''));
	assertValid(this.getNode(), body, FIELD_RULES, itemIndex);
	applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, '/v5/lists/add', body, itemIndex);
	return writeResult(body, answer, { listName: body.listName });
}
