/** The action node's parameters read as users mean them (nodes/shared/parameterKinds.ts), per item. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readAsMeant } from '../../shared/parameterKinds';
import { inputError } from './validation';

/**
 * The execute context with getNodeParameter reading values by the kinds the operation's description
 * declares; a value that cannot be read so is refused before any request, naming the field and the item.
 * Raw expressions are passed through as they are.
 */
export function readingParametersAsMeant(
	context: IExecuteFunctions,
	properties: INodeProperties[],
): IExecuteFunctions {
	const stored = context.getNode().parameters;
	const getNodeParameter = (
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: { rawExpressions?: boolean },
	) => {
		const value: unknown = context.getNodeParameter(name, itemIndex, fallback, options);
		if (options?.rawExpressions) return value;
		const read = readAsMeant(properties, stored, name, value);
		if ('value' in read) return read.value;
		throw inputError(context.getNode(), read.problem, itemIndex);
	};
	return Object.create(context, {
		getNodeParameter: { value: getNodeParameter },
	}) as IExecuteFunctions;
}
