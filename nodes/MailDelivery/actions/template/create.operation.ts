import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, LIMITS, rules } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';
import { EDITOR_TYPE_OPTIONS } from '../common.descriptions';
import { trimmed } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';

const properties: INodeProperties[] = [
	{
		displayName: 'Template Name',
		name: 'templateName',
		type: 'string',
		required: true,
		default: '',
		description: `At most ${LIMITS.templateName} characters`,
	},
	{ displayName: 'Subject', name: 'templateSubject', type: 'string', required: true, default: '' },
	{
		displayName: 'HTML Content',
		name: 'templateContent',
		type: 'string',
		typeOptions: { rows: 6 },
		required: true,
		default: '',
		description: 'HTML of the template; personalization tags are written {{name}}',
	},
	{
		displayName: 'Editor Type',
		name: 'editorType',
		type: 'options',
		options: EDITOR_TYPE_OPTIONS,
		default: 'DRAG',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['create'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = {
		templateName: trimmed(this.getNodeParameter('templateName', itemIndex)),
		templateSubject: this.getNodeParameter('templateSubject', itemIndex) as string,
		templateContent: this.getNodeParameter('templateContent', itemIndex) as string,
		editorType: this.getNodeParameter('editorType', itemIndex, 'DRAG') as string,
	};
	assertValid(
		this.getNode(),
		body,
		{
			templateName: [rules.required, rules.text, rules.maxChars(LIMITS.templateName)],
			// The subject becomes a mail header: one line.
			templateSubject: [rules.required, rules.text, rules.singleLine],
			templateContent: [rules.required, rules.text],
		},
		itemIndex,
	);
	const answer = await apiRequest.call(this, '/v5/campaign/mail/template/add', body, itemIndex);
	return writeResult(body, answer, { templateName: body.templateName });
}
