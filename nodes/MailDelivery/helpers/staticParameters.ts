import type { IExecuteFunctions } from 'n8n-workflow';

import { storedValue } from '../../shared/parameterKinds';

/** Whether a stored parameter value (defaults included, as n8n keeps them) holds an expression anywhere. */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(holdsExpression);
	return false;
}

/**
 * The execute context of a batch operation, with two changes: a parameter whose stored value holds no
 * expression is read once per execution instead of once per item, and so is the node (n8n copies it
 * deeply at every getNode(), which item checks and errors call). Reading it costs the same whichever
 * the item (n8n 2.x spends ~9 µs per read even without an expression) and a batch reads a dozen
 * parameters per item; n8n's own bulk nodes check the raw parameter in the same way. Values read once
 * and the node are shared by every item: callers treat them as read-only.
 */
export function readingStaticParametersOnce(context: IExecuteFunctions): IExecuteFunctions {
	const node = context.getNode();
	const stored = node.parameters;
	/** Per name: undefined when it holds an expression, else its values read so far by options and fallback. */
	const once = new Map<string, Map<string, unknown> | undefined>();
	/** Stored values read raw (rawExpressions), expressions included: they are the same for every item. */
	const raw = new Map<string, unknown>();
	const getNodeParameter = (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: object,
	) => {
		let values = once.get(name);
		if (!once.has(name)) {
			const value = storedValue(stored, name);
			values = holdsExpression(value) ? undefined : new Map();
			once.set(name, values);
		}
		if (!values) {
			if ((options as { rawExpressions?: boolean } | undefined)?.rawExpressions !== true)
				return context.getNodeParameter(name, itemIndex, fallback, options);
			const key = `${name}\u0000${JSON.stringify(fallback)}`;
			if (!raw.has(key)) raw.set(key, context.getNodeParameter(name, itemIndex, fallback, options));
			return raw.get(key);
		}
		// This runs for every parameter of every item: no key work in the usual call (no options, no object fallback).
		const key =
			options === undefined && (fallback === null || typeof fallback !== 'object')
				? String(fallback)
				: JSON.stringify([fallback, options]);
		if (values.has(key)) return values.get(key);
		const value = context.getNodeParameter(name, itemIndex, fallback, options);
		values.set(key, value);
		return value;
	};
	return Object.create(context, {
		getNodeParameter: { value: getNodeParameter },
		getNode: { value: () => node },
	}) as IExecuteFunctions;
}
