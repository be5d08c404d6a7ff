import type { INodeProperties } from 'n8n-workflow';
import { namesIn } from '../../run/refusals';
import type { ItemParameters } from '../../run/parameters';

import { actOnNamed } from '../../helpers/namedActions';
import { itemOptions, repeatOnRetryOption, templateLocator } from '../common.descriptions';
import type { ItemRun, NamedRecord, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete an email template',
	action: 'Delete a template',
};

export const toolDescription =
	'Deletes the email template with this name. Returns success, or an error when there is none.';

export const properties: INodeProperties[] = [
	templateLocator(),
	itemOptions([repeatOnRetryOption]),
];

/** The records the request names, to explain a refusal in the user's words (run/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'template', must: 'existing', names: namesIn('templateName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the template may have been deleted';

/** Items naming the same templateName run in input order. */
export const recordOf = (item: ItemParameters) => item.locator('templateName');

export async function execute(item: ItemRun) {
	return await actOnNamed(item, {
		field: 'templateName',
		properties,
		path: '/v5/campaign/mail/template/delete',
		outcome: 'deleted',
		sandbox: false,
	});
}
