import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestPages } from '../../../shared/transport';
import { returnAllOrLimit, simplified, simplifyField } from '../common.descriptions';
import { tagsIn } from '../../../shared/tags';
import { pagingOf, setIfPresent } from '../../helpers/parameters';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		...simplifyField,
		description:
			'Whether to return each template without its HTML: name, subject, the tags it uses and its date',
	},
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
	const templates = await apiRequestPages.call(
		this,
		'/v5/campaign/mail/template/get',
		body,
		'templateList',
		pagingOf.call(this, itemIndex),
	);
	return simplified(templates, this.getNodeParameter('simplify', itemIndex, true), compact);
}

/** A template without its HTML: what it is called, its subject, the tags to give values for, its date. */
const compact = (template: IDataObject): IDataObject => ({
	templateName: template.templateName,
	templateSubject: template.templateSubject,
	tags: tagsIn(template.templateSubject, template.templateContent),
	createDate: template.createDate,
});
