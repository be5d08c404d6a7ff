import type { OperationOption } from '../../run/operation';
import { namedAction } from '../namedAction';
import { templateLocator } from '../common.descriptions';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete an email template',
	action: 'Delete a template',
};

export const toolDescription =
	'Deletes the email template with this name. Returns success, or an error when there is none.';

export const { properties, named, effect, recordOf, prepare } = namedAction({
	kind: 'template',
	locator: templateLocator(),
	path: '/v5/campaign/mail/template/delete',
	outcome: 'deleted',
	sandbox: false,
});
