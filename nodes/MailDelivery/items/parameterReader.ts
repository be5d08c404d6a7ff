/**
 * The one reader of the action node's parameters. Operations read through it by name (never through
 * n8n's context), and it reads every value:
 * - as its field's kind (nodes/shared/parameterKinds.ts): "true" from an expression is true, "2" in an
 *   option 2; a value that cannot be read so is refused before any request, naming the field and the item;
 * - once per run when its stored value holds no expression: the value is the same for every item, and
 *   n8n 2.x spends ~9 µs on a read even without an expression, a dozen reads per item in a batch;
 * - straight from the item when its expressions only reference the item's fields ({{ $json.email }}, text
 *   around allowed: itemReferences.ts), with exactly n8n's result: n8n 2.x spends ~0.4 ms per expression
 *   and item in its engine, which made a 10,000-item send built by dragging fields 13 times slower;
 * - from n8n's expression engine otherwise, one evaluation per item, counted for the run's hint.
 * Values read once are shared by every item: callers treat them as read-only.
 */
import type {
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';

import { asIs, meaningAt, storedValue } from '../../shared/parameterKinds';
import { inputError } from './itemErrors';
import { taggedValue } from './taggedValues';
import {
	compileItemReading,
	compileStoredValue,
	readFromItem,
	type StoredReading,
	UNPROVABLE,
} from './itemReferences';

/** One item's parameters: what operations read. */
export interface ItemParameters {
	/** The input item's index. */
	readonly index: number;
	/** The node, for errors (read once per run). */
	readonly node: INode;
	/** The workflow's time zone, in which dates without one are read. */
	readonly timezone: string;
	/** A parameter's value for this item, read as its field's kind; `fallback` when the node holds none. */
	get<T = unknown>(name: string, fallback?: T): T;
	/** The value a resource locator holds (its `value`), as n8n extracts it. */
	extracted(name: string): unknown;
	/** A resource locator's name, trimmed (or a typed name from an older workflow). */
	locator(name: string): string;
	/**
	 * A field the platform reads its tags ({{name}}) in: the tags kept as they are, n8n's expressions evaluated
	 * for the item (taggedValues.ts). `label` names the field in errors.
	 */
	tagged(name: string, label: string, fallback?: unknown): unknown;
	/** The stored value with its expressions unevaluated (the same for every item). */
	raw(name: string, fallback?: unknown): unknown;
	/** An expression (without its "=") evaluated for this item; `name` is the field it comes from. */
	evaluate(expression: string, name: string): unknown;
	/**
	 * What `read` makes of the item: made once for the run, and shared read-only by every item, when none of
	 * the fields it read for the first item holds an expression (then it is the same for every item: the fields
	 * that chose what it read are among them); made for each item otherwise. `read` reads only the node's
	 * fields, never the input item's data. One that throws is made again for each item, so that each error
	 * names its own item.
	 */
	once<T>(read: (item: ItemParameters) => T): T;
}

/** Whether a stored parameter value (defaults included, as n8n keeps them) holds an expression anywhere. */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(holdsExpression);
	return false;
}

type ReadOptions = { extractValue?: boolean; rawExpressions?: boolean };

/** What n8n gives, read raw, for a parameter the node does not hold, when asked with it as the fallback. */
const NOT_HELD = Symbol('not held');

/**
 * How a parameter's value is read: once per run (the value n8n gives and the value as meant, by fallback and
 * options), from each item, or by n8n for each item; `meaning` reads a value as its field's kind.
 */
type Reading = { meaning: ReturnType<typeof meaningAt> } & (
	| { kind: 'once'; values: Map<string, unknown>; meant: Map<string, unknown> }
	| { kind: 'item'; read: StoredReading }
	| { kind: 'n8n' }
);

/** A resource locator's value as n8n extracts it: none of this node's locator modes has an extractValue rule. */
const extractedValue = (value: unknown) =>
	value !== null && typeof value === 'object' && 'mode' in value && 'value' in value
		? (value as { value: unknown }).value
		: value;

/** n8n validates a field with validateType after evaluating it: such fields are left to n8n whole. */
const validatesType = (properties: INodeProperties[]): boolean =>
	properties.some(
		(property) =>
			property.validateType !== undefined ||
			(Array.isArray(property.options) &&
				property.options.some(
					(option) =>
						('values' in option && validatesType(option.values)) ||
						('type' in option && validatesType([option as INodeProperties])),
				)),
	);

/** A value read once is kept by its fallback and options. This runs for every parameter of every item: no key work in the usual call. */
const onceKey = (fallback: unknown, options: ReadOptions | undefined) =>
	options === undefined && (fallback === null || typeof fallback !== 'object')
		? String(fallback)
		: JSON.stringify([fallback, options]);

export class ParameterReader {
	/** The node, read once: n8n copies it deeply at every getNode(), which item checks and errors call. */
	readonly node: INode;

	private readonly stored: INodeParameters;

	private readonly timezone: string;

	/** The input items, whose JSON `$json` reads. */
	private readonly inputs: INodeExecutionData[];

	/** Per name, how its value is read. */
	private readonly readings = new Map<string, Reading>();

	/** Expressions evaluated for platform tags, compiled: null when n8n must evaluate them. */
	private readonly expressions = new Map<string, ReturnType<typeof compileItemReading> | null>();

	/** Whether values that only reference the item are read from it (no field validates its type). */
	private readonly fromItems: boolean;

	/** Per field name, the items for which n8n evaluated its expression: the run's hint names the slow ones. */
	readonly evaluatedByN8n = new Map<string, number>();

	/** What ItemParameters.once made, by its reading: kept when the fields it read hold no expression. */
	private readonly readOnce = new Map<
		(item: ItemParameters) => unknown,
		{ value: unknown } | 'perItem'
	>();

	/** The fields read while a reading of ItemParameters.once runs for the first time. */
	private fieldsRead: Set<string> | undefined;

	/** Stored values read raw, by name (NOT_HELD where the node holds none): the same for every item. */
	private readonly rawValues = new Map<string, unknown>();

	constructor(
		private readonly context: IExecuteFunctions,
		/** The operation's fields: their kinds, and their labels in errors. */
		readonly properties: INodeProperties[],
	) {
		this.node = context.getNode();
		this.stored = this.node.parameters;
		this.timezone = context.getTimezone();
		this.inputs = context.getInputData();
		this.fromItems = !validatesType(properties);
	}

	forItem(index: number): ItemParameters {
		const item: ItemParameters = {
			index,
			node: this.node,
			timezone: this.timezone,
			get: <T>(name: string, fallback?: T) => this.get(name, index, fallback) as T,
			extracted: (name) => this.get(name, index, '', { extractValue: true }),
			locator: (name) => {
				const value = this.get(name, index, '', { extractValue: true });
				return typeof value === 'string' ? value.trim() : String(value ?? '').trim();
			},
			raw: (name, fallback) => this.raw(name, index, fallback),
			evaluate: (expression, name) => this.evaluate(expression, index, name),
			tagged: (name, label, fallback) => taggedValue(item, name, label, fallback),
			once: (read) => this.once(read, item),
		};
		return item;
	}

	private once<T>(read: (item: ItemParameters) => T, item: ItemParameters): T {
		const kept = this.readOnce.get(read);
		if (kept === 'perItem') return read(item);
		if (kept) return kept.value as T;
		const outer = this.fieldsRead;
		const fields = (this.fieldsRead = new Set());
		let value: T;
		try {
			value = read(item);
		} finally {
			this.fieldsRead = outer;
			for (const name of fields) outer?.add(name);
		}
		const constant = [...fields].every((name) => this.readingOf(name).kind === 'once');
		this.readOnce.set(read, constant ? { value } : 'perItem');
		return value;
	}

	/** A parameter's value for an item, read as its field's kind (a value read once is meant once). */
	get(name: string, index: number, fallback?: unknown, options?: ReadOptions): unknown {
		this.fieldsRead?.add(name);
		const reading = this.readingOf(name);
		if (reading.kind !== 'once')
			return this.meant(reading, this.n8nValue(reading, name, index, fallback, options), index);
		const key = onceKey(fallback, options);
		const known = reading.meant.get(key);
		if (known !== undefined || reading.meant.has(key)) return known;
		const value = this.meant(
			reading,
			this.n8nValue(reading, name, index, fallback, options),
			index,
		);
		reading.meant.set(key, value);
		return value;
	}

	/** A value as its field's kind means it, or the item's error. */
	private meant(reading: Reading, value: unknown, index: number): unknown {
		if (reading.meaning === asIs) return value;
		const read = reading.meaning(value);
		if (!('value' in read)) throw inputError(this.node, read.problem, index);
		return read.value;
	}

	/**
	 * The stored value, expressions unevaluated (n8n's rawExpressions): the same for every item, asked of n8n
	 * once. Where the node holds none, n8n gives the fallback (or refuses, without one).
	 */
	raw(name: string, index: number, fallback?: unknown): unknown {
		this.fieldsRead?.add(name);
		let stored = this.rawValues.get(name);
		if (stored === undefined) {
			stored = this.context.getNodeParameter(name, index, NOT_HELD, { rawExpressions: true });
			this.rawValues.set(name, stored);
		}
		if (stored !== NOT_HELD) return stored;
		return fallback === undefined
			? this.context.getNodeParameter(name, index, fallback, { rawExpressions: true })
			: fallback;
	}

	/** An expression for an item: from the item when it only references it, else by n8n. */
	evaluate(expression: string, index: number, name: string): unknown {
		let reading = this.expressions.get(expression);
		if (reading === undefined) {
			reading = (this.fromItems && compileItemReading(expression)) || null;
			this.expressions.set(expression, reading);
		}
		const read = reading && readFromItem(reading, this.inputs[index]?.json ?? {});
		if (read) return read.value;
		this.countEvaluation(name);
		return this.context.evaluateExpression(expression, index);
	}

	private readingOf(name: string): Reading {
		let reading = this.readings.get(name);
		if (reading) return reading;
		const stored = storedValue(this.stored, name);
		const meaning = meaningAt(this.properties, this.stored, name);
		if (!holdsExpression(stored))
			reading = { kind: 'once', values: new Map(), meant: new Map(), meaning };
		else {
			const read = this.fromItems ? compileStoredValue(stored) : undefined;
			reading = read ? { kind: 'item', read, meaning } : { kind: 'n8n', meaning };
		}
		this.readings.set(name, reading);
		return reading;
	}

	private countEvaluation(name: string) {
		this.evaluatedByN8n.set(name, (this.evaluatedByN8n.get(name) ?? 0) + 1);
	}

	/** What n8n's getNodeParameter gives (or, read from the item, would give) for this item. */
	private n8nValue(
		reading: Reading,
		name: string,
		index: number,
		fallback?: unknown,
		options?: ReadOptions,
	) {
		if (reading.kind === 'item') {
			const value = reading.read(this.inputs[index]?.json ?? {});
			if (value !== UNPROVABLE) return options?.extractValue ? extractedValue(value) : value;
		}
		if (reading.kind !== 'once') {
			this.countEvaluation(name);
			return this.context.getNodeParameter(name, index, fallback, options);
		}
		const key = onceKey(fallback, options);
		if (reading.values.has(key)) return reading.values.get(key);
		const value = this.context.getNodeParameter(name, index, fallback, options);
		reading.values.set(key, value);
		return value;
	}
}
