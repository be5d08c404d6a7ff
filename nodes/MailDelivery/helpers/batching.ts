import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestOptions, RetryPolicy } from '../../shared/transport';
import { whatWasSent } from '../../shared/transport/errors';
import { capitalized, describeItems } from './itemNames';
import { RequestPacer } from '../../shared/transport/pacing';
import { errorForItem, errorItem } from './itemErrors';
import { writeResult } from './results';

/** Stable text key of a value, for grouping items whose request-level fields are identical. */
export function groupKey(value: unknown): string {
	return createHash('sha1').update(JSON.stringify(value)).digest('hex');
}

/**
 * Groups entries by key, in input order, and cuts each group into chunks of at most `max`. Entries
 * that share request-level fields travel together; no chunk mixes two groups.
 */
function chunkByKey<T>(entries: T[], keyOf: (entry: T) => string, max: number): T[][] {
	const groups = new Map<string, T[]>();
	for (const entry of entries) {
		const key = keyOf(entry);
		const group = groups.get(key) ?? [];
		group.push(entry);
		groups.set(key, group);
	}
	const chunks: T[][] = [];
	for (const group of groups.values()) {
		for (let start = 0; start < group.length; start += max)
			chunks.push(group.slice(start, start + max));
	}
	return chunks;
}

/** One entry of a batch (a message version, a contact row) and the input item it came from. */
interface BatchEntry {
	itemIndex: number;
}

interface BatchPlan<T extends BatchEntry, Fixed> {
	/** Reads and checks one input item, reading no files; an error fails that item only. */
	prepare: (itemIndex: number) => Promise<T[]>;
	/** Entries with the same key may share a request. */
	keyOf: (entry: T) => string;
	maxPerRequest: number;
	/** Request-level choices made once per chunk and kept when a refused request is split. */
	fix: (chunk: T[]) => Fixed;
	/** Sends one request for the chunk. */
	send: (
		chunk: T[],
		fixed: Fixed,
		options: RequestOptions,
	) => Promise<{ body: IDataObject; answer: IDataObject }>;
	/** True when the platform refused the whole request and processed none of it: then it is split. */
	refusedWhole: (error: unknown) => boolean;
	/**
	 * Finds out, after a failure, which documented condition applies (e.g. with one look-up of the
	 * template list), as a phrase; undefined when it cannot tell. Called only on failure.
	 */
	diagnose?: (chunk: T[], fixed: Fixed, error: NodeApiError) => Promise<string | undefined>;
	/** What entries add to their item's output, e.g. their recipients and what identifies their request. */
	describe: (entries: T[], fixed?: Fixed) => IDataObject;
}

interface BatchOptions {
	/** Requests under way at once, at most; after a 429 the run is also paced to the rate the platform accepts. */
	parallel: number;
	retry: RetryPolicy;
	/** Put the input item's fields before the result in each successful item's output. */
	includeInputFields?: boolean;
}

interface Chunk<T, Fixed> {
	entries: T[];
	fixed: Fixed;
	/** The first request this chunk was part of: halves of a refused request keep it. */
	origin: number;
}

interface ItemResult<T, Fixed> {
	sent: T[];
	failed: T[];
	requests: number[];
	requestSizes: Map<number, number>;
	answer?: IDataObject;
	/** The request-level choices of the request that sent this item's entries. */
	fixed?: Fixed;
	sandbox: boolean;
	error?: unknown;
}

/** "Items 0–2 and 4 were sent; item 3 (the 4th input item) was not sent." */
function sentSummary(sent: number[], notSent: number[]): string {
	const were = (indexes: number[]) => (indexes.length === 1 ? 'was' : 'were');
	const parts: string[] = [];
	if (sent.length > 0) parts.push(`${describeItems(sent)} ${were(sent)} sent`);
	else parts.push('no item was sent');
	if (notSent.length > 0) parts.push(`${describeItems(notSent)} ${were(notSent)} not sent`);
	return `${capitalized(parts.join('; '))}.`;
}

/**
 * Runs a batch operation. Every item is prepared; entries are grouped by key and sent in chunks,
 * several requests at once. A request the platform refused whole is split in halves and sent again
 * until the entries at fault are alone, so every good entry is sent exactly once. Any other failure
 * fails exactly the entries of that request and is never resent. Every input item ends with its
 * result or its own error, paired with it. Without continue-on-fail the refused request is still
 * isolated, no other request starts after a failure, and the error says which items were sent.
 */
export async function runBatched<T extends BatchEntry, Fixed>(
	context: IExecuteFunctions,
	itemCount: number,
	plan: BatchPlan<T, Fixed>,
	options: BatchOptions,
): Promise<INodeExecutionData[]> {
	const continueOnFail = context.continueOnFail();
	const prepareErrors = new Map<number, unknown>();
	const entries: T[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			entries.push(...(await plan.prepare(itemIndex)));
		} catch (error) {
			if (!continueOnFail) throw errorForItem(context, error, itemIndex);
			prepareErrors.set(itemIndex, error);
		}
	}
	const results: Array<ItemResult<T, Fixed>> = Array.from({ length: itemCount }, () => ({
		sent: [],
		failed: [],
		requests: [],
		requestSizes: new Map(),
		sandbox: false,
	}));
	const queue: Array<Chunk<T, Fixed>> = chunkByKey(entries, plan.keyOf, plan.maxPerRequest).map(
		(chunk, origin) => ({ entries: chunk, fixed: plan.fix(chunk), origin }),
	);

	const parallel = Math.max(1, Math.floor(options.parallel));
	let requestNumber = 0;
	/** Without continue-on-fail: the request whose failure stops the run; only its own halves still go. */
	let stoppedBy: number | undefined;
	const pacer = new RequestPacer();
	const record = (
		chunk: Chunk<T, Fixed>,
		number: number,
		outcome: { answer: IDataObject; sandbox: boolean } | { error: unknown },
	) => {
		for (const entry of chunk.entries) {
			const result = results[entry.itemIndex];
			if (!result.requests.includes(number)) result.requests.push(number);
			result.requestSizes.set(number, chunk.entries.length);
			if ('error' in outcome) {
				result.failed.push(entry);
				result.error ??= outcome.error;
			} else {
				result.sent.push(entry);
				result.answer = outcome.answer;
				result.sandbox = outcome.sandbox;
				result.fixed = chunk.fixed;
			}
		}
	};
	/** The error with the condition that applies in its title, when the plan can find it out. */
	const explained = async (chunk: Chunk<T, Fixed>, error: unknown) => {
		if (!(error instanceof NodeApiError) || !plan.diagnose) return error;
		const condition = await plan.diagnose(chunk.entries, chunk.fixed, error).catch(() => undefined);
		if (!condition) return error;
		return new NodeApiError(context.getNode(), (error.errorResponse ?? {}) as JsonObject, {
			message: `${error.message}: ${condition}`,
			description: error.description ?? undefined,
			httpCode: error.httpCode ?? undefined,
		});
	};
	const worker = async () => {
		while (queue.length > 0) {
			const chunk = queue.shift()!;
			if (stoppedBy !== undefined && chunk.origin !== stoppedBy) continue;
			const number = ++requestNumber;
			try {
				const { body, answer } = await plan.send(chunk.entries, chunk.fixed, {
					retry: options.retry,
					pacer,
					itemIndex: chunk.entries[0].itemIndex,
				});
				record(chunk, number, { answer, sandbox: body.sandboxMode === true });
			} catch (error) {
				if (plan.refusedWhole(error) && chunk.entries.length > 1) {
					const half = Math.ceil(chunk.entries.length / 2);
					queue.unshift(
						{ ...chunk, entries: chunk.entries.slice(0, half) },
						{ ...chunk, entries: chunk.entries.slice(half) },
					);
					continue;
				}
				record(chunk, number, { error: await explained(chunk, error) });
				if (!continueOnFail) stoppedBy ??= chunk.origin;
			}
		}
	};
	await Promise.all(
		Array.from({ length: Math.min(parallel, queue.length) }, async () => await worker()),
	);

	const failedItems = results
		.map((result, index) => (result.failed.length > 0 ? index : -1))
		.filter((index) => index >= 0);
	if (!continueOnFail && failedItems.length > 0) {
		const itemIndex = failedItems[0];
		const error = results[itemIndex].error;
		const isSent = (result: ItemResult<T, Fixed>) =>
			result.sent.length > 0 && result.failed.length === 0;
		const sent = results
			.map((result, index) => (isSent(result) ? index : -1))
			.filter((index) => index >= 0);
		const notSent = results
			.map((result, index) => (isSent(result) ? -1 : index))
			.filter((index) => index >= 0);
		const reason = (error as Error).message;
		const own = (error as { description?: string }).description;
		// n8n shows the message as the node's error title: it says what happened to the whole batch.
		throw errorForItem(context, error, itemIndex, {
			message: `${notSent.length} of ${itemCount} items not sent: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
			// With several failures, the one described is the first; with one, it needs no introduction.
			description: [
				sentSummary(sent, notSent),
				failedItems.length > 1
					? `${capitalized(describeItems([itemIndex]))} failed first. ${own ?? ''}`.trim()
					: own,
				whatWasSent(error),
			]
				.filter(Boolean)
				.join('\n'),
		});
	}

	const inputItems = options.includeInputFields ? context.getInputData() : undefined;
	return results.map((result, itemIndex) => {
		if (prepareErrors.has(itemIndex)) return errorItem(prepareErrors.get(itemIndex), itemIndex);
		const requests = result.requests.sort((a, b) => a - b);
		const where: IDataObject = {
			request: requests[0],
			requestSize: result.requestSizes.get(requests[0]),
		};
		if (requests.length > 1) where.requests = requests;
		if (result.failed.length > 0) {
			const partial =
				result.sent.length > 0
					? { sent: plan.describe(result.sent), notSent: plan.describe(result.failed) }
					: {};
			const failure = errorItem(result.error, itemIndex, { ...where, ...partial });
			const details = failure.json.details as IDataObject;
			details.description = [details.description, whatWasSent(result.error)]
				.filter(Boolean)
				.join(' ');
			return failure;
		}
		const json = writeResult({ sandboxMode: result.sandbox }, result.answer ?? {}, {
			...plan.describe(result.sent, result.fixed),
			...where,
		});
		return {
			json: inputItems ? { ...inputItems[itemIndex]?.json, ...json } : json,
			pairedItem: { item: itemIndex },
		};
	});
}
