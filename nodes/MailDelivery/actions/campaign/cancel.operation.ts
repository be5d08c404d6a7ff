import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, rules } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { sandboxModeField } from '../common.descriptions';
import { applySandboxMode, locatorValue } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';
import { campaignNameLocator } from './shared';

const properties: INodeProperties[] = [campaignNameLocator('A scheduled task; one whose send time has passed cannot be cancelled'), sandboxModeField];

export const description = updateDisplayOptions({ show: { resource: ['campaign'], operation: ['cancel'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = { mailName: locatorValue.call(this, 'mailName', itemIndex) };
	assertValid(this.getNode(), body, { mailName: [rules.required] }, itemIndex);
	applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, '/v5/campaign/mail/cancel', body, itemIndex);
	return writeResult(body, answer, { mailName: body.mailName, cancelled: !('sandboxMode' in body) });
}
