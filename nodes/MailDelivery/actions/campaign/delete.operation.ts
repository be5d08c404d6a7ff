import type { OperationOption } from '../../run/operation';
import { namedAction } from '../namedAction';
import { campaignNameLocator } from './shared';

export const option: OperationOption = {
	name: 'Delete',
	description: 'Delete a campaign task',
	action: 'Delete a campaign',
};

export const toolDescription =
	'Deletes a campaign task by its name. Returns success, or an error when there is no such task.';

export const { properties, named, effect, recordOf, prepare } = namedAction({
	kind: 'campaign',
	locator: campaignNameLocator(),
	path: '/v5/campaign/mail/delete',
	outcome: 'deleted',
});
