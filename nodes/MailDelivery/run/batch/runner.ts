/**
 * Runs a batch operation (Send, Import). Every item is prepared; entries are grouped by key and sent in
 * chunks, several requests at once (queue.ts). A request the platform refused whole is split in halves and
 * sent again until the entries at fault are alone, so every good entry is sent exactly once; any other
 * failure fails exactly the entries of that request and is never resent. Every input item ends with its
 * result or its own error, paired with it (report.ts). Without continue-on-fail the refused request is still
 * isolated, no other request starts after a failure, and the error says which items were sent. What this run
 * sent is kept (outcomes.ts, ../ledger.ts): a retry of the run by n8n sends only the rest.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestOptions } from '../../../shared/transport';
import { RequestPacer } from '../../../shared/transport/pacing';
import { restated } from '../../../shared/transport/failures';
import { errorForItem } from '../itemErrors';
import { SentLedger } from '../ledger';
import type { ItemParameters, ParameterReader } from '../parameters';
import type { Throughput } from '../throughput';
import { type BatchEntry, BatchOutcomes } from './outcomes';
import { type Chunk, RequestQueue } from './queue';
import { batchError, batchOutput, earlierSummary, failedItemsOf } from './report';

export { groupKey } from './queue';
export type { BatchEntry } from './outcomes';

export interface BatchPlan<T extends BatchEntry, Fixed> {
	/** Reads and checks one input item, reading no files; an error fails that item only. */
	prepare: (parameters: ItemParameters) => Promise<T[]>;
	/** Entries with the same key may share a request, of at most `maxPerRequest` entries. */
	keyOf: (entry: T) => string;
	maxPerRequest: number;
	/** Request-level choices made once per chunk and kept when a refused request is split. */
	fix?: (chunk: T[]) => Fixed;
	/** The part of `fix`'s choices an output needs, kept for a retry (saved with the execution: nothing large). */
	remember?: (fixed: Fixed) => Fixed;
	/** Sends one request for the chunk. */
	send: (
		chunk: T[],
		fixed: Fixed,
		options: RequestOptions,
	) => Promise<{ body: IDataObject; answer: IDataObject }>;
	failures: {
		/** What a request would have done, for a failure after which it may have ("mail may have gone out"). */
		effect: string;
		/** True when the platform refused the whole request and processed none of it: then it is split. */
		refusedWhole: (error: unknown) => boolean;
		/** When both halves were refused like the whole: what the entries share that no entry causes alone. */
		sharedCause?: (entries: T[], fixed: Fixed, error: NodeApiError) => string | undefined;
		/** After a failure, the documented condition that applies, found with a look-up; undefined if unknown. */
		diagnose?: (chunk: T[], fixed: Fixed, error: NodeApiError) => Promise<string | undefined>;
	};
	/** What entries add to their item's output, e.g. their recipients and what identifies their request. */
	describe: (entries: T[], fixed?: Fixed) => IDataObject;
}

interface BatchOptions extends Throughput {
	/** Put the input item's fields before the result in each successful item's output. */
	includeInputFields?: boolean;
}

const SPLIT_NO_FURTHER =
	'Both halves of the request were refused like the whole, and no item alone causes that refusal: the node did not split it further.';

export async function runBatched<T extends BatchEntry, Fixed>(
	context: IExecuteFunctions,
	reader: ParameterReader,
	plan: BatchPlan<T, Fixed>,
	options: BatchOptions,
): Promise<INodeExecutionData[]> {
	const { node } = reader;
	const itemCount = context.getInputData().length;
	const continueOnFail = context.continueOnFail();
	const scope = `${String(reader.get('resource', 0))}.${String(reader.get('operation', 0))}`;
	const ledger = SentLedger.open<Fixed>(context, scope, itemCount);
	const outcomes = new BatchOutcomes<T, Fixed>(
		itemCount,
		node,
		ledger,
		plan.remember ?? ((fixed) => fixed),
	);
	const prepareErrors = new Map<number, unknown>();
	const entries: T[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		let prepared: T[];
		try {
			prepared = await plan.prepare(reader.forItem(itemIndex));
		} catch (error) {
			if (!continueOnFail) throw errorForItem(node, error, itemIndex);
			prepareErrors.set(itemIndex, error);
			continue;
		}
		prepared.forEach((entry, entryIndex) => {
			if (outcomes.admit(entry, entryIndex)) entries.push(entry);
		});
	}
	const fix = plan.fix ?? (() => undefined as Fixed);
	const queue = new RequestQueue<T, Fixed>(
		entries,
		{ keyOf: plan.keyOf, maxPerRequest: plan.maxPerRequest, fix },
		plan.failures.sharedCause,
	);
	const { effect, refusedWhole, diagnose } = plan.failures;

	let requestNumber = ledger.lastRequest;
	const pacer = new RequestPacer();
	/** The error with the condition that applies in its title, when the plan can find it out. */
	const explained = async (chunk: Chunk<T, Fixed>, error: unknown) => {
		if (!(error instanceof NodeApiError) || !diagnose) return error;
		const condition = await diagnose(chunk.entries, chunk.fixed, error).catch(() => undefined);
		return condition ? restated(node, error, { message: `${error.message}: ${condition}` }) : error;
	};
	const failed = (chunk: Chunk<T, Fixed>, number: number, error: unknown) => {
		outcomes.failed(chunk.entries, number, error);
		if (!continueOnFail) queue.stopAfter(chunk);
	};
	const answered = (chunk: Chunk<T, Fixed>, settled = queue.answered(chunk)) => {
		for (const half of settled)
			failed(
				half.chunk,
				half.number,
				restated(node, half.error, {
					message: `${half.error.message}: ${half.cause}`,
					description: [SPLIT_NO_FURTHER, half.error.description].filter(Boolean).join(' '),
				}),
			);
	};
	const send = async (chunk: Chunk<T, Fixed>) => {
		const number = ++requestNumber;
		ledger.numbered(number);
		try {
			const { body, answer } = await plan.send(chunk.entries, chunk.fixed, {
				retry: options.retry,
				pacer,
				timeoutMs: options.timeoutMs,
				itemIndex: chunk.entries[0].itemIndex,
			});
			outcomes.accepted(chunk.entries, chunk.fixed, number, answer, body.sandboxMode === true);
			answered(chunk);
		} catch (error) {
			if (refusedWhole(error) && chunk.entries.length > 1) {
				answered(chunk, queue.refused(chunk, number, error as NodeApiError));
				return;
			}
			failed(chunk, number, await explained(chunk, error));
			answered(chunk);
		}
	};
	const worker = async () => {
		for (let chunk = queue.next(); chunk; chunk = queue.next()) await send(chunk);
	};
	const parallel = Math.max(1, Math.floor(options.parallel));
	await Promise.all(Array.from({ length: Math.min(parallel, queue.size) }, worker));

	const { results } = outcomes;
	const failedItems = failedItemsOf(results);
	if (!continueOnFail && failedItems.length > 0) throw batchError(node, results, effect);
	// Every item done: a later try has nothing to skip. Otherwise the record stays for n8n's retry.
	if (failedItems.length === 0 && prepareErrors.size === 0) ledger.close();
	const earlier = earlierSummary(results);
	if (earlier)
		context.addExecutionHints({
			message: `${earlier} Their results are those of that try.`,
			location: 'outputPane',
		});
	return batchOutput(results, {
		describe: plan.describe,
		effect,
		inItemOrder: outcomes.inItemOrder,
		prepareErrors,
		inputItems: options.includeInputFields ? context.getInputData() : undefined,
	});
}
