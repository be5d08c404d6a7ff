import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { groupKey, runBatched } from '../../helpers/batching';
import { findProblems, inputError, rules } from '../../helpers/limits';
import { apiRequest } from '../../transport';
import { applySandboxMode, listLocator, locatorValue, sandboxModeField, setIfPresent } from '../common';

const properties: INodeProperties[] = [
	{
		displayName:
			'Each input item becomes one contact row. Map Email or Phone Number (or both); the rows are sent in as few requests as the batch size allows.',
		name: 'importNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Fields to Import',
		name: 'contactDataMapping',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		required: true,
		placeholder: 'Add Field',
		default: { fields: [{ propertyName: 'email', value: '={{ $json.email }}' }] },
		options: [
			{
				displayName: 'Field',
				name: 'fields',
				values: [
					{
						displayName: 'Property Name',
						name: 'propertyName',
						type: 'string',
						default: 'email',
						description: 'Property identifier on the platform, such as email, phoneNumber, name or a custom property',
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '', description: 'Value for this item, usually an expression' },
				],
			},
		],
	},
	{
		displayName: 'Update Mode',
		name: 'updateMode',
		type: 'options',
		options: [
			{ name: 'Create and Update', value: 1 },
			{ name: 'Create Only', value: 2 },
			{ name: 'Update Only', value: 3 },
		],
		default: 1,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				...listLocator('Add to List', false),
				description: 'Put the imported contacts into this list; it is created when missing',
			},
			{ displayName: 'List Description', name: 'listDescription', type: 'string', default: '', description: 'Used only when a list is given' },
			{
				displayName: 'Rows per Request',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 10000 },
				default: 1000,
				description: 'Very large inputs are split into requests of at most this many rows',
			},
		],
	},
	sandboxModeField,
];

export const description = updateDisplayOptions({ show: { resource: ['contact'], operation: ['import'] } }, properties);

interface Row {
	itemIndex: number;
	values: Record<string, string>;
	request: IDataObject;
}

export async function executeBatch(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await runBatched<Row>(this, items.length, {
		maxPerRequest: Number(this.getNodeParameter('options.batchSize', 0, 1000)),
		keyOf: (row) => groupKey(row.request),
		prepare: async (itemIndex) => {
			const mapping = (this.getNodeParameter('contactDataMapping.fields', itemIndex, []) as IDataObject[]).map((field) => ({
				propertyName: String(field.propertyName ?? '').trim(),
				value: field.value === undefined || field.value === null ? '' : String(field.value).trim(),
			}));
			const names = mapping.map((field) => field.propertyName);
			if (!names.includes('email') && !names.includes('phoneNumber')) {
				throw inputError(this.getNode(), 'Field "Fields to Import" must map email or phoneNumber (or both)', itemIndex);
			}
			const values = Object.fromEntries(mapping.map((field) => [field.propertyName, field.value]));
			if (!values.email && !values.phoneNumber) {
				throw inputError(this.getNode(), 'Field "email" or "phoneNumber" has no value for this item', itemIndex);
			}
			const problems = findProblems(values, { email: [rules.email] });
			if (problems.length) throw inputError(this.getNode(), problems[0], itemIndex);
			const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
			const request: IDataObject = {
				contactDataMapping: names.map((propertyName, columnNum) => ({ columnNum, propertyName })),
				updateMode: this.getNodeParameter('updateMode', itemIndex, 1) as number,
			};
			if (options.listName !== undefined) setIfPresent(request, 'listName', locatorValue.call(this, 'options.listName', itemIndex));
			if (request.listName) setIfPresent(request, 'listDescription', options.listDescription);
			applySandboxMode.call(this, request, itemIndex);
			return [{ itemIndex, values, request }];
		},
		send: async (chunk, firstItemIndex) => {
			const columns = chunk[0].request.contactDataMapping as Array<{ propertyName: string }>;
			const body: IDataObject = {
				...chunk[0].request,
				contactData: chunk.map((row) => columns.map((column) => row.values[column.propertyName] ?? '')),
			};
			return { body, answer: await apiRequest.call(this, '/v5/contacts/imports', body, firstItemIndex) };
		},
		output: (row, request) => ({ ...row.values, importRequest: request.number, rowsInRequest: request.size }),
	});
}
