import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { type NamedRecord, namesIn } from '../../helpers/refusals';

import { actOnNamed } from '../../helpers/namedActions';
import { templateLocator } from '../common.descriptions';

const properties: INodeProperties[] = [templateLocator()];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['delete'] } },
	properties,
);

/** The records the request names, to explain a refusal in the user's words (helpers/refusals.ts). */
export const named: NamedRecord[] = [
	{ kind: 'template', must: 'existing', names: namesIn('templateName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the template may have been deleted';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return await actOnNamed.call(this, itemIndex, {
		field: 'templateName',
		properties,
		path: '/v5/campaign/mail/template/delete',
		outcome: 'deleted',
		sandbox: false,
	});
}
