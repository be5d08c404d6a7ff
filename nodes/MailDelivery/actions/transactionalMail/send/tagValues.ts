/** An item's tag values, as Define Tag Values gives them (tagValueFields.ts): read for each item of a send. */
import type { IDataObject } from 'n8n-workflow';

import { namesOfLocator } from '../../../helpers/locators';
import { jsonParam } from '../../../helpers/requestValues';
import { inputError } from '../../../helpers/validation';
import type { ItemParameters } from '../../../items/parameterReader';

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

/** Whether a stored value holds an expression anywhere (n8n evaluates those for each item). */
const holdsExpression = (value: unknown): boolean =>
	typeof value === 'string'
		? value.startsWith('=')
		: value !== null &&
			typeof value === 'object' &&
			Object.values(value as object).some(holdsExpression);

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
function pairValues(item: ItemParameters): IDataObject {
	const pairs = pairsOf(item.raw(PAIRS, []));
	if (!pairs)
		return valuesByTag(
			item,
			((item.get(PAIRS, []) as IDataObject[]) ?? []).map((pair) => [tagOf(pair.name), pair.value]),
		);
	const read: Array<[string, unknown]> = [];
	for (const { name, value } of pairs)
		read.push([
			'read' in name ? tagOf(item.get(name.read)) : name.tag,
			'read' in value ? item.get(value.read) : value.constant,
		]);
	return valuesByTag(item, read);
}

function valuesByTag(item: ItemParameters, pairs: Array<[string, unknown]>): IDataObject {
	const values: IDataObject = {};
	for (let index = 0; index < pairs.length; index++) {
		const [tag, value] = pairs[index];
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
export function tagValuesOf(item: ItemParameters, input: IDataObject): IDataObject | undefined {
	const mode = item.get('tagValuesMode', 'fields') as string;
	if (mode === 'inputFields' || mode === 'chosenInputFields') {
		const fields = input;
		if (mode === 'inputFields') return hasKeys(fields) ? fields : undefined;
		const chosen = listOfNames(item.get('tagValueFields', '') as string);
		return chosen.length > 0
			? Object.fromEntries(
					chosen.filter((name) => name in fields).map((name) => [name, fields[name]]),
				)
			: undefined;
	}
	if (mode === 'json') return objectParam(item, 'Tag Values (JSON)', item.get('params', '{}'));
	const values = pairValues(item);
	return hasKeys(values) ? values : undefined;
}

/** Whether an object has a key of its own, without listing them all (an item's JSON may have many). */
function hasKeys(object: object): boolean {
	for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return true;
	return false;
}

const listOfNames = (text: string) =>
	text
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);

/** A JSON object parameter: an empty object or none is undefined; anything but an object is refused. */
export function objectParam(
	item: ItemParameters,
	field: string,
	value: unknown,
): IDataObject | undefined {
	const parsed = jsonParam(item, field, value);
	if (parsed === undefined || parsed === null) return undefined;
	if (typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw inputError(
			item.node,
			`Field "${field}" must be a JSON object such as {"name": "Ada"}`,
			item.index,
		);
	}
	return hasKeys(parsed) ? (parsed as IDataObject) : undefined;
}
