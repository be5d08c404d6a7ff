import type { INodeProperties } from 'n8n-workflow';

import { itemOptions, retryOptions, sandboxModeField } from '../common.descriptions';
import { applySandboxMode } from '../../items/commonFields';
import { writeResult } from '../../run/results';
import type { ItemParameters } from '../../items/parameterReader';
import type { OperationOption, RequestPlan } from '../../run/operation';
import { contactEmailField, contactNamedBy, contactRecordOf } from './shared';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a contact',
	action: 'Delete a contact',
};

export const toolDescription =
	'Deletes the contact with this email address. Returns success, or an error when there is none.';

export const properties: INodeProperties[] = [
	contactEmailField,
	sandboxModeField,
	itemOptions(retryOptions),
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the contact may have been deleted';

export const recordOf = contactRecordOf;

export function prepare(item: ItemParameters): RequestPlan {
	const body = contactNamedBy(item);
	applySandboxMode(body, item);
	return {
		path: '/v5/contacts/delete',
		body,
		output: (answer) =>
			writeResult(body, answer, { email: body.email, deleted: !('sandboxMode' in body) }),
	};
}
