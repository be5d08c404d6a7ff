/**
 * How a send's items give the values of their personalization tags: from their input fields (all, or the
 * chosen ones), as name/value pairs, or as one JSON object (readItem.ts reads them).
 */
import type { INodeProperties } from 'n8n-workflow';

export const tagValueFields: INodeProperties[] = [
	{
		displayName: 'Define Tag Values',
		name: 'tagValuesMode',
		type: 'options',
		options: [
			{
				name: 'From All Input Fields',
				value: 'inputFields',
				description:
					'Each field of the item is a tag of the same name, with no expression to evaluate',
			},
			{
				name: 'From Chosen Input Fields',
				value: 'chosenInputFields',
				description: 'The named fields of the item, each a tag of the same name',
			},
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'One name and value per tag; drag input fields into the values',
			},
			{
				name: 'Using JSON',
				value: 'json',
				description: 'One JSON object, e.g. {"firstName": "Ada"}',
			},
		],
		default: 'fields',
	},
	{
		displayName: 'Input Fields',
		name: 'tagValueFields',
		type: 'string',
		default: '',
		placeholder: 'firstName, orderId',
		description: 'Names of the input fields that become tag values, separated by commas',
		displayOptions: { show: { tagValuesMode: ['chosenInputFields'] } },
	},
	{
		displayName: 'Tag Values',
		name: 'tagValues',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Tag Value',
		default: {},
		description:
			'Values of the personalization tags ({{name}} in the template, subject or HTML). Per message, they win over shared tag values.',
		displayOptions: { show: { tagValuesMode: ['fields'] } },
		options: [
			{
				displayName: 'Tag Value',
				name: 'values',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'resourceLocator',
						default: { mode: 'list', value: '' },
						description:
							"The tag, as written between {{ }}: pick one of the template's (or the HTML's), or type it",
						modes: [
							{
								displayName: 'From Template',
								name: 'list',
								type: 'list',
								typeOptions: { searchListMethod: 'searchTagNames', searchable: true },
							},
							{
								displayName: 'By Name',
								name: 'name',
								type: 'string',
								placeholder: 'firstName',
							},
						],
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'Ada' },
				],
			},
		],
	},
	{
		displayName: 'Tag Values (JSON)',
		name: 'params',
		type: 'json',
		default: '{}',
		description:
			'Values of the personalization tags, e.g. {"firstName": "Ada"}. Per message, they win over shared tag values.',
		displayOptions: { show: { tagValuesMode: ['json'] } },
	},
];
