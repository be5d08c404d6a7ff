import type { INodeProperties } from 'n8n-workflow';

import { assertValid, labelledBy, rules } from '../../helpers/validation';
import { itemOptions, repeatOnRetryOption, sandboxModeField } from '../common.descriptions';
import { applySandboxMode, trimmed } from '../../helpers/parameters';
import { writeResult } from '../../run/results';
import type { ItemParameters } from '../../run/parameters';
import type { ItemRun, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a contact',
	action: 'Delete a contact',
};

export const toolDescription =
	'Deletes the contact with this email address. Returns success, or an error when there is none.';

export const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		required: true,
		default: '',
	},
	sandboxModeField,
	itemOptions([repeatOnRetryOption]),
];

const FIELD_RULES = labelledBy(properties, { email: [rules.required, rules.text, rules.email] });

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the contact may have been deleted';

/** Items naming the same email run in input order. */
export const recordOf = (item: ItemParameters) =>
	String(item.get('email', '')).trim().toLowerCase();

export async function execute(item: ItemRun) {
	const body = { email: trimmed(item.get('email')) };
	assertValid(item.node, body, FIELD_RULES, item.index);
	applySandboxMode(body, item);
	const answer = await item.request('/v5/contacts/delete', body);
	return writeResult(body, answer, { email: body.email, deleted: !('sandboxMode' in body) });
}
