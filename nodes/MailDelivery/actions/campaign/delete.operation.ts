import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, rules } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { sandboxModeField } from '../common.descriptions';
import { applySandboxMode, locatorValue } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';
import { campaignNameLocator } from './shared';

const properties: INodeProperties[] = [campaignNameLocator(), sandboxModeField];

export const description = updateDisplayOptions({ show: { resource: ['campaign'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = { mailName: locatorValue.call(this, 'mailName', itemIndex) };
	assertValid(this.getNode(), body, { mailName: [rules.required] }, itemIndex);
	applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, '/v5/campaign/mail/delete', body, itemIndex);
	return writeResult(body, answer, { mailName: body.mailName, deleted: !('sandboxMode' in body) });
}
