import { resource } from '../resource';
import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as deleteCampaign from './delete.operation';
import * as getMany from './getMany.operation';
import * as getStats from './getStats.operation';

export const campaign = resource(
	'campaign',
	{ cancel, create, delete: deleteCampaign, getMany, getStats },
	'create',
);
