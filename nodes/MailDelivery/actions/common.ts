import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { inputError } from '../helpers/limits';
import { toApiDateTime, toApiDay } from '../helpers/dates';

/** What every operation file exports; batch operations see all input items at once. */
export interface OperationModule {
	description: INodeProperties[];
	execute?: (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject | IDataObject[]>;
	executeBatch?: (this: IExecuteFunctions, items: INodeExecutionData[]) => Promise<INodeExecutionData[]>;
}

/** The sandbox toggle, placed only on the operations whose table lists `sandboxMode`. */
export const sandboxModeField: INodeProperties = {
	displayName: 'Sandbox Mode',
	name: 'sandboxMode',
	type: 'boolean',
	default: false,
	description:
		'Whether the platform should only check the request and answer success, without sending mail or changing any data',
};

/** Adds `sandboxMode: true` to the body when the toggle is on; off, nothing is sent. */
export function applySandboxMode(this: IExecuteFunctions, body: IDataObject, itemIndex: number) {
	if (this.getNodeParameter('sandboxMode', itemIndex, false) === true) body.sandboxMode = true;
	return body;
}

/** The answer of a write operation as an output item: the platform's code and message, plus context. */
export function writeResult(body: IDataObject, answer: IDataObject, extra: IDataObject = {}): IDataObject {
	return {
		success: true,
		...(body.sandboxMode === true ? { sandboxMode: true } : {}),
		...extra,
		code: answer.code,
		message: answer.message ?? '',
	};
}

export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export function pagingOf(this: IExecuteFunctions, itemIndex: number) {
	return {
		returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
		limit: this.getNodeParameter('limit', itemIndex, 50) as number,
		itemIndex,
	};
}

/** A resource locator over a named platform object: pick from a searchable list, or type the name. */
export function nameLocator(options: {
	displayName: string;
	name: string;
	searchMethod: string;
	placeholder: string;
	description?: string;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: options.searchMethod, searchable: true },
			},
			{
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: options.placeholder,
			},
		],
	};
}

export const senderLocator = (name = 'senderMail', displayName = 'Sender Email') =>
	nameLocator({
		displayName,
		name,
		searchMethod: 'searchSenders',
		placeholder: 'sender@example.com',
		description: 'A verified sender of the account',
	});

export const templateLocator = (required = true) =>
	nameLocator({
		displayName: 'Template',
		name: 'templateName',
		searchMethod: 'searchTemplates',
		placeholder: 'welcome',
		required,
	});

export const listLocator = (displayName = 'Contact List', required = true) =>
	nameLocator({
		displayName,
		name: 'listName',
		searchMethod: 'searchLists',
		placeholder: 'newsletter',
		required,
	});

/** Reads a resource locator (or a plain string from older workflows) as a trimmed name. */
export function locatorValue(this: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	return typeof value === 'string' ? value.trim() : String(value ?? '').trim();
}

/** Sets `target[key]` when the value is not empty, so only what the user filled in is sent. */
export function setIfPresent(target: IDataObject, key: string, value: unknown) {
	if (value === undefined || value === null || value === '') return;
	if (Array.isArray(value) && value.length === 0) return;
	target[key] = value as IDataObject[keyof IDataObject];
}

export function dateTimeParam(this: IExecuteFunctions, field: string, value: unknown, itemIndex: number) {
	try {
		return toApiDateTime(value, this.getTimezone());
	} catch {
		throw inputError(this.getNode(), `Field "${field}" is not a date and time that can be read: "${String(value)}"`, itemIndex);
	}
}

export function dayParam(this: IExecuteFunctions, field: string, value: unknown, itemIndex: number) {
	try {
		return toApiDay(value, this.getTimezone());
	} catch {
		throw inputError(this.getNode(), `Field "${field}" is not a day that can be read: "${String(value)}"`, itemIndex);
	}
}

/** The platform takes one attachment, as base64, read from a binary property of the input item. */
export async function attachmentFromBinary(this: IExecuteFunctions, itemIndex: number, propertyName: string) {
	const name = propertyName.trim();
	if (!name) return undefined;
	const item = this.getInputData()[itemIndex];
	if (!item?.binary?.[name]) {
		throw inputError(
			this.getNode(),
			`Field "Attachment Binary Property": the input item has no binary property "${name}"`,
			itemIndex,
		);
	}
	const binary = this.helpers.assertBinaryData(itemIndex, name);
	const buffer = await this.helpers.getBinaryDataBuffer(itemIndex, name);
	return { fileName: binary.fileName ?? name, fileData: buffer.toString('base64') };
}

export const attachmentField: INodeProperties = {
	displayName: 'Attachment Binary Property',
	name: 'attachmentBinaryProperty',
	type: 'string',
	default: '',
	placeholder: 'data',
	description:
		'Name of the binary property of the input item to attach (one file; the platform allows one attachment per mail)',
};

export const LANGUAGE_OPTIONS: INodePropertyOptions[] = [
	['Arabic', 'ar'],
	['Chinese (Simplified)', 'zh-cn'],
	['Chinese (Traditional)', 'zh-tw'],
	['English', 'en'],
	['French', 'fr'],
	['German', 'de'],
	['Indonesian', 'id'],
	['Japanese', 'ja'],
	['Korean', 'ko'],
	['Portuguese (Brazil)', 'pt-br'],
	['Spanish', 'es'],
	['Tatar', 'tt'],
	['Thai', 'th'],
	['Vietnamese', 'vi'],
].map(([name, value]) => ({ name, value }));

export const EDITOR_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Classic', value: 'CLASSIC' },
	{ name: 'Drag and Drop', value: 'DRAG' },
];

export const TASK_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'A/B Test', value: 'ABTest' },
	{ name: 'Ordinary (Mail List)', value: 'MailList' },
];

/** Splits "a@x.com, Name <b@y.com>" or an array into recipient objects. */
export function parseRecipients(value: unknown): Array<{ email: string; name?: string }> {
	const entries: unknown[] = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(/[,;\n]/)
			: value === undefined || value === null
				? []
				: [value];
	const recipients: Array<{ email: string; name?: string }> = [];
	for (const entry of entries) {
		if (entry && typeof entry === 'object') {
			const { email, name } = entry as { email?: unknown; name?: unknown };
			recipients.push({ email: String(email ?? '').trim(), ...(name ? { name: String(name) } : {}) });
			continue;
		}
		const text = String(entry ?? '').trim();
		if (!text) continue;
		const named = /^(.*?)\s*<([^>]+)>$/.exec(text);
		if (named) {
			const name = named[1].replace(/^"|"$/g, '').trim();
			recipients.push({ email: named[2].trim(), ...(name ? { name } : {}) });
		} else {
			recipients.push({ email: text });
		}
	}
	return recipients;
}

/** Reads a JSON parameter that may arrive as text or as an object. */
export function jsonParam(this: IExecuteFunctions, field: string, value: unknown, itemIndex: number): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		throw inputError(this.getNode(), `Field "${field}" is not valid JSON`, itemIndex);
	}
}

/** Start and end day of a report, days included, sent as YYYY-MM-DD. */
export const dayRangeFields: INodeProperties[] = [
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'First day of the report (included)',
	},
	{
		displayName: 'End Date',
		name: 'endDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'Last day of the report (included)',
	},
];

export function readDayRange(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const startDate = dayParam.call(this, 'Start Date', this.getNodeParameter('startDate', itemIndex, ''), itemIndex);
	const endDate = dayParam.call(this, 'End Date', this.getNodeParameter('endDate', itemIndex, ''), itemIndex);
	if (!startDate || !endDate) {
		throw inputError(this.getNode(), `Field "${startDate ? 'End Date' : 'Start Date'}" is required`, itemIndex);
	}
	if (startDate > endDate) {
		throw inputError(this.getNode(), `Field "Start Date" (${startDate}) is after "End Date" (${endDate})`, itemIndex);
	}
	return { startDate, endDate };
}
