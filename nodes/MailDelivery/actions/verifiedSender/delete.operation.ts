import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, rules } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { sandboxModeField, senderLocator } from '../common.descriptions';
import { applySandboxMode, locatorValue } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';

const properties: INodeProperties[] = [senderLocator('senderEmail', 'Sender'), sandboxModeField];

export const description = updateDisplayOptions({ show: { resource: ['verifiedSender'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = { senderEmail: locatorValue.call(this, 'senderEmail', itemIndex) };
	assertValid(this.getNode(), body, { senderEmail: [rules.required] }, itemIndex);
	applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, '/v5/verified_senders/delete', body, itemIndex);
	return writeResult(body, answer, { senderEmail: body.senderEmail, deleted: !('sandboxMode' in body) });
}
