import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestPages } from '../../../shared/transport';
import { returnAllOrLimit } from '../common.descriptions';
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
				displayName: 'Template Name',
				name: 'templateName',
				type: 'string',
				default: '',
				description: 'Templates whose name contains this text',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['getMany'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	setIfPresent(body, 'templateName', filters.templateName);
	return await apiRequestPages.call(
		this,
		'/v5/campaign/mail/template/get',
		body,
		'templateList',
		pagingOf.call(this, itemIndex),
	);
}
