/**
 * The fields of a transactional send, read for one input item: every field the send panel shows, read once, as
 * plain values (actions/transactionalMail/send/readItem.ts turns them into the item's messages). Fields the
 * platform reads tags in keep their tags (taggedValues.ts); nothing here checks what a value means.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { hasKeys, textOrDigits } from '../../shared/parameterKinds';
import { type AttachmentReference, attachmentReference } from './attachments';
import { inputError } from './itemErrors';
import { namesOfLocator } from './locators';
import { holdsExpression, type ItemParameters } from './parameterReader';

/** The fields that shape the request: the same for every item when none holds an expression. */
export interface SendRequestFields {
	/** Messages From: one message per item (`perItem`), or versions defined in the node. */
	perItem: boolean;
	/** Recipients From (one message per item): `to`, or `inputField`. */
	recipientSource: string;
	/** Versions given as `fields` or `json` (versions defined in the node). */
	versionsMode: string;
	/** `template`, `html` or `text`. */
	contentSource: string;
	templateName?: string;
	/** HTML Content, or Text Content as written (HTML is made of it later), tags kept. */
	content?: unknown;
	subject: unknown;
	senderMail: string;
	/** Additional Fields, as n8n gives the collection. */
	additional: IDataObject;
	options: IDataObject;
	sandboxMode: boolean;
	/** The workflow's time zone, in which a Send Date without one is read. */
	timezone: string;
}

/** Tag Values as given: name/value pairs or input fields (by tag), or one JSON object not yet read. */
type TagValuesField = { byTag: IDataObject | undefined } | { json: unknown };

/** An item's send fields. */
export interface SendFields {
	request: SendRequestFields;
	tagValues: TagValuesField;
	/** To (one message per item): the field's value, or the address and name from the item's own fields. */
	to?: unknown;
	/** Message Versions as given: JSON (tags kept), or each version's fields. */
	versions?: { json: unknown } | { fields: IDataObject[] };
	attachment?: AttachmentReference;
}

/** Read by ItemParameters.once: made once for the run when none of these fields holds an expression. */
function readRequestFields(item: ItemParameters): SendRequestFields {
	const additional = item.get<IDataObject>('additionalFields', {});
	const options = item.get<IDataObject>('options', {});
	const perItem = item.get<string>('messageSource', 'perItem') === 'perItem';
	const recipientSource = perItem ? item.get<string>('recipientSource', 'to') : '';
	const versionsMode = perItem ? '' : item.get<string>('versionsMode', 'fields');
	const contentSource = item.get<string>('contentSource', 'template');
	const request: SendRequestFields = {
		perItem,
		recipientSource,
		versionsMode,
		contentSource,
		subject: undefined,
		senderMail: '',
		additional,
		options,
		sandboxMode: false,
		timezone: item.timezone,
	};
	if (contentSource === 'template') request.templateName = item.locator('templateName');
	else if (contentSource === 'text') request.content = item.tagged('textContent', 'Text Content');
	else request.content = item.tagged('content', 'HTML Content');
	request.subject = item.tagged('subject', 'Subject');
	request.senderMail = item.locator('senderMail');
	request.sandboxMode = item.get<boolean>('sandboxMode', false) === true;
	return request;
}

/**
 * The template the item's content names above any versions: undefined for HTML or text, or when the two fields
 * cannot be read (reading the item then says why). Only these two are read, so that no other field's
 * expression is evaluated one time more.
 */
export function templateNameOf(item: ItemParameters): string | undefined {
	try {
		if (item.get<string>('contentSource', 'template') !== 'template') return undefined;
		return item.locator('templateName') || undefined;
	} catch {
		return undefined;
	}
}

/** Tag Values → Tag Value as the node stores it: a list of name/value pairs. */
const PAIRS = 'tagValues.values';

/**
 * One stored pair of Tag Values, as a run reads it: each part either read for each item at its path (it holds
 * an expression) or known once, the name then as the tag it names.
 */
interface StoredPair {
	name: { read: string } | { tag: string };
	value: { read: string } | { constant: unknown };
}

/** The tag a pair's name gives: the picked or typed name, or the first of a list an expression gave. */
const tagOf = (name: unknown) => namesOfLocator(name)[0] ?? '';

/**
 * The stored pairs, worked out once per stored list (n8n gives every item of a run the same stored object):
 * undefined when the list itself is not plain pairs (an expression giving the whole list), which is then read
 * whole for each item. Reading only what holds an expression spares each item a copy of the whole collection.
 */
const storedPairs = new WeakMap<object, StoredPair[] | undefined>();

function pairsOf(stored: unknown): StoredPair[] | undefined {
	if (!Array.isArray(stored)) return undefined;
	if (storedPairs.has(stored)) return storedPairs.get(stored);
	const plain = stored.every(
		(pair) => pair !== null && typeof pair === 'object' && !Array.isArray(pair),
	);
	const pairs = plain
		? (stored as IDataObject[]).map(({ name, value }, index): StoredPair => ({
				name: holdsExpression(name) ? { read: `${PAIRS}[${index}].name` } : { tag: tagOf(name) },
				value: holdsExpression(value) ? { read: `${PAIRS}[${index}].value` } : { constant: value },
			}))
		: undefined;
	storedPairs.set(stored, pairs);
	return pairs;
}

/**
 * The values of Tag Values' pairs for the item, by tag, as n8n gives the whole collection: each part that
 * holds an expression read for the item in the stored order (the first part n8n cannot read is the one its
 * error names), the others known once; then a pair without a name fails the item.
 */
function pairValues(item: ItemParameters): IDataObject | undefined {
	const pairs = pairsOf(item.raw(PAIRS, []));
	const read: Array<[string, unknown]> = pairs
		? pairs.map(({ name, value }) => [
				'read' in name ? tagOf(item.get(name.read)) : name.tag,
				'read' in value ? item.get(value.read) : value.constant,
			])
		: ((item.get(PAIRS, []) as IDataObject[]) ?? []).map((pair) => [tagOf(pair.name), pair.value]);
	if (read.length === 0) return undefined;
	const values: IDataObject = {};
	for (let index = 0; index < read.length; index++) {
		const [tag, value] = read[index];
		if (!tag)
			throw inputError(
				item.node,
				`Field "Tag Values": tag value ${index + 1} has no name`,
				item.index,
			);
		values[tag] = value as IDataObject[string];
	}
	return values;
}

/** The item's tag values: from its input fields, name/value pairs, or one JSON object. */
function tagValuesOf(item: ItemParameters, json: IDataObject): TagValuesField {
	const mode = item.get('tagValuesMode', 'fields') as string;
	if (mode === 'inputFields') return { byTag: hasKeys(json) ? json : undefined };
	if (mode === 'chosenInputFields') {
		const chosen = (item.get('tagValueFields', '') as string)
			.split(',')
			.map((name) => name.trim())
			.filter((name) => name !== '' && name in json);
		return {
			byTag:
				chosen.length > 0
					? Object.fromEntries(chosen.map((name) => [name, json[name]]))
					: undefined,
		};
	}
	if (mode === 'json') return { json: item.get('params', '{}') };
	return { byTag: pairValues(item) };
}

/** The item's To from its own fields (Recipients From: An Input Field): the address, or address and name. */
function recipientFromFields(item: ItemParameters, json: IDataObject): unknown {
	const emailField = String(item.get('recipientField', 'email')).trim();
	const nameField = String(item.get('recipientNameField', '')).trim();
	const address = json[emailField];
	if (address === undefined || address === null || address === '') {
		throw inputError(
			item.node,
			`Field "Email Field": the input item has no value in its field "${emailField}"`,
			item.index,
		);
	}
	const name = nameField ? json[nameField] : undefined;
	if (name === undefined || name === null || name === '') return address;
	// A name that is a whole number (a customer number) is its digits; the Name Field is named otherwise.
	const read = textOrDigits(name);
	if ('problem' in read)
		throw inputError(
			item.node,
			`Field "Name Field": the input item's field "${nameField}" ${read.problem}`,
			item.index,
		);
	return [{ email: String(address).trim(), name: read.value }];
}

/** The versions given in Message Versions' fields, each field read for the item; a subject keeps its tags. */
function versionFields(item: ItemParameters): IDataObject[] {
	const path = 'messageVersionsUi.versions';
	const stored = (item.raw(path, []) ?? []) as IDataObject[];
	return stored.map((version, index) => {
		const read: IDataObject = {};
		for (const key of Object.keys(version ?? {})) {
			const field = `${path}[${index}].${key}`;
			if (key === 'subject') read[key] = item.tagged(field, 'Subject (message version)') as string;
			else if (key === 'templateName') read[key] = namesOfLocator(item.get(field))[0];
			else read[key] = item.get<IDataObject[string]>(field);
		}
		return read;
	});
}

/** Reads an item's send fields, in the order a reader of the panel meets them. */
export function readSendFields(
	item: ItemParameters,
	input: INodeExecutionData | undefined,
): SendFields {
	const json = input?.json ?? {};
	const tagValues = tagValuesOf(item, json);
	const request = item.once(readRequestFields);
	const fields: SendFields = { request, tagValues };
	if (request.perItem)
		fields.to =
			request.recipientSource === 'inputField'
				? recipientFromFields(item, json)
				: item.get('to', '');
	else if (request.versionsMode === 'fields') fields.versions = { fields: versionFields(item) };
	else
		fields.versions = {
			json: item.tagged('messageVersionsJson', 'Message Versions (JSON)'),
		};
	fields.attachment = attachmentReference(
		item,
		input,
		String(request.additional.attachmentBinaryProperty ?? ''),
	);
	return fields;
}
