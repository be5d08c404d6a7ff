import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, rules } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { templateLocator } from '../common.descriptions';
import { locatorValue } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';

const properties: INodeProperties[] = [templateLocator()];

export const description = updateDisplayOptions({ show: { resource: ['template'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = { templateName: locatorValue.call(this, 'templateName', itemIndex) };
	assertValid(this.getNode(), body, { templateName: [rules.required] }, itemIndex);
	const answer = await apiRequest.call(this, '/v5/campaign/mail/template/delete', body, itemIndex);
	return writeResult(body, answer, { templateName: body.templateName, deleted: true });
}
