import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { chunkByKey, errorForItem, errorItem, groupKey } from '../../helpers/batching';
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
	const results: INodeExecutionData[][] = items.map(() => []);
	const rows: Row[] = [];
	let batchSize = 1000;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
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
			batchSize = Number(options.batchSize ?? batchSize);
			const request: IDataObject = {
				contactDataMapping: names.map((propertyName, columnNum) => ({ columnNum, propertyName })),
				updateMode: this.getNodeParameter('updateMode', itemIndex, 1) as number,
			};
			if (options.listName !== undefined) setIfPresent(request, 'listName', locatorValue.call(this, 'options.listName', itemIndex));
			if (request.listName) setIfPresent(request, 'listDescription', options.listDescription);
			applySandboxMode.call(this, request, itemIndex);
			rows.push({ itemIndex, values, request });
		} catch (error) {
			if (!this.continueOnFail()) throw errorForItem(this, error, itemIndex);
			results[itemIndex] = [errorItem(error, itemIndex)];
		}
	}
	const chunks = chunkByKey(rows, (row) => groupKey(row.request), batchSize);
	for (const [requestIndex, chunk] of chunks.entries()) {
		const body: IDataObject = {
			...chunk[0].request,
			contactData: chunk.map((row) => (chunk[0].request.contactDataMapping as IDataObject[]).map((m) => row.values[m.propertyName as string] ?? '')),
		};
		try {
			const answer = await apiRequest.call(this, '/v5/contacts/imports', body, chunk[0].itemIndex);
			for (const row of chunk) {
				results[row.itemIndex] = [
					{
						json: {
							success: true,
							...(body.sandboxMode ? { sandboxMode: true } : {}),
							...row.values,
							importRequest: requestIndex + 1,
							rowsInRequest: chunk.length,
							code: answer.code,
							message: answer.message ?? '',
						},
						pairedItem: { item: row.itemIndex },
					},
				];
			}
		} catch (error) {
			if (!this.continueOnFail()) throw errorForItem(this, error, chunk[0].itemIndex);
			for (const row of chunk) results[row.itemIndex] = [errorItem(error, row.itemIndex)];
		}
	}
	return results.flat();
}
