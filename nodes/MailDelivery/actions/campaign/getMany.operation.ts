import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestPages } from '../../../shared/transport';
import { returnAllOrLimit, TASK_TYPE_OPTIONS } from '../common.descriptions';
import { pagingOf, setIfPresent } from '../../helpers/parameters';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
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
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				options: TASK_TYPE_OPTIONS,
				default: 'MailList',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['campaign'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	for (const key of ['mailName', 'subject', 'senderMail', 'type'])
		setIfPresent(body, key, filters[key]);
	if (filters.allTeam === true) body.allTeam = true;
	return await apiRequestPages.call(
		this,
		'/v5/campaign/mail/get',
		body,
		'mailList',
		pagingOf.call(this, itemIndex),
	);
}
