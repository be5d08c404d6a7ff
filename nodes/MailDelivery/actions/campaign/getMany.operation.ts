import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	taskTypeFilter,
	filtersCollection,
	itemOptions,
	returnAllOrLimit,
	simplified,
	simplifyField,
} from '../common.descriptions';
import { setIfPresent } from '../../helpers/requestValues';
import { type Paging, pagingOf } from '../../items/commonFields';
import type { ItemParameters } from '../../items/parameterReader';
import type { ItemPlatform, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Get Many',
	description: 'Search campaign tasks',
	action: 'Get many campaigns',
};

export const toolDescription =
	'Searches campaign tasks by name, subject or sender. Returns at most Limit tasks with their subject, sender, lists, status (draft, sending, completed, failed) and, for completed ones, their statistics; with Simplify off, every field and the HTML body.';

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		...simplifyField,
		description:
			'Whether to return each campaign with its main fields only (no HTML body), its status also in words',
	},
	filtersCollection([
		{
			displayName: 'All Teams',
			name: 'allTeam',
			type: 'boolean',
			default: false,
			description:
				'Whether to search the tasks of all teams of the company (needs a granted permission)',
		},
		{
			displayName: 'Campaign Name',
			name: 'mailName',
			type: 'string',
			default: '',
			description: 'Tasks whose name contains this text',
		},
		{
			displayName: 'Sender Email',
			name: 'senderMail',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
		},
		{
			displayName: 'Subject',
			name: 'subject',
			type: 'string',
			default: '',
			description: 'Tasks whose subject contains this text',
		},
		taskTypeFilter,
	]),
	itemOptions(),
];

interface Search {
	body: IDataObject;
	paging: Paging;
	simplify: unknown;
}

export function prepare(item: ItemParameters): Search {
	const filters = item.get('filters', {}) as IDataObject;
	const body: IDataObject = {};
	for (const key of ['mailName', 'subject', 'senderMail', 'type'])
		setIfPresent(body, key, filters[key]);
	if (filters.allTeam === true) body.allTeam = true;
	return { body, paging: pagingOf(item), simplify: item.get('simplify', true) };
}

export async function send({ body, paging, simplify }: Search, platform: ItemPlatform) {
	const campaigns = await platform.pages('/v5/campaign/mail/get', body, 'mailList', paging);
	return simplified(campaigns, simplify, compact);
}

/** mailStatus (2.1) in words. */
const STATUS: Record<string, string> = {
	'-1': 'draft',
	'1': 'sending',
	'2': 'completed',
	'4': 'failed',
};

/** A campaign's main fields, without its HTML body; mailStats only when the platform gives them (completed). */
function compact(task: IDataObject): IDataObject {
	const shape: IDataObject = {
		mailName: task.mailName,
		subject: task.subject,
		senderMail: task.senderMail,
		mailStatus: task.mailStatus,
		status: STATUS[String(task.mailStatus)] ?? 'unknown',
		sendByDateTime: task.sendByDateTime,
		rcptListNames: task.rcptListNames,
		guid: task.guid,
	};
	if (task.mailStats !== undefined) shape.mailStats = task.mailStats;
	return shape;
}
