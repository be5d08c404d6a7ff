import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { actOnNamed } from '../../helpers/namedActions';
import { listLocator, sandboxModeField } from '../common.descriptions';

const properties: INodeProperties[] = [listLocator(), sandboxModeField];

export const description = updateDisplayOptions(
	{ show: { resource: ['contactList'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return await actOnNamed.call(this, itemIndex, {
		field: 'listName',
		path: '/v5/lists/delete',
		outcome: 'deleted',
	});
}
