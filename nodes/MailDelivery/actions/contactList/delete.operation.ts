import type { OperationOption } from '../../run/operation';
import { namedAction } from '../namedAction';
import { listLocator } from '../common.descriptions';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a contact list',
	action: 'Delete a contact list',
};

export const toolDescription =
	'Deletes the contact list with this name. Returns success, or an error when there is none.';

export const { properties, named, effect, recordOf, prepare } = namedAction({
	kind: 'list',
	locator: listLocator(),
	path: '/v5/lists/delete',
	outcome: 'deleted',
});
