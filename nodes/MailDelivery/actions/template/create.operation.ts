import type { INodeProperties } from 'n8n-workflow';
import { namesIn } from '../../run/refusals';

import { assertValid, labelledBy, LIMITS, rules } from '../../helpers/validation';
import {
	EDITOR_TYPE_OPTIONS,
	PLATFORM_TAGS_HINT,
	itemOptions,
	retryOptions,
} from '../common.descriptions';
import { trimmed } from '../../helpers/requestValues';
import { writeResult } from '../../run/results';
import type { ItemParameters } from '../../items/parameterReader';
import type { NamedRecord, OperationOption, RequestPlan } from '../../run/operation';

export const option: OperationOption = {
	name: 'Create',
	description: 'Add an email template',
	action: 'Create a template',
};

export const toolDescription =
	'Adds an email template (name, subject and HTML content with {{tags}}). Returns success, or an error when the name is taken.';

export const properties: INodeProperties[] = [
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
	itemOptions(retryOptions),
];

/** The records the request names, to explain a refusal in the user's words (run/refusals.ts). */
const FIELD_RULES = labelledBy(properties, {
	templateName: [rules.required, rules.textOrDigits, rules.maxChars(LIMITS.templateName)],
	// The subject becomes a mail header: one line.
	templateSubject: [rules.required, rules.text, rules.singleLine],
	templateContent: [rules.required, rules.text],
});

export const named: NamedRecord[] = [
	{ kind: 'template', must: 'new', names: namesIn('templateName') },
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the template may have been created';

/** Items naming the same templateName run in input order. */
export const recordOf = (item: ItemParameters) => String(item.get('templateName', '')).trim();

export function prepare(item: ItemParameters): RequestPlan {
	const body = {
		templateName: trimmed(item.get('templateName')),
		templateSubject: item.tagged('templateSubject', 'Subject') as string,
		templateContent: item.tagged('templateContent', 'HTML Content') as string,
		editorType: item.get('editorType', 'DRAG') as string,
	};
	assertValid(item.node, body, FIELD_RULES, item.index);
	return {
		path: '/v5/campaign/mail/template/add',
		body,
		output: (answer) => writeResult(body, answer, { templateName: body.templateName }),
	};
}
