import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	itemOptions,
	returnAllOrLimit,
	simplified,
	simplifyField,
	filtersCollection,
} from '../common.descriptions';
import { tagsIn } from '../../helpers/tags';
import { setIfPresent } from '../../helpers/requestValues';
import { type Paging, pagingOf } from '../../items/commonFields';
import type { ItemParameters } from '../../items/parameterReader';
import type { ItemPlatform, OperationOption } from '../../run/operation';

export const option: OperationOption = {
	name: 'Get Many',
	description: 'Search email templates',
	action: 'Get many templates',
};

export const toolDescription =
	'Searches email templates by name. Returns at most Limit templates with their subject, the {{tags}} they use (to give values for when sending) and their date; with Simplify off, their HTML too.';

export const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
		...simplifyField,
		description:
			'Whether to return each template without its HTML: name, subject, the tags it uses and its date',
	},
	filtersCollection([
		{
			displayName: 'Template Name',
			name: 'templateName',
			type: 'string',
			default: '',
			description: 'Templates whose name contains this text',
		},
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
	setIfPresent(body, 'templateName', filters.templateName);
	return { body, paging: pagingOf(item), simplify: item.get('simplify', true) };
}

export async function send({ body, paging, simplify }: Search, platform: ItemPlatform) {
	const templates = await platform.pages(
		'/v5/campaign/mail/template/get',
		body,
		'templateList',
		paging,
	);
	return simplified(templates, simplify, compact);
}

/** A template without its HTML: what it is called, its subject, the tags to give values for, its date. */
const compact = (template: IDataObject): IDataObject => ({
	templateName: template.templateName,
	templateSubject: template.templateSubject,
	tags: tagsIn(template.templateSubject, template.templateContent),
	createDate: template.createDate,
});
