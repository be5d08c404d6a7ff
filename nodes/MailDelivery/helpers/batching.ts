import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestOptions, RetryPolicy } from '../../shared/transport';
import { mayHaveBeenProcessed, whatWasSent } from '../../shared/transport/errors';
import { asSentence, capitalized, describeItems } from './itemNames';
import { RequestPacer } from '../../shared/transport/pacing';
import { errorForItem, errorItem } from './itemErrors';
import { writeResult } from './results';
import { earlierFailure, SentLedger } from './sentLedger';

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
	/**
	 * The part of the request-level choices an output item needs, kept for a retry of the node
	 * (it is saved with a failed execution, so it leaves out what is large, such as HTML).
	 */
	remember: (fixed: Fixed) => Fixed;
	/** Sends one request for the chunk. */
	send: (
		chunk: T[],
		fixed: Fixed,
		options: RequestOptions,
	) => Promise<{ body: IDataObject; answer: IDataObject }>;
	/** True when the platform refused the whole request and processed none of it: then it is split. */
	refusedWhole: (error: unknown) => boolean;
	/**
	 * Called when both halves of a refused request were refused word for word like it: when no entry
	 * of these can cause that refusal on its own, a phrase naming what the entries share (the cause);
	 * undefined when an entry could, and the halves are split further.
	 */
	sharedCause?: (entries: T[], fixed: Fixed, error: NodeApiError) => string | undefined;
	/**
	 * Finds out, after a failure, which documented condition applies (e.g. with one look-up of the
	 * template list), as a phrase; undefined when it cannot tell. Called only on failure.
	 */
	diagnose?: (chunk: T[], fixed: Fixed, error: NodeApiError) => Promise<string | undefined>;
	/** What entries add to their item's output, e.g. their recipients and what identifies their request. */
	describe: (entries: T[], fixed?: Fixed) => IDataObject;
	/** What a request would have done, for a failure after which it may have ("mail may have gone out"). */
	effect: string;
}

interface BatchOptions {
	/** Requests under way at once, at most; after a 429 the run is also paced to the rate the platform accepts. */
	parallel: number;
	retry: RetryPolicy;
	/** How long each request waits for an answer. */
	timeoutMs?: number;
	/** Put the input item's fields before the result in each successful item's output. */
	includeInputFields?: boolean;
}

/** A refused request cut in halves: the halves' answers say whether the cause is what they share. */
interface Split<T, Fixed> {
	error: NodeApiError;
	/** Halves not answered yet. */
	pending: number;
	/** Halves refused word for word like the whole, waiting for the other half's answer. */
	alike: Array<{ chunk: Chunk<T, Fixed>; number: number; error: NodeApiError }>;
}

interface Chunk<T, Fixed> {
	entries: T[];
	fixed: Fixed;
	/** The first request this chunk was part of: halves of a refused request keep it. */
	origin: number;
	/** The refused request this chunk is a half of. */
	parent?: Split<T, Fixed>;
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
	/** A failed entry's request may have reached the platform: its mail may have gone out. */
	uncertain: boolean;
	/** Entries an earlier try of this run sent (or may have): not sent again. */
	earlier: { sent: boolean; failed: boolean };
}

const were = (indexes: number[]) => (indexes.length === 1 ? 'was' : 'were');
const indexesWhere = <R>(results: R[], test: (result: R) => boolean) =>
	results.map((result, index) => (test(result) ? index : -1)).filter((index) => index >= 0);

/** "Items 0–2 and 4 were sent; item 3 may have been sent; item 5 was not sent." */
function sentSummary(sent: number[], uncertain: number[], notSent: number[]): string {
	const parts: string[] = [];
	if (sent.length > 0) parts.push(`${describeItems(sent)} ${were(sent)} sent`);
	if (uncertain.length > 0) parts.push(`${describeItems(uncertain)} may have been sent`);
	if (parts.length === 0) parts.push('no item was sent');
	if (notSent.length > 0) parts.push(`${describeItems(notSent)} ${were(notSent)} not sent`);
	return `${capitalized(parts.join('; '))}.`;
}

/** What an earlier try of the run did, for the error or the notice of a retry. */
function earlierSummary(sent: number[], uncertain: number[]): string | undefined {
	const parts: string[] = [];
	if (sent.length > 0)
		parts.push(
			`${capitalized(describeItems(sent))} ${were(sent)} sent by an earlier try of this execution (n8n's Retry On Fail) and ${were(sent)} not sent again.`,
		);
	if (uncertain.length > 0)
		parts.push(
			`${capitalized(describeItems(uncertain))} ${were(uncertain)} not sent again either: ${uncertain.length === 1 ? 'its' : 'their'} request in an earlier try failed after it may have reached the platform.`,
		);
	return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * Runs a batch operation. Every item is prepared; entries are grouped by key and sent in chunks,
 * several requests at once. A request the platform refused whole is split in halves and sent again
 * until the entries at fault are alone, so every good entry is sent exactly once; when both halves are
 * refused like the whole and no entry can cause that alone, the cause is what they share and the split
 * stops there. Any other failure fails exactly the entries of that request and is never resent. Every
 * input item ends with its result or its own error, paired with it. Without continue-on-fail the
 * refused request is still isolated, no other request starts after a failure, and the error says which
 * items were sent. What this run sent is kept (sentLedger): a retry of the run by n8n sends only the rest.
 */
export async function runBatched<T extends BatchEntry, Fixed>(
	context: IExecuteFunctions,
	itemCount: number,
	plan: BatchPlan<T, Fixed>,
	options: BatchOptions,
): Promise<INodeExecutionData[]> {
	const continueOnFail = context.continueOnFail();
	const scope = `${String(context.getNodeParameter('resource', 0))}.${String(context.getNodeParameter('operation', 0))}`;
	const ledger = SentLedger.open<Fixed>(context, scope, itemCount);
	const results: Array<ItemResult<T, Fixed>> = Array.from({ length: itemCount }, () => ({
		sent: [],
		failed: [],
		requests: [],
		requestSizes: new Map(),
		sandbox: false,
		uncertain: false,
		earlier: { sent: false, failed: false },
	}));
	/** Each entry's index within its item, by which the ledger knows it on a retry. */
	const entryIndexes = new Map<T, number>();
	const prepareErrors = new Map<number, unknown>();
	const entries: T[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		let prepared: T[];
		try {
			prepared = await plan.prepare(itemIndex);
		} catch (error) {
			if (!continueOnFail) throw errorForItem(context, error, itemIndex);
			prepareErrors.set(itemIndex, error);
			continue;
		}
		for (let entryIndex = 0; entryIndex < prepared.length; entryIndex++) {
			const entry = prepared[entryIndex];
			entryIndexes.set(entry, entryIndex);
			const earlier = ledger.earlierOutcome(itemIndex, entryIndex);
			if (!earlier) {
				entries.push(entry);
				continue;
			}
			// An earlier try of this run sent it, or may have: it keeps that outcome and is not sent again.
			const result = results[itemIndex];
			if (!result.requests.includes(earlier.number)) result.requests.push(earlier.number);
			result.requestSizes.set(earlier.number, earlier.size);
			if (earlier.sent) {
				result.sent.push(entry);
				result.answer = earlier.sent.answer;
				result.sandbox = earlier.sent.sandbox;
				result.fixed = earlier.sent.fixed;
				result.earlier.sent = true;
			} else {
				result.failed.push(entry);
				result.error ??= earlierFailure(context, earlier.failed);
				result.uncertain = true;
				result.earlier.failed = true;
			}
		}
	}
	const queue: Array<Chunk<T, Fixed>> = chunkByKey(entries, plan.keyOf, plan.maxPerRequest).map(
		(chunk, origin) => ({ entries: chunk, fixed: plan.fix(chunk), origin }),
	);

	const parallel = Math.max(1, Math.floor(options.parallel));
	let requestNumber = ledger.lastRequest;
	/** Without continue-on-fail: the request whose failure stops the run; only its own halves still go. */
	let stoppedBy: number | undefined;
	const pacer = new RequestPacer();
	/** The chunk's entries as the ledger knows them: item index and index within the item, flat. */
	const entryPairs = (chunk: Chunk<T, Fixed>) =>
		chunk.entries.flatMap((entry) => [entry.itemIndex, entryIndexes.get(entry)!]);
	const record = (
		chunk: Chunk<T, Fixed>,
		number: number,
		outcome: { answer: IDataObject; sandbox: boolean } | { error: unknown },
	) => {
		const size = chunk.entries.length;
		if ('error' in outcome) {
			const uncertain = mayHaveBeenProcessed(outcome.error);
			if (uncertain) {
				const failure = outcome.error as NodeApiError;
				ledger.keep({
					number,
					size,
					entries: entryPairs(chunk),
					failed: {
						message: failure.message,
						description: failure.description ?? undefined,
						httpCode: failure.httpCode ?? undefined,
					},
				});
			}
			for (const entry of chunk.entries) {
				const result = results[entry.itemIndex];
				if (!result.requests.includes(number)) result.requests.push(number);
				result.requestSizes.set(number, size);
				result.failed.push(entry);
				result.error ??= outcome.error;
				result.uncertain ||= uncertain;
			}
			return;
		}
		const answer = { code: outcome.answer.code, message: outcome.answer.message };
		ledger.keep({
			number,
			size,
			entries: entryPairs(chunk),
			sent: { answer, sandbox: outcome.sandbox, fixed: plan.remember(chunk.fixed) },
		});
		for (const entry of chunk.entries) {
			const result = results[entry.itemIndex];
			if (!result.requests.includes(number)) result.requests.push(number);
			result.requestSizes.set(number, size);
			result.sent.push(entry);
			result.answer = outcome.answer;
			result.sandbox = outcome.sandbox;
			result.fixed = chunk.fixed;
		}
	};
	/** The error with the condition that applies in its title, when the plan can find it out. */
	const explained = async (chunk: Chunk<T, Fixed>, error: unknown) => {
		if (!(error instanceof NodeApiError) || !plan.diagnose) return error;
		const condition = await plan.diagnose(chunk.entries, chunk.fixed, error).catch(() => undefined);
		if (!condition) return error;
		return withCondition(error, condition);
	};
	const withCondition = (error: NodeApiError, condition: string, more?: string) =>
		new NodeApiError(context.getNode(), (error.errorResponse ?? {}) as JsonObject, {
			message: `${error.message}: ${condition}`,
			description: [more, error.description].filter(Boolean).join(' ') || undefined,
			httpCode: error.httpCode ?? undefined,
		});
	const failed = (chunk: Chunk<T, Fixed>, number: number, error: unknown) => {
		record(chunk, number, { error });
		if (!continueOnFail) stoppedBy ??= chunk.origin;
	};
	const split = (chunk: Chunk<T, Fixed>, error: NodeApiError) => {
		const half = Math.ceil(chunk.entries.length / 2);
		const parent: Split<T, Fixed> = { error, pending: 2, alike: [] };
		queue.unshift(
			{ ...chunk, entries: chunk.entries.slice(0, half), parent },
			{ ...chunk, entries: chunk.entries.slice(half), parent },
		);
	};
	/** A half was answered; once both are, halves refused like the whole are failed together or split. */
	const settle = (parent: Split<T, Fixed> | undefined) => {
		if (!parent || --parent.pending > 0) return;
		const waiting = parent.alike;
		const shared =
			waiting.length === 2 && plan.sharedCause
				? plan.sharedCause(
						waiting.flatMap(({ chunk }) => chunk.entries),
						waiting[0].chunk.fixed,
						parent.error,
					)
				: undefined;
		for (const { chunk, number, error } of waiting) {
			if (shared)
				failed(
					chunk,
					number,
					withCondition(
						error,
						shared,
						'Both halves of the request were refused like the whole, and no item alone causes that refusal: the node did not split it further.',
					),
				);
			else split(chunk, error);
		}
	};
	const sameRefusal = (a: NodeApiError, b: NodeApiError) =>
		a.httpCode === b.httpCode && a.description === b.description;
	const worker = async () => {
		while (queue.length > 0) {
			const chunk = queue.shift()!;
			if (stoppedBy !== undefined && chunk.origin !== stoppedBy) continue;
			const number = ++requestNumber;
			ledger.numbered(number);
			try {
				const { body, answer } = await plan.send(chunk.entries, chunk.fixed, {
					retry: options.retry,
					pacer,
					timeoutMs: options.timeoutMs,
					itemIndex: chunk.entries[0].itemIndex,
				});
				record(chunk, number, { answer, sandbox: body.sandboxMode === true });
				settle(chunk.parent);
			} catch (error) {
				if (plan.refusedWhole(error) && chunk.entries.length > 1) {
					const refusal = error as NodeApiError;
					if (chunk.parent && sameRefusal(refusal, chunk.parent.error)) {
						// Its sibling's answer decides whether the cause is what they share.
						chunk.parent.alike.push({ chunk, number, error: refusal });
					} else split(chunk, refusal);
					settle(chunk.parent);
					continue;
				}
				failed(chunk, number, await explained(chunk, error));
				settle(chunk.parent);
			}
		}
	};
	await Promise.all(
		Array.from({ length: Math.min(parallel, queue.length) }, async () => await worker()),
	);

	const failedItems = indexesWhere(results, (result) => result.failed.length > 0);
	const isSent = (result: ItemResult<T, Fixed>) =>
		result.sent.length > 0 && result.failed.length === 0;
	const fromEarlier = {
		sent: indexesWhere(results, (result) => result.earlier.sent && !result.earlier.failed),
		uncertain: indexesWhere(results, (result) => result.earlier.failed),
	};
	if (!continueOnFail && failedItems.length > 0) {
		const itemIndex = failedItems[0];
		const error = results[itemIndex].error;
		const sent = indexesWhere(results, isSent);
		const uncertain = indexesWhere(results, (result) => !isSent(result) && result.uncertain);
		const notSent = indexesWhere(results, (result) => !isSent(result) && !result.uncertain);
		const reason = (error as Error).message;
		const own = (error as { description?: string }).description;
		// n8n shows the message as the node's error title: it says what happened to the whole batch.
		throw errorForItem(context, error, itemIndex, {
			message: `${itemCount - sent.length} of ${itemCount} items ${uncertain.length > 0 ? 'not confirmed as sent' : 'not sent'}: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
			// With several failures, the one described is the first; with one, it needs no introduction.
			description: [
				sentSummary(sent, uncertain, notSent),
				earlierSummary(fromEarlier.sent, fromEarlier.uncertain),
				failedItems.length > 1
					? `${capitalized(describeItems([itemIndex]))} failed first. ${own ? asSentence(own) : ''}`.trim()
					: own && asSentence(own),
				whatWasSent(error, plan.effect),
			]
				.filter(Boolean)
				.join('\n'),
		});
	}
	// Every item done: a later try has nothing to skip. Otherwise the record stays for n8n's retry.
	if (failedItems.length === 0 && prepareErrors.size === 0) ledger.close();
	const earlier = earlierSummary(fromEarlier.sent, fromEarlier.uncertain);
	if (earlier)
		context.addExecutionHints({
			message: `${earlier} Their results are those of that try.`,
			location: 'outputPane',
		});

	const inputItems = options.includeInputFields ? context.getInputData() : undefined;
	return results.map((result, itemIndex) => {
		if (prepareErrors.has(itemIndex)) return errorItem(prepareErrors.get(itemIndex), itemIndex);
		const requests = result.requests.sort((a, b) => a - b);
		const where: IDataObject = {
			request: requests[0],
			requestSize: result.requestSizes.get(requests[0]),
		};
		if (requests.length > 1) {
			where.requests = requests;
			// Halves are answered in any order: the item's entries are listed in its own order.
			const inItemOrder = (a: T, b: T) => entryIndexes.get(a)! - entryIndexes.get(b)!;
			result.sent.sort(inItemOrder);
			result.failed.sort(inItemOrder);
		}
		if (result.failed.length > 0) {
			const partial =
				result.sent.length > 0
					? { sent: plan.describe(result.sent), notSent: plan.describe(result.failed) }
					: {};
			const failure = errorItem(result.error, itemIndex, { ...where, ...partial });
			const details = failure.json.details as IDataObject;
			details.description = [details.description, whatWasSent(result.error, plan.effect)]
				.filter(Boolean)
				.map((part) => asSentence(String(part)))
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
