import type { OperationOption } from '../../run/operation';
import { namedAction } from '../namedAction';
import { campaignNameLocator } from './shared';

export const option: OperationOption = {
	name: 'Cancel',
	description: 'Cancel a scheduled campaign task',
	action: 'Cancel a campaign',
};

export const toolDescription =
	'Cancels a scheduled campaign by its name; one whose send time has passed cannot be cancelled. Returns success, or an error saying why not.';

export const { properties, named, effect, recordOf, prepare } = namedAction({
	kind: 'campaign',
	locator: campaignNameLocator(
		'A scheduled task; one whose send time has passed cannot be cancelled',
	),
	path: '/v5/campaign/mail/cancel',
	outcome: 'cancelled',
});
