import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { actOnNamed } from '../../helpers/namedActions';
import { sandboxModeField, senderLocator } from '../common.descriptions';

const properties: INodeProperties[] = [senderLocator('senderEmail', 'Sender'), sandboxModeField];

export const description = updateDisplayOptions(
	{ show: { resource: ['verifiedSender'], operation: ['delete'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	return await actOnNamed.call(this, itemIndex, {
		field: 'senderEmail',
		path: '/v5/verified_senders/delete',
		outcome: 'deleted',
	});
}
