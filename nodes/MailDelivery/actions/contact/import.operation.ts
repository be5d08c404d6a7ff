import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { CUSTOM_OPTION } from '../../../shared/parameterKinds';
import { setIfPresent } from '../../helpers/requestValues';
import { applySandboxMode } from '../../items/commonFields';
import { findProblems, inputError, rules } from '../../helpers/validation';
import { combinedSteps } from '../../run/combined';
import type { OperationOption } from '../../run/operation';
import type { ItemParameters } from '../../items/parameterReader';
import { writeResult } from '../../run/results';
import { wholeNumberOption } from '../../run/throughput';
import {
	nameLocator,
	retryOptions,
	sandboxModeField,
	throughputOptions,
	additionalFieldsCollection,
	optionsCollection,
} from '../common.descriptions';

const DEFAULT_ROWS_PER_REQUEST = 1000;
const MAX_ROWS_PER_REQUEST = 10000;
/** Properties the platform defines for every contact (2.3); mapped automatically, the others are custom. */
const KNOWN_PROPERTIES = new Set(['email', 'phoneNumber', 'name']);
/** The property list's choice for an identifier typed by the user. */

/** Items share requests: each request carries up to Rows per Request contacts (run/engine.ts). */
export const combinesItems = true;

export const effect = 'its contacts may have been imported';

export const option: OperationOption = {
	name: 'Import',
	description: 'Import many contacts from the input items',
	action: 'Import contacts',
};

export const toolDescription =
	'Imports many contacts at once, one per input item, creating and/or updating them, optionally into a list (created when missing). Returns success per item.';

export const fasterWays = {
	contactDataMapping:
		'Map Fields → Map Automatically reads each field of the item as the property of the same name',
};

export const properties: INodeProperties[] = [
	{
		displayName:
			'Each input item becomes one contact row. Map Email or Phone Number (or both); the rows are sent in as few requests as Options → Rows per Request allows (1,000 by default).',
		name: 'importNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Map Fields',
		name: 'mappingMode',
		type: 'options',
		options: [
			{
				name: 'Map Automatically',
				value: 'autoMapInputData',
				description:
					'Each field of the input item is the property of the same name (email, phoneNumber, name, or custom), with no expression to evaluate',
			},
			{
				name: 'Map Each Field Below',
				value: 'defineBelow',
				description: 'Choose each property and give its value',
			},
		],
		default: 'autoMapInputData',
	},
	{
		displayName: 'Other Input Fields',
		name: 'unknownProperties',
		type: 'options',
		options: [
			{
				name: 'Import as Custom Properties',
				value: 'custom',
				description:
					'Fields other than email, phoneNumber and name are sent as custom properties of the same name',
			},
			{
				name: 'Leave Out',
				value: 'ignore',
				description: 'Only email, phoneNumber and name are imported',
			},
		],
		default: 'custom',
		displayOptions: { show: { mappingMode: ['autoMapInputData'] } },
	},
	{
		displayName: 'Fields to Import',
		name: 'contactDataMapping',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		required: true,
		placeholder: 'Add Field',
		default: { fields: [{ propertyName: 'email', value: '={{ $json.email }}' }] },
		displayOptions: { show: { mappingMode: ['defineBelow'] } },
		options: [
			{
				displayName: 'Field',
				name: 'fields',
				values: [
					{
						displayName: 'Property',
						name: 'propertyName',
						type: 'options',
						options: [
							{
								name: 'Custom Property',
								value: CUSTOM_OPTION,
								description: 'A property defined on the platform, by its identifier',
							},
							{ name: 'Email', value: 'email' },
							{ name: 'Name', value: 'name' },
							{ name: 'Phone Number', value: 'phoneNumber' },
						],
						default: 'email',
					},
					{
						displayName: 'Property Identifier',
						name: 'customPropertyName',
						type: 'string',
						default: '',
						placeholder: 'city',
						description: 'The identifier of the property on the platform',
						displayOptions: { show: { propertyName: [CUSTOM_OPTION] } },
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description: 'Value for this item, usually an expression',
					},
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
	sandboxModeField,
	additionalFieldsCollection([
		nameLocator({
			displayName: 'Add to List',
			name: 'listName',
			// The import creates a missing list: the search offers a typed name as a new list.
			searchMethod: 'searchListsOrNew',
			placeholder: 'newsletter',
			required: false,
			description:
				'Put the imported contacts into this list; it is created when missing (type a new name in the search to create one)',
		}),
		{
			displayName: 'List Description',
			name: 'listDescription',
			type: 'string',
			default: '',
			description: 'Used only when a list is given',
		},
	]),
	optionsCollection([
		{
			displayName: 'Rows per Request',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_ROWS_PER_REQUEST },
			default: DEFAULT_ROWS_PER_REQUEST,
			description: 'Very large inputs are split into requests of at most this many rows',
		},
		...throughputOptions(),
		...retryOptions,
	]),
];

interface Row {
	itemIndex: number;
	/** Property name to value, in column order. */
	values: IDataObject;
	/** The request data of its request (columns and request-level fields): one object for every row that shares them. */
	requestData: IDataObject;
	key: string;
}

/** A cell as the API takes it: JSON types kept, text trimmed, nothing (null, undefined) as empty text. */
function cellValue(value: unknown): IDataObject[string] {
	if (value === undefined || value === null) return '';
	return typeof value === 'string' ? value.trim() : (value as IDataObject[string]);
}

/** A row's checks: a phone number or a name given as a whole number (a spreadsheet's) is imported as its digits. */
const ROW_RULES = {
	email: [rules.email],
	phoneNumber: [rules.textOrDigits],
	name: [rules.textOrDigits],
};

const isEmpty = (value: unknown) => value === '' || value === undefined;

/** The row of one item, mapped automatically from its fields or by the fields below. */
function rowValues(item: ItemParameters, json: IDataObject): IDataObject {
	if (item.get('mappingMode', 'autoMapInputData') === 'autoMapInputData') {
		const keepOthers = item.get('unknownProperties', 'custom') === 'custom';
		const values: IDataObject = {};
		for (const [name, value] of Object.entries(json)) {
			if (keepOthers || KNOWN_PROPERTIES.has(name)) values[name] = cellValue(value);
		}
		return values;
	}
	const mapping = item.get<IDataObject[]>('contactDataMapping.fields', []).map((field) => ({
		propertyName: String(
			(field.propertyName === CUSTOM_OPTION ? field.customPropertyName : field.propertyName) ?? '',
		).trim(),
		value: cellValue(field.value),
	}));
	const refuse = (problem: string) => inputError(item.node, problem, item.index);
	const unnamed = mapping.findIndex((field) => !field.propertyName);
	if (unnamed !== -1)
		throw refuse(`Field "Fields to Import": field ${unnamed + 1} has no property identifier`);
	const names = mapping.map((field) => field.propertyName);
	const twice = names.find((name, index) => names.indexOf(name) !== index);
	if (twice !== undefined)
		throw refuse(
			`Field "Fields to Import" maps the property "${twice}" more than once; map each property once`,
		);
	if (!names.includes('email') && !names.includes('phoneNumber'))
		throw refuse('Field "Fields to Import" must map email or phoneNumber (or both)');
	return Object.fromEntries(mapping.map((field) => [field.propertyName, field.value]));
}

/**
 * One item's row, checked. Rows with the same columns and request-level fields share one request data object
 * (`requestDataByKey`), so 100,000 rows hold 100,000 value objects and not 100,000 copies of the column mapping.
 */
function readRow(
	item: ItemParameters,
	json: IDataObject,
	requestDataByKey: Map<string, IDataObject>,
): Row {
	const values = rowValues(item, json);
	if (isEmpty(values.email) && isEmpty(values.phoneNumber))
		throw inputError(
			item.node,
			'Field "email" or "phoneNumber" has no value for this item: a contact needs an email address or a phone number',
			item.index,
		);
	const problems = findProblems(values, ROW_RULES);
	if (problems.length) throw inputError(item.node, problems[0].text, item.index);
	const fields = item.get<IDataObject>('additionalFields', {});
	const requestFields: IDataObject = { updateMode: item.get<number>('updateMode', 1) };
	if (fields.listName !== undefined)
		setIfPresent(requestFields, 'listName', item.locator('additionalFields.listName'));
	if (requestFields.listName)
		setIfPresent(requestFields, 'listDescription', fields.listDescription);
	applySandboxMode(requestFields, item);
	const names = Object.keys(values);
	const key = JSON.stringify([names, requestFields]);
	let requestData = requestDataByKey.get(key);
	if (!requestData) {
		requestData = {
			contactDataMapping: names.map((propertyName, columnNum) => ({ columnNum, propertyName })),
			...requestFields,
		};
		requestDataByKey.set(key, requestData);
	}
	return { itemIndex: item.index, values, requestData, key };
}

/**
 * Import's steps: each item is one row, rows with equal request-level fields share a request of up to Rows per
 * Request, and each item's output is its row and the import's answer.
 */
export const steps = combinedSteps<Row, undefined>(function (run) {
	const batchSize = wholeNumberOption(
		run.node,
		'Rows per Request',
		run.options.batchSize,
		DEFAULT_ROWS_PER_REQUEST,
		1,
		MAX_ROWS_PER_REQUEST,
	);
	const items = this.getInputData();
	const requestDataByKey = new Map<string, IDataObject>();
	const valuesOf = (rows: Row[]) =>
		rows.length === 1 ? { ...rows[0].values } : { rows: rows.map((row) => row.values) };
	return {
		readItem: (item) => [readRow(item, items[item.index]?.json ?? {}, requestDataByKey)],
		packing: {
			keyOf: (row) => row.key,
			maxPerRequest: batchSize,
			recipientsOf: (row) => (isEmpty(row.values.email) ? [] : [String(row.values.email)]),
		},
		requests: {
			send: async (chunk, _requestData, options) => {
				const columns = chunk[0].requestData.contactDataMapping as Array<{ propertyName: string }>;
				const body: IDataObject = {
					...chunk[0].requestData,
					contactData: chunk.map((row) =>
						columns.map((column) => row.values[column.propertyName]),
					) as unknown as IDataObject[],
				};
				const answer = await apiRequest.call(this, '/v5/contacts/imports', body, options);
				return { answer, sandbox: body.sandboxMode === true };
			},
			// The API does not say; the emulator's choice, as a careful integrator's: a 400 refuses the whole import.
			refusedWhole: (error) => error instanceof NodeApiError && error.httpCode === '400',
		},
		outputs: {
			describe: ({ sent, accepted }, requestsOfItem) =>
				writeResult({ sandboxMode: accepted!.sandbox }, accepted!.answer, {
					...valuesOf(sent),
					...requestsOfItem,
				}),
			describeEntries: valuesOf,
		},
	};
});
