/**
 * Parameter values that only read the current item's fields ({{ $json.email }}, or such references with
 * text around them) are read here straight from the item: n8n 2.x spends about 0.4 ms per expression and
 * item in its expression engine, this costs microseconds. The value is exactly the one n8n's
 * getNodeParameter gives (type and value), on both n8n lines and with every engine n8n offers; whatever
 * cannot be proved to give that value is left to n8n: the text, at compile time, or one item's values, at
 * read time. test/workflows/item-references.test.cts compares the two on a corpus through n8n's engines.
 */
import type { IDataObject } from 'n8n-workflow';
import { isSafeObjectProperty } from 'n8n-workflow';

import { templateChunks } from './templateChunks';

/** A path into the item's JSON: names, and indexes of arrays. */
type ItemPath = ReadonlyArray<string | number>;

/** A stored parameter value, compiled: literal text and paths into the item, in order. */
interface ItemReading {
	readonly parts: ReadonlyArray<string | ItemPath>;
	/**
	 * The text is one {{ block }} and nothing else: n8n gives the referenced value itself (a number stays a
	 * number). Otherwise n8n gives text: the parts joined, a missing or empty value as nothing.
	 */
	readonly whole: boolean;
}

/**
 * The reading of an expression, as n8n stores it without its leading "=", or undefined when the text is not
 * provably only literal text and references to the current item's fields: then n8n evaluates it.
 */
export function compileItemReading(expression: string): ItemReading | undefined {
	// n8n refuses any expression matching this, literal text included (Expression.resolveSimpleParameterValue).
	if (/\.\s*constructor/m.test(expression)) return undefined;
	// The names n8n refuses come from the running n8n; one too old to say leaves everything to n8n.
	if (typeof isSafeObjectProperty !== 'function') return undefined;
	if (!crossesEveryEngine(expression)) return undefined;
	// n8n-workflow's own splitter (which decides whether methods like .toUpperCase() are rewritten) reads
	// backslashes unlike @n8n/tournament's; without a parenthesis nothing can be rewritten.
	if (expression.includes('\\') && expression.includes('(')) return undefined;
	const chunks = templateChunks(expression);
	// An escaped "{{" at the very end leaves n8n with nothing to evaluate.
	if (chunks.length === 0) return undefined;
	const parts: Array<string | ItemPath> = [];
	for (const chunk of chunks) {
		if (chunk.type === 'text') {
			if (chunk.text !== '') parts.push(chunk.text);
			continue;
		}
		if (!chunk.closed) return undefined;
		const path = referencePath(chunk.code);
		if (!path) return undefined;
		parts.push(path);
	}
	const whole = chunks.length === 2 && chunks[0].type === 'text' && chunks[0].text === '';
	return { parts, whole };
}

/**
 * The value n8n's getNodeParameter gives for this item, or undefined when this item's values make it
 * unprovable (an object, a field inherited from Object.prototype, a missing or non-object step on the
 * way, a getter): then ask n8n for this item. Never an object: nothing returned is shared with the item.
 */
export function readFromItem(
	reading: ItemReading,
	json: IDataObject,
): { value: unknown } | undefined {
	const value = valueFromItem(reading, json);
	return value === UNPROVABLE ? undefined : { value };
}

/** readFromItem's value, or UNPROVABLE: no wrapper object per value, for the readings made per item. */
function valueFromItem(reading: ItemReading, json: IDataObject): unknown {
	if (reading.whole) return valueAt(json, reading.parts[0] as ItemPath);
	let text = '';
	for (const part of reading.parts) {
		if (typeof part === 'string') {
			text += part;
			continue;
		}
		const value = valueAt(json, part);
		if (value === UNPROVABLE) return UNPROVABLE;
		// n8n's template keeps a value when `v || v === 0 || v === false`, else '', then joins.
		if (value || value === 0 || value === false) text += String(value);
	}
	return text;
}

/** What a reading gives for an item whose values make n8n's result unprovable: n8n reads it then. */
export const UNPROVABLE = Symbol('unprovable');

/** A field name written after a dot: an identifier without "$" (n8n checks "$" on its own terms). */
const NAME = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;
/** What a block holds: $json, then .name, ["name"], ['name'] or [index] steps, with spaces around. */
const STEP =
	/\.([^.[\s]+)|\[(?:"((?:[^"\\\n\r\u2028\u2029]|\\["'\\])*)"|'((?:[^'\\\n\r\u2028\u2029]|\\["'\\])*)'|(0|[1-9]\d{0,8}))\]/y;

/** The path a block's code reads, or undefined when it is anything but a plain reference to $json. */
function referencePath(code: string): ItemPath | undefined {
	const reference = code.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
	if (!reference.startsWith('$json')) return undefined;
	const path: Array<string | number> = [];
	STEP.lastIndex = '$json'.length;
	while (STEP.lastIndex < reference.length) {
		const step = STEP.exec(reference);
		if (!step) return undefined;
		const [, name, doubleQuoted, singleQuoted, index] = step;
		// n8n's sandbox rewrites the name globalThis even after a dot, then refuses what it made.
		if (name !== undefined && (!NAME.test(name) || name === 'globalThis')) return undefined;
		const key =
			index !== undefined ? Number(index) : (name ?? unescape(doubleQuoted ?? singleQuoted));
		// n8n refuses these names; those of Object.prototype read n8n's own objects, engine by engine.
		if (typeof key === 'string' && (!isSafeObjectProperty(key) || key in Object.prototype))
			return undefined;
		path.push(key);
	}
	return path.length > 0 ? path : undefined;
}

/**
 * Whether a text reaches the result unchanged with every engine: n8n's quickjs engine passes texts as
 * UTF-8 C strings, which end at a NUL and turn a lone surrogate into replacement characters.
 */
function crossesEveryEngine(text: string): boolean {
	if (!/[\0\ud800-\udfff]/.test(text)) return true;
	return !/\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

const unescape = (quoted: string) => quoted.replace(/\\(.)/g, '$1');

/** The value at the path, undefined for a missing last step, or UNPROVABLE. */
function valueAt(json: unknown, path: ItemPath): unknown {
	let current = json;
	for (const key of path) {
		if (current === null || typeof current !== 'object') return UNPROVABLE;
		if (Array.isArray(current)) {
			if (typeof key !== 'number') return UNPROVABLE;
		} else {
			const prototype = Object.getPrototypeOf(current) as unknown;
			if (prototype !== Object.prototype && prototype !== null) return UNPROVABLE;
		}
		const field = Object.getOwnPropertyDescriptor(current, key);
		if (field === undefined) {
			if (String(key) in current) return UNPROVABLE;
			current = undefined;
		} else if (!('value' in field)) return UNPROVABLE;
		else current = field.value as unknown;
	}
	switch (typeof current) {
		case 'string':
			return crossesEveryEngine(current) ? current : UNPROVABLE;
		case 'number':
		case 'boolean':
		case 'undefined':
			return current;
		default:
			return current === null ? null : UNPROVABLE;
	}
}

/** A stored parameter value compiled for reading from items: its value for one item, or UNPROVABLE. */
export type StoredReading = (json: IDataObject) => unknown;

/**
 * A stored parameter value (a text, or a collection holding texts, as n8n stores it) whose every expression
 * only references the item: read from the item as n8n's getNodeParameter would give it, a new object at every
 * level as n8n makes one; undefined when one of its expressions is not such a reference. Items whose values
 * make an expression unprovable are left to n8n (the reading answers UNPROVABLE for them, without a wrapper
 * per value: a send reads values of every item).
 */
export function compileStoredValue(stored: unknown): StoredReading | undefined {
	return compileValue(stored);
}

/** A stored value's reading for one item: its value, or UNPROVABLE. */
type CompiledValue = (json: IDataObject) => unknown;

// Read once per item and field: values are passed up without a wrapper per level, and each level's keys and
// readings sit in arrays walked by index (100,000 items read a collection of tag pairs 100,000 times).
function compileValue(stored: unknown): CompiledValue | undefined {
	if (typeof stored === 'string') {
		if (!stored.startsWith('=')) return () => stored;
		const reading = compileItemReading(stored.slice(1));
		return reading && ((json) => valueFromItem(reading, json));
	}
	if (stored === null || typeof stored !== 'object') return () => stored;
	const keys = Object.keys(stored);
	const readings: CompiledValue[] = [];
	for (const key of keys) {
		const reading = compileValue((stored as Record<string, unknown>)[key]);
		if (!reading) return undefined;
		readings.push(reading);
	}
	if (Array.isArray(stored))
		return (json) => {
			const list: unknown[] = [];
			for (let index = 0; index < readings.length; index++) {
				const value = readings[index](json);
				if (value === UNPROVABLE) return UNPROVABLE;
				list.push(value);
			}
			return list;
		};
	return (json) => {
		const object: Record<string, unknown> = {};
		for (let index = 0; index < readings.length; index++) {
			const value = readings[index](json);
			if (value === UNPROVABLE) return UNPROVABLE;
			object[keys[index]] = value;
		}
		return object;
	};
}
