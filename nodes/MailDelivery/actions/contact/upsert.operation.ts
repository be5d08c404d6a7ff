import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { namesIn } from '../../run/refusals';

import { assertValid, inputError, labelledBy, rules } from '../../helpers/validation';
import {
	itemOptions,
	listLocator,
	retryOptions,
	sandboxModeField,
	additionalFieldsCollection,
} from '../common.descriptions';
import type { ItemParameters } from '../../items/parameterReader';
import { setIfPresent, trimmed } from '../../helpers/requestValues';
import { applySandboxMode } from '../../items/commonFields';
import { writeResult } from '../../run/results';
import type { NamedRecord, OperationOption, RequestPlan } from '../../run/operation';
import { contactRecordOf } from './shared';

export const option: OperationOption = {
	name: 'Create or Update',
	description: 'Create a new record, or update the current one if it already exists (upsert)',
	action: 'Create or update a contact',
};

export const toolDescription =
	'Creates a contact, or updates the one with the same email: email or phone number, an optional name, and optionally a list to put it in. Returns success.';

export const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Email address of the contact; required when Phone Number is empty',
	},
	sandboxModeField,
	additionalFieldsCollection([
		{ ...listLocator('Add to List', false), description: 'Put the contact into this list' },
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			description: 'Defaults to the email address',
		},
		{
			displayName: 'Phone Number',
			name: 'phoneNumber',
			type: 'string',
			default: '',
			description:
				'Required when Email is empty. A number (4915112345678, as spreadsheets give it) is sent as its digits.',
		},
	]),
	itemOptions(retryOptions),
];

// Text first, as in the send: a number or an object is named as such before any other rule looks at it. A
// phone number or a name may come as a whole number (a spreadsheet's): it is sent as its digits.
const FIELD_RULES = labelledBy(properties, {
	email: [rules.text, rules.email],
	phoneNumber: [rules.textOrDigits],
	name: [rules.textOrDigits],
});

/** The records the request names, to explain a refusal in the user's words (run/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'list', must: 'existing', names: namesIn('additionalFields.listName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the contact may have been saved';

/** Items saving the same contact run in input order, so the last one's values stay. */
export const recordOf = (item: ItemParameters) =>
	contactRecordOf(item) ||
	`phone ${String(item.get<IDataObject>('additionalFields', {}).phoneNumber ?? '').trim()}`;

export function prepare(item: ItemParameters): RequestPlan {
	const extra = item.get('additionalFields', {}) as IDataObject;
	const body: IDataObject = {};
	setIfPresent(body, 'email', trimmed(item.get('email', '')));
	setIfPresent(body, 'phoneNumber', trimmed(extra.phoneNumber));
	setIfPresent(body, 'name', extra.name);
	if (extra.listName !== undefined)
		setIfPresent(body, 'listName', item.locator('additionalFields.listName'));
	if (!body.email && !body.phoneNumber) {
		throw inputError(
			item.node,
			'Field "Email" or "Phone Number" is required: the contact needs one of them',
			item.index,
		);
	}
	assertValid(item.node, body, FIELD_RULES, item.index);
	applySandboxMode(body, item);
	return {
		path: '/v5/contacts/upsert',
		body,
		output: (answer) =>
			writeResult(body, answer, {
				email: body.email,
				phoneNumber: body.phoneNumber,
				listName: body.listName,
			}),
	};
}
