import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { type NamedRecord, namesIn } from '../../helpers/refusals';

import { assertValid, labelledBy, LIMITS, rules } from '../../helpers/validation';
import { apiRequest } from '../../../shared/transport';
import { EDITOR_TYPE_OPTIONS, PLATFORM_TAGS_HINT } from '../common.descriptions';
import { trimmed } from '../../helpers/parameters';
import { taggedParameter } from '../../helpers/platformTags';
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
	{
		displayName: 'Subject',
		name: 'templateSubject',
		type: 'string',
		required: true,
		default: '',
		description: `Subject of mails sent with the template. ${PLATFORM_TAGS_HINT} A send may give its own.`,
	},
	{
		displayName: 'HTML Content',
		name: 'templateContent',
		type: 'string',
		typeOptions: { rows: 6 },
		required: true,
		default: '',
		description: `HTML body of mails sent with the template. ${PLATFORM_TAGS_HINT} The tag values of a send fill them in.`,
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

/** The records the request names, to explain a refusal in the user's words (helpers/refusals.ts). */
const FIELD_RULES = labelledBy(properties, {
	templateName: [rules.required, rules.text, rules.maxChars(LIMITS.templateName)],
	// The subject becomes a mail header: one line.
	templateSubject: [rules.required, rules.text, rules.singleLine],
	templateContent: [rules.required, rules.text],
});

export const named: NamedRecord[] = [
	{ kind: 'template', must: 'new', names: namesIn('templateName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the template may have been created';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = {
		templateName: trimmed(this.getNodeParameter('templateName', itemIndex)),
		templateSubject: taggedParameter.call(this, 'templateSubject', itemIndex, 'Subject') as string,
		templateContent: taggedParameter.call(
			this,
			'templateContent',
			itemIndex,
			'HTML Content',
		) as string,
		editorType: this.getNodeParameter('editorType', itemIndex, 'DRAG') as string,
	};
	assertValid(this.getNode(), body, FIELD_RULES, itemIndex);
	const answer = await apiRequest.call(this, '/v5/campaign/mail/template/add', body, itemIndex);
	return writeResult(body, answer, { templateName: body.templateName });
}
