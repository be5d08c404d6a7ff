import type { OperationOption } from '../../run/operation';
import { namedAction } from '../namedAction';
import { senderLocator } from '../common.descriptions';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a sender address',
	action: 'Delete a verified sender',
};

export const toolDescription = 'Removes a sender address from the account. Returns success.';

export const { properties, named, effect, recordOf, prepare } = namedAction({
	kind: 'sender',
	locator: senderLocator('senderEmail', 'Sender'),
	path: '/v5/verified_senders/delete',
	outcome: 'deleted',
	caseless: true,
});
