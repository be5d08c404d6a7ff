import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { type NamedRecord, namesIn } from '../../helpers/refusals';

import { assertValid, inputError, labelledBy, rules } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';
import { listLocator, sandboxModeField } from '../common.descriptions';
import { applySandboxMode, locatorValue, setIfPresent } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';

const properties: INodeProperties[] = [
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: 'Email address of the contact; required when Phone Number is empty',
	},
	sandboxModeField,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
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
				description: 'Required when Email is empty',
			},
		],
	},
];

const FIELD_RULES = labelledBy(properties, { email: [rules.email] });

export const description = updateDisplayOptions(
	{ show: { resource: ['contact'], operation: ['upsert'] } },
	properties,
);

/** The records the request names, to explain a refusal in the user's words (helpers/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'list', must: 'existing', names: namesIn('additionalFields.listName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the contact may have been saved';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	setIfPresent(body, 'email', String(this.getNodeParameter('email', itemIndex, '')).trim());
	setIfPresent(body, 'phoneNumber', String(extra.phoneNumber ?? '').trim());
	setIfPresent(body, 'name', extra.name);
	if (extra.listName !== undefined)
		setIfPresent(body, 'listName', locatorValue.call(this, 'additionalFields.listName', itemIndex));
	if (!body.email && !body.phoneNumber) {
		throw inputError(
			this.getNode(),
			'Field "email" or "phoneNumber" is required: the contact needs one of them',
			itemIndex,
		);
	}
	assertValid(this.getNode(), body, FIELD_RULES, itemIndex);
	applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, '/v5/contacts/upsert', body, itemIndex);
	return writeResult(body, answer, {
		email: body.email,
		phoneNumber: body.phoneNumber,
		listName: body.listName,
	});
}
