import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid, rules } from '../../helpers/validation';
import { apiRequest } from '../../transport';
import { listLocator, sandboxModeField } from '../common.descriptions';
import { applySandboxMode, locatorValue } from '../../helpers/parameters';
import { writeResult } from '../../helpers/results';

const properties: INodeProperties[] = [listLocator(), sandboxModeField];

export const description = updateDisplayOptions({ show: { resource: ['contactList'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const body = { listName: locatorValue.call(this, 'listName', itemIndex) };
	assertValid(this.getNode(), body, { listName: [rules.required] }, itemIndex);
	applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, '/v5/lists/delete', body, itemIndex);
	return writeResult(body, answer, { listName: body.listName, deleted: !('sandboxMode' in body) });
}
