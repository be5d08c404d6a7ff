/**
 * Runs a batch operation (Send, Import). Every item is prepared; entries are grouped by key and sent in
 * chunks, several requests at once (queue.ts). A request the platform refused whole is split in halves and
 * sent again until the entries at fault are alone, so every good entry is sent exactly once; any other
 * failure fails exactly the entries of that request and is never resent. Every input item ends with its
 * result or its own error, paired with it (report.ts). Without continue-on-fail the refused request is still
 * isolated, no other request starts after a failure, and the error says which items were sent. What this run
 * sent is kept (outcomes.ts, ../ledger.ts): a retry of the run by n8n sends only the rest.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestOptions } from '../../../shared/transport';
import { RequestPacer } from '../../../shared/transport/pacing';
import { restated } from '../../../shared/transport/failures';
import { continueAdvice, errorForItem, stoppedError } from '../itemErrors';
import { SentLedger } from '../ledger';
import { checkRetry } from '../retries';
import type { ItemParameters, ParameterReader } from '../parameters';
import type { Throughput } from '../throughput';
import { type BatchEntry, BatchOutcomes } from './outcomes';
import { type Chunk, RequestQueue } from './queue';
import { batchError, batchOutput, earlierSummary, failedItemsOf, sentSummaryOf } from './report';

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
	/** A retried execution sends even what the execution it retries may have sent (../retries.ts). */
	repeatOnRetry?: boolean;
}

const SPLIT_NO_FURTHER =
	'Both halves of the request were refused like the whole, and no item alone causes that refusal: the node did not split it further.';

class BatchRun<T extends BatchEntry, Fixed> {
	private readonly node: INode;

	private readonly continueOnFail: boolean;

	private readonly itemCount: number;

	private readonly ledger: SentLedger<Fixed>;

	private readonly outcomes: BatchOutcomes<T, Fixed>;

	private readonly prepareErrors = new Map<number, unknown>();

	private readonly pacer = new RequestPacer();

	private queue!: RequestQueue<T, Fixed>;

	private requestNumber: number;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly reader: ParameterReader,
		private readonly plan: BatchPlan<T, Fixed>,
		private readonly options: BatchOptions,
	) {
		this.node = reader.node;
		this.itemCount = context.getInputData().length;
		this.continueOnFail = context.continueOnFail();
		const scope = `${String(reader.get('resource', 0))}.${String(reader.get('operation', 0))}`;
		this.ledger = SentLedger.open<Fixed>(context, scope, this.itemCount);
		this.requestNumber = this.ledger.lastRequest;
		this.outcomes = new BatchOutcomes<T, Fixed>(
			this.itemCount,
			this.node,
			this.ledger,
			plan.remember ?? ((fixed) => fixed),
		);
	}

	async run(): Promise<INodeExecutionData[]> {
		const entries = await this.prepare();
		if (entries.length > 0 && !(await this.maySend(entries))) entries.length = 0;
		this.queue = new RequestQueue<T, Fixed>(
			entries,
			{
				keyOf: this.plan.keyOf,
				maxPerRequest: this.plan.maxPerRequest,
				fix: this.plan.fix ?? (() => undefined as Fixed),
			},
			this.plan.failures.sharedCause,
		);
		const workers = Math.min(Math.max(1, Math.floor(this.options.parallel)), this.queue.size);
		await Promise.all(Array.from({ length: workers }, async () => await this.worker()));
		return this.report();
	}

	/** Every item read and checked; entries an earlier try sent (or may have) are not sent again. */
	private async prepare(): Promise<T[]> {
		const entries: T[] = [];
		for (let itemIndex = 0; itemIndex < this.itemCount; itemIndex++) {
			let prepared: T[];
			try {
				prepared = await this.plan.prepare(this.reader.forItem(itemIndex));
			} catch (error) {
				if (!this.continueOnFail) {
					const own = (error as { description?: string }).description;
					const advice = continueAdvice(this.itemCount);
					throw errorForItem(this.node, error, itemIndex, {
						description: [own, advice].filter(Boolean).join(' '),
					});
				}
				this.prepareErrors.set(itemIndex, error);
				continue;
			}
			prepared.forEach((entry, entryIndex) => {
				if (this.outcomes.admit(entry, entryIndex)) entries.push(entry);
			});
		}
		return entries;
	}

	/**
	 * Whether this run may send (../retries.ts): not when it retries an execution that may have sent it and
	 * left no record; then every item to send fails, before any request.
	 */
	private async maySend(entries: T[]): Promise<boolean> {
		const retry = await checkRetry(this.context, this.node, {
			recordFits: this.ledger.recordFits,
			repeatOnRetry: this.options.repeatOnRetry === true,
		});
		if (retry.send) return true;
		const items = [...new Set(entries.map((entry) => entry.itemIndex))];
		if (!this.continueOnFail) throw retry.refusal(items[0]);
		for (const itemIndex of items) this.prepareErrors.set(itemIndex, retry.refusal(itemIndex));
		return false;
	}

	private async worker() {
		const cancelled = this.context.getExecutionCancelSignal?.();
		for (let chunk = this.queue.next(); chunk && !cancelled?.aborted; chunk = this.queue.next())
			await this.send(chunk);
	}

	private async send(chunk: Chunk<T, Fixed>) {
		const number = ++this.requestNumber;
		this.ledger.numbered(number);
		this.outcomes.sending(chunk.entries, number);
		try {
			const { body, answer } = await this.plan.send(chunk.entries, chunk.fixed, {
				retry: this.options.retry,
				pacer: this.pacer,
				timeoutMs: this.options.timeoutMs,
				itemIndex: chunk.entries[0].itemIndex,
			});
			this.outcomes.accepted(chunk.entries, chunk.fixed, number, answer, body.sandboxMode === true);
			this.answered(chunk);
		} catch (error) {
			if (this.plan.failures.refusedWhole(error) && chunk.entries.length > 1) {
				this.answered(chunk, this.queue.refused(chunk, number, error as NodeApiError));
				return;
			}
			this.failed(chunk, number, await this.explained(chunk, error));
			this.answered(chunk);
		} finally {
			this.ledger.settled(number);
		}
	}

	/** The error with the condition that applies in its title, when the plan can find it out. */
	private async explained(chunk: Chunk<T, Fixed>, error: unknown) {
		const { diagnose } = this.plan.failures;
		if (!(error instanceof NodeApiError) || !diagnose) return error;
		const condition = await diagnose(chunk.entries, chunk.fixed, error).catch(() => undefined);
		return condition
			? restated(this.node, error, { message: `${error.message}: ${condition}` })
			: error;
	}

	private failed(chunk: Chunk<T, Fixed>, number: number, error: unknown) {
		this.outcomes.failed(chunk.entries, number, error);
		if (!this.continueOnFail) this.queue.stopAfter(chunk);
	}

	/** A chunk was answered: halves its sibling's answer shows to be refused for what they share fail. */
	private answered(chunk: Chunk<T, Fixed>, settled = this.queue.answered(chunk)) {
		for (const half of settled)
			this.failed(
				half.chunk,
				half.number,
				restated(this.node, half.error, {
					message: `${half.error.message}: ${half.cause}`,
					description: [SPLIT_NO_FURTHER, half.error.description].filter(Boolean).join(' '),
				}),
			);
	}

	private report(): INodeExecutionData[] {
		const { results } = this.outcomes;
		const failedItems = failedItemsOf(results);
		if (!this.continueOnFail && failedItems.length > 0)
			throw batchError(this.node, results, this.plan.failures.effect);
		if (this.queue.size > 0) throw stoppedError(this.node, sentSummaryOf(results));
		// Every item done: a later try has nothing to skip. Otherwise the record stays for n8n's retry.
		if (failedItems.length === 0 && this.prepareErrors.size === 0) this.ledger.close();
		const earlier = earlierSummary(results);
		if (earlier)
			this.context.addExecutionHints({
				message: `${earlier} Their results are those of that try.`,
				location: 'outputPane',
			});
		return batchOutput(results, {
			describe: this.plan.describe,
			effect: this.plan.failures.effect,
			inItemOrder: this.outcomes.inItemOrder,
			prepareErrors: this.prepareErrors,
			inputItems: this.options.includeInputFields ? this.context.getInputData() : undefined,
		});
	}
}

export async function runBatched<T extends BatchEntry, Fixed>(
	context: IExecuteFunctions,
	reader: ParameterReader,
	plan: BatchPlan<T, Fixed>,
	options: BatchOptions,
): Promise<INodeExecutionData[]> {
	return await new BatchRun(context, reader, plan, options).run();
}
