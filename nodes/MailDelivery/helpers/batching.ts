import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Stable text key of a value, for grouping items whose request-level fields are identical. */
export function groupKey(value: unknown): string {
	return createHash('sha1').update(JSON.stringify(value)).digest('hex');
}

/**
 * Groups entries by key, in input order, and cuts each group into chunks of at most `max`. Entries
 * that share request-level fields travel together; no chunk mixes two groups.
 */
export function chunkByKey<T>(entries: T[], keyOf: (entry: T) => string, max: number): T[][] {
	const groups = new Map<string, T[]>();
	for (const entry of entries) {
		const key = keyOf(entry);
		const group = groups.get(key) ?? [];
		group.push(entry);
		groups.set(key, group);
	}
	const chunks: T[][] = [];
	for (const group of groups.values()) {
		for (let start = 0; start < group.length; start += max) chunks.push(group.slice(start, start + max));
	}
	return chunks;
}

/** The error output of one item, as n8n's continue-on-fail shows it. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const failed = error as NodeApiError & { description?: string };
	const json: IDataObject = { error: failed.message };
	if (failed.description) json.description = failed.description;
	if (failed instanceof NodeApiError && failed.httpCode) json.code = Number(failed.httpCode) || failed.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/** Re-throws `error` for the given item, keeping its kind, so n8n points at the right item. */
export function errorForItem(context: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError) {
		return new NodeApiError(context.getNode(), (error.errorResponse ?? {}) as JsonObject, {
			message: error.message,
			description: error.description ?? undefined,
			httpCode: error.httpCode ?? undefined,
			itemIndex,
		});
	}
	if (error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}
