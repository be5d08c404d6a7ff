/**
 * Free Text and Custom Form answers on n8n's own form page: the form's fields (from the node's fields or JSON, as
 * n8n's Form node takes them), the data n8n's `form-trigger` page is rendered with (as n8n's prepareFormData
 * makes it), and an answer read back from the page's POST (multipart: `field-<index>` values and files).
 */
import type { IBinaryData, IDataObject, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';
import { isSafeObjectProperty } from 'n8n-workflow';

import { FORM_FIELD_TYPES } from './formFields';
import { escapeHtml, messageHtml } from './html';
import { sanitizeCss, sanitizeHtml } from './sanitize';

export interface FormField {
	fieldLabel?: string;
	fieldType?: string;
	fieldName?: string;
	fieldValue?: string;
	elementName?: string;
	html?: string;
	placeholder?: string;
	defaultValue?: string;
	requiredField?: boolean;
	multiselect?: boolean;
	multipleFiles?: boolean;
	acceptFileTypes?: string;
	fieldOptions?: { values?: Array<{ option?: string }> };
	limitSelection?: string;
	numberOfSelections?: number;
	minSelections?: number;
	maxSelections?: number;
}

/** A form definition that cannot be shown, in words naming the field. */
export class FormDefinitionError extends Error {}

const CHOICES = ['dropdown', 'checkbox', 'radio'];

/** Free Text's one field, as n8n's send-and-wait nodes define it. */
export const FREE_TEXT_FIELDS: FormField[] = [
	{ fieldLabel: 'Response', fieldType: 'textarea', requiredField: true },
];

const INVALID_JSON = Symbol('invalid JSON');

function parsedJson(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return INVALID_JSON;
	}
}

/** The fields of a Custom Form, checked: each a known type, labelled, with choices where it needs them. */
export function formFieldsOf(defineForm: unknown, json: unknown, values: unknown): FormField[] {
	let fields: unknown = values;
	if (defineForm === 'json') {
		fields = typeof json === 'string' ? parsedJson(json) : json;
		if (fields === INVALID_JSON)
			throw new FormDefinitionError('Field "Form Fields" is not valid JSON');
		if (!Array.isArray(fields))
			throw new FormDefinitionError('Field "Form Fields" must be a JSON array of fields');
	}
	const list = (Array.isArray(fields) ? fields : []) as FormField[];
	if (list.length === 0)
		throw new FormDefinitionError('The form has no fields: add one under "Form Elements"');
	list.forEach((field, index) => {
		const where = `Form field ${index + 1}`;
		if (field === null || typeof field !== 'object')
			throw new FormDefinitionError(`${where} is not an object`);
		const type = field.fieldType ?? 'text';
		if (!FORM_FIELD_TYPES.includes(type))
			throw new FormDefinitionError(
				`${where} has the type "${String(type)}"; the types are ${FORM_FIELD_TYPES.join(', ')}`,
			);
		if (type === 'hiddenField' ? !field.fieldName : type !== 'html' && !field.fieldLabel)
			throw new FormDefinitionError(
				`${where} has no ${type === 'hiddenField' ? 'Field Name' : 'Label (fieldLabel)'}`,
			);
		if (CHOICES.includes(type) && !field.fieldOptions?.values?.some((value) => value?.option))
			throw new FormDefinitionError(`${where} (${field.fieldLabel}) has no options to choose from`);
	});
	checkAnswerNames(list);
	return list;
}

/**
 * Names no answer can go under: `__proto__` (an object drops it), the names n8n's expressions refuse to read
 * (`constructor`, `prototype`, and the rest of n8n-workflow's list), and respondedAt (the output's time of the
 * answer).
 */
function unusableName(name: string): string | undefined {
	if (name === 'respondedAt') return 'which the output keeps for the time of the answer';
	const readable = typeof isSafeObjectProperty === 'function' ? isSafeObjectProperty(name) : true;
	if (!readable || ['__proto__', 'constructor', 'prototype'].includes(name))
		return 'a name n8n cannot keep an answer under';
	return undefined;
}

/** Each answer under a name of its own that n8n keeps and reads, and each field's files under their own names. */
function checkAnswerNames(fields: FormField[]) {
	const named = new Map<string, number>();
	const filed = new Map<string, number>();
	fields.forEach((field, index) => {
		const name = outputName(field);
		if (field.fieldType === 'html' && !name) return;
		const called =
			field.fieldType === 'hiddenField' || field.fieldType === 'html' ? 'named' : 'labelled';
		const why = unusableName(name);
		if (why)
			throw new FormDefinitionError(
				`Form field ${index + 1} is ${called} "${name}", ${why}: choose another ${called === 'named' ? 'name' : 'label'}`,
			);
		const same = named.get(name);
		if (same !== undefined)
			throw new FormDefinitionError(
				`Form fields ${same + 1} and ${index + 1} both answer under "${name}": give each its own ${called === 'named' ? 'name' : 'label'}`,
			);
		named.set(name, index);
		if (field.fieldType !== 'file') return;
		const files = binaryName(field);
		const sharing = filed.get(files);
		if (sharing !== undefined)
			throw new FormDefinitionError(
				`Form fields ${sharing + 1} and ${index + 1} both keep their files under "${files}": give them labels that differ in letters or digits`,
			);
		filed.set(files, index);
	});
}

/** What an answer is named in the output: the label; a hidden field's name; an HTML element's name. */
const outputName = (field: FormField) =>
	field.fieldType === 'hiddenField'
		? String(field.fieldName)
		: field.fieldType === 'html'
			? String(field.elementName ?? '')
			: String(field.fieldLabel);

/** One field as n8n's form-trigger page takes it (n8n-nodes-base Form utils, prepareFormData). */
function pageField(field: FormField, index: number): IDataObject {
	const type = field.fieldType ?? 'text';
	const input: IDataObject = {
		id: `field-${index}`,
		errorId: `error-field-${index}`,
		label: field.fieldLabel,
		inputRequired: field.requiredField ? 'form-required' : '',
		defaultValue: field.defaultValue ?? '',
		placeholder: field.placeholder,
	};
	const options = (field.fieldOptions?.values ?? []).map((value) => String(value?.option ?? ''));
	if (field.multiselect || type === 'checkbox' || type === 'radio') {
		input.isMultiSelect = true;
		input.multiSelectOptions = options.map((label, i) => ({ id: `option${i}_${input.id}`, label }));
		if (type === 'radio') input.radioSelect = 'radio';
		else if (field.limitSelection === 'exact')
			input.exactSelectedOptions = field.numberOfSelections;
		else if (field.limitSelection === 'range') {
			input.minSelectedOptions = field.minSelections;
			input.maxSelectedOptions = field.maxSelections;
		}
	} else if (type === 'file') {
		input.isFileInput = true;
		input.acceptFileTypes = field.acceptFileTypes;
		input.multipleFiles = field.multipleFiles === false ? '' : 'multiple';
	} else if (type === 'dropdown') {
		input.isSelect = true;
		input.selectOptions = options;
	} else if (type === 'textarea') input.isTextarea = true;
	else if (type === 'html') {
		input.isHtml = true;
		input.html = sanitizeHtml(String(field.html ?? ''));
	} else if (type === 'hiddenField') {
		input.isHidden = true;
		input.hiddenName = field.fieldName;
		input.hiddenValue = field.fieldValue ?? '';
	} else {
		input.isInput = true;
		input.type = type;
	}
	return input;
}

export interface FormTexts {
	title: string;
	description: string;
	buttonLabel: string;
	customCss: string;
	attribution: boolean;
}

/** The data n8n's `form-trigger` page is rendered with: the texts, escaped, and the fields. */
export function formPageData(fields: FormField[], texts: FormTexts): IDataObject {
	const description = messageHtml(texts.description);
	return {
		testRun: false,
		formTitle: texts.title,
		formDescription: description,
		formDescriptionMetadata: escapeHtml(texts.description.trim().slice(0, 150)),
		formSubmittedHeader: 'Got it, thanks',
		formSubmittedText: 'This page can be closed now',
		n8nWebsiteLink: 'https://n8n.io/?utm_source=n8n-internal&utm_medium=form-trigger',
		formFields: fields.map(pageField),
		appendAttribution: texts.attribution,
		buttonLabel: texts.buttonLabel,
		dangerousCustomCss: texts.customCss ? sanitizeCss(texts.customCss) : undefined,
	};
}

/** A value as the page posts it, read as its field's kind (n8n's addFormResponseDataToReturnItem). */
function answerOf(field: FormField, value: unknown): unknown {
	const type = field.fieldType ?? 'text';
	if (type === 'number') return value === '' ? null : Number(value);
	if (type === 'text' || type === 'email') return String(value).trim();
	if ((field.multiselect || type === 'checkbox' || type === 'radio') && typeof value === 'string') {
		let read: unknown;
		try {
			read = JSON.parse(value);
		} catch {
			read = value;
		}
		return type === 'radio' && Array.isArray(read) ? read[0] : read;
	}
	return value;
}

/** The name a file field's files are kept under in the item's binary data (with _0, _1… for several). */
const binaryName = (field: FormField) => String(field.fieldLabel).replace(/\W/g, '_');

interface PostedFile {
	filepath: string;
	originalFilename?: string;
	newFilename?: string;
	mimetype?: string;
	size?: number;
}

const isEmpty = (value: unknown) =>
	value === undefined ||
	value === null ||
	value === '' ||
	value === '[]' ||
	(Array.isArray(value) && value.length === 0);

/** The files of a file field: the JSON tells them, the item's binary holds them. */
async function filesOf(
	context: IWebhookFunctions,
	field: FormField,
	posted: PostedFile | PostedFile[],
	binary: Record<string, IBinaryData>,
) {
	const list = Array.isArray(posted) ? posted : [posted];
	const base = binaryName(field);
	for (const [i, file] of list.entries()) {
		const name = file.originalFilename ?? file.newFilename ?? 'file';
		binary[Array.isArray(posted) ? `${base}_${i}` : base] =
			await context.nodeHelpers.copyBinaryFile(file.filepath, name, file.mimetype);
	}
	const described = list.map((file) => ({
		filename: file.originalFilename ?? file.newFilename ?? 'file',
		mimetype: file.mimetype ?? '',
		size: file.size ?? 0,
	}));
	return Array.isArray(posted) ? described : described[0];
}

/**
 * The answer a form page posted, as an output item (`data` holds the fields by name); undefined when the
 * request is not the page's POST or lacks a required answer (nothing is recorded then).
 */
export async function readAnswer(
	context: IWebhookFunctions,
	fields: FormField[],
): Promise<INodeExecutionData | undefined> {
	const body = context.getBodyData() as { data?: IDataObject; files?: Record<string, unknown> };
	if (!body.data || typeof body.data !== 'object') return undefined;
	const data: IDataObject = {};
	const binary: Record<string, IBinaryData> = {};
	for (const [index, field] of fields.entries()) {
		const key = `field-${index}`;
		const posted = body.files?.[key] as PostedFile | PostedFile[] | undefined;
		if (field.fieldType === 'html') {
			if (field.elementName) data[field.elementName] = sanitizeHtml(String(field.html ?? ''));
			continue;
		}
		const raw = body.data[key];
		const value =
			field.fieldType === 'file' && posted
				? await filesOf(context, field, posted, binary)
				: raw === undefined || raw === null
					? null
					: answerOf(field, raw);
		if (field.requiredField && isEmpty(value)) return undefined;
		data[outputName(field)] = (isEmpty(value) ? null : value) as IDataObject[string];
	}
	return Object.keys(binary).length > 0 ? { json: data, binary } : { json: data };
}
