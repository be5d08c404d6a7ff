/**
 * The one reader of the action node's parameters. Operations read through it by name (never through
 * n8n's context), and it reads every value:
 * - as its field's kind (nodes/shared/parameterKinds.ts): "true" from an expression is true, "2" in an
 *   option 2; a value that cannot be read so is refused before any request, naming the field and the item;
 * - once per run when its stored value holds no expression: the value is the same for every item, and
 *   n8n 2.x spends ~9 µs on a read even without an expression, a dozen reads per item in a batch;
 * - from n8n's expression engine otherwise, one evaluation per item.
 * Values read once are shared by every item: callers treat them as read-only.
 */
import type { IExecuteFunctions, INode, INodeParameters, INodeProperties } from 'n8n-workflow';

import { readAsMeant, storedValue } from '../../shared/parameterKinds';
import { inputError } from '../helpers/validation';

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
	/** The stored value with its expressions unevaluated (the same for every item). */
	raw(name: string, fallback?: unknown): unknown;
	/** An expression (without its "=") evaluated for this item. */
	evaluate(expression: string): unknown;
}

/** Whether a stored parameter value (defaults included, as n8n keeps them) holds an expression anywhere. */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(holdsExpression);
	return false;
}

type ReadOptions = { extractValue?: boolean; rawExpressions?: boolean };

export class ParameterReader {
	/** The node, read once: n8n copies it deeply at every getNode(), which item checks and errors call. */
	readonly node: INode;

	private readonly stored: INodeParameters;

	private readonly timezone: string;

	/** Per name: null when it holds an expression, else its values read so far, by fallback and options. */
	private readonly onceValues = new Map<string, Map<string, unknown> | null>();

	/** Stored values read raw, by name and fallback: the same for every item. */
	private readonly rawValues = new Map<string, unknown>();

	constructor(
		private readonly context: IExecuteFunctions,
		/** The operation's fields: their kinds, and their labels in errors. */
		readonly properties: INodeProperties[],
	) {
		this.node = context.getNode();
		this.stored = this.node.parameters;
		this.timezone = context.getTimezone();
	}

	forItem(index: number): ItemParameters {
		return {
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
			evaluate: (expression) => this.context.evaluateExpression(expression, index),
		};
	}

	/** A parameter's value for an item, read as its field's kind. */
	get(name: string, index: number, fallback?: unknown, options?: ReadOptions): unknown {
		const value = this.n8nValue(name, index, fallback, options);
		const read = readAsMeant(this.properties, this.stored, name, value);
		if ('value' in read) return read.value;
		throw inputError(this.node, read.problem, index);
	}

	/** The stored value, expressions unevaluated (n8n's rawExpressions): the same for every item. */
	raw(name: string, index: number, fallback?: unknown): unknown {
		const key = `${name}\u0000${JSON.stringify(fallback)}`;
		if (!this.rawValues.has(key))
			this.rawValues.set(
				key,
				this.context.getNodeParameter(name, index, fallback, { rawExpressions: true }),
			);
		return this.rawValues.get(key);
	}

	/** What n8n's getNodeParameter gives, asked once per run for a value without an expression. */
	private n8nValue(name: string, index: number, fallback?: unknown, options?: ReadOptions) {
		let values = this.onceValues.get(name);
		if (values === undefined) {
			values = holdsExpression(storedValue(this.stored, name)) ? null : new Map();
			this.onceValues.set(name, values);
		}
		if (values === null) return this.context.getNodeParameter(name, index, fallback, options);
		// This runs for every parameter of every item: no key work in the usual call.
		const key =
			options === undefined && (fallback === null || typeof fallback !== 'object')
				? String(fallback)
				: JSON.stringify([fallback, options]);
		if (values.has(key)) return values.get(key);
		const value = this.context.getNodeParameter(name, index, fallback, options);
		values.set(key, value);
		return value;
	}
}
