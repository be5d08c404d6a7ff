import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { writeResult } from '../actions/common';

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

/** One entry of a batch (a message version, a contact row) and the input item it came from. */
export interface BatchEntry {
	itemIndex: number;
}

export interface BatchPlan<T extends BatchEntry> {
	/** Reads and checks one input item; an error fails that item only (with continue-on-fail). */
	prepare: (itemIndex: number) => Promise<T[]>;
	/** Entries with the same key may share a request. */
	keyOf: (entry: T) => string;
	maxPerRequest: number;
	/** Sends one request for the chunk. */
	send: (chunk: T[], firstItemIndex: number) => Promise<{ body: IDataObject; answer: IDataObject }>;
	/** What an entry adds to its item's output; `previous` is the item's output so far. */
	output: (entry: T, request: { number: number; size: number }, previous?: IDataObject) => IDataObject;
}

/**
 * Runs a batch operation: every item is prepared, entries are grouped by key and sent in chunks, and
 * every input item ends with its result or its error, paired with it. A failed request fails exactly
 * the items it carried.
 */
export async function runBatched<T extends BatchEntry>(
	context: IExecuteFunctions,
	itemCount: number,
	plan: BatchPlan<T>,
): Promise<INodeExecutionData[]> {
	const outputs: INodeExecutionData[][] = Array.from({ length: itemCount }, () => []);
	const failed = new Set<number>();
	const entries: T[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			entries.push(...(await plan.prepare(itemIndex)));
		} catch (error) {
			if (!context.continueOnFail()) throw errorForItem(context, error, itemIndex);
			failed.add(itemIndex);
			outputs[itemIndex] = [errorItem(error, itemIndex)];
		}
	}
	const chunks = chunkByKey(entries, plan.keyOf, plan.maxPerRequest);
	for (const [index, chunk] of chunks.entries()) {
		const itemsInChunk = [...new Set(chunk.map((entry) => entry.itemIndex))];
		try {
			const { body, answer } = await plan.send(chunk, itemsInChunk[0]);
			for (const entry of chunk) {
				if (failed.has(entry.itemIndex)) continue;
				const extra = plan.output(entry, { number: index + 1, size: chunk.length }, outputs[entry.itemIndex][0]?.json);
				outputs[entry.itemIndex] = [{ json: writeResult(body, answer, extra), pairedItem: { item: entry.itemIndex } }];
			}
		} catch (error) {
			if (!context.continueOnFail()) throw errorForItem(context, error, itemsInChunk[0]);
			for (const itemIndex of itemsInChunk) {
				failed.add(itemIndex);
				outputs[itemIndex] = [errorItem(error, itemIndex)];
			}
		}
	}
	return outputs.flat();
}
