/**
 * Runs an operation item by item, several items at once (Options → Requests in Parallel), each request paced
 * with the others after a 429. Outputs keep the input's order and pairing. Items that act on the same record
 * run in input order. An operation that changes something keeps what each item's request did in the run's
 * ledger, so n8n's Retry On Fail never makes it again. Under Stop Workflow (and when the execution is
 * stopped) no item starts after a failure, the items under way are finished and kept, and the error names
 * the item and what happened to the others.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, apiRequestPages, type RequestOptions } from '../../shared/transport';
import { mayHaveBeenProcessed } from '../../shared/transport/failures';
import { RequestPacer } from '../../shared/transport/pacing';
import {
	continueAdvice,
	errorForItem,
	errorItem,
	stoppedError,
	withWhatHappened,
} from './itemErrors';
import { capitalized, describeItems } from './itemNames';
import { earlierFailure, keptFailure, SentLedger } from './ledger';
import type { ItemOperationModule, ItemRun } from './operation';
import type { ParameterReader } from './parameters';
import { explainRefusal } from './refusals';
import { checkRetry } from './retries';
import { type Throughput, throughputOf } from './throughput';

/** An item's result or error; `earlier`: what an earlier try of the run did, not done again. */
type Outcome = ({ data: IDataObject | IDataObject[] } | { error: unknown }) & { earlier?: boolean };

/** Requests in Parallel as the operation's Options field offers it (actions/common.descriptions.ts). */
function parallelByDefault(properties: INodeProperties[]): number {
	const options = properties.find((property) => property.name === 'options')?.options ?? [];
	const field = (options as INodeProperties[]).find((option) => option.name === 'parallelRequests');
	return typeof field?.default === 'number' ? field.default : 1;
}

/** "Items 0–3 were done; items 5–999 were not run." for an error that stops a run of several at once. */
function othersSummary(outcomes: Array<Outcome | undefined>, except: number): string {
	const done: number[] = [];
	const notRun: number[] = [];
	// Array.from visits the places of items never run (holes, which forEach skips).
	Array.from(outcomes).forEach((outcome, index) => {
		if (index === except) return;
		if (outcome === undefined) notRun.push(index);
		else if ('data' in outcome) done.push(index);
	});
	const parts: string[] = [];
	const were = (indexes: number[]) => (indexes.length === 1 ? 'was' : 'were');
	if (done.length > 0) parts.push(`${describeItems(done)} ${were(done)} done`);
	if (notRun.length > 0) parts.push(`${describeItems(notRun)} ${were(notRun)} not run`);
	return parts.length > 0 ? `${capitalized(parts.join('; '))}.` : '';
}

class PerItemRun {
	private readonly items: INodeExecutionData[];

	private readonly options: IDataObject;

	private readonly throughput: Throughput;

	private readonly pacer = new RequestPacer();

	private readonly ledger: SentLedger<IDataObject | IDataObject[]> | undefined;

	private readonly outcomes: Array<Outcome | undefined>;

	/** Items acting on a record: the run of the last one, which the next one waits for. */
	private readonly lastOfRecord = new Map<string, Promise<unknown>>();

	private next = 0;

	private stopped = false;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly reader: ParameterReader,
		private readonly module: ItemOperationModule,
		scope: string,
	) {
		// An operation that waits for a person asks once per execution: item 0 only (run/operation.ts, wait).
		this.items = module.wait ? context.getInputData().slice(0, 1) : context.getInputData();
		this.outcomes = new Array(this.items.length);
		// Options are read once, for item 0: they shape the whole run.
		this.options = (reader.get('options', 0, {}) as IDataObject) ?? {};
		this.throughput = throughputOf(reader.node, this.options, parallelByDefault(module.properties));
		this.ledger = module.effect ? SentLedger.open(context, scope, this.items.length) : undefined;
	}

	async run(): Promise<INodeExecutionData[]> {
		if (this.ledger && this.items.length > 0) {
			const retry = await checkRetry(this.context, this.reader.node, {
				continuesEarlierTry: this.ledger.continuesEarlierTry,
				repeatOnRetry: this.options.repeatOnRetry === true,
			});
			if (!retry.send) {
				// A retry of an execution that may have done it, with no record of what: nothing is run.
				if (!this.context.continueOnFail()) throw retry.refusal(0);
				return this.items.map((_, index) => errorItem(retry.refusal(index), index));
			}
		}
		const workers = Math.min(this.throughput.parallel, this.items.length);
		await Promise.all(Array.from({ length: workers }, async () => await this.worker()));
		await this.waitForPerson();
		return this.report();
	}

	/** After item 0's request was accepted, by this try or an earlier one: the operation's wait (Send and Wait). */
	private async waitForPerson() {
		const first = this.outcomes[0];
		if (!this.module.wait || !first || !('data' in first) || Array.isArray(first.data)) return;
		await this.module.wait.call(this.context, this.reader.forItem(0), first.data);
	}

	private async worker() {
		const cancelled = this.context.getExecutionCancelSignal?.();
		while (!this.stopped && this.next < this.items.length) {
			if (cancelled?.aborted) {
				this.stopped = true;
				break;
			}
			const index = this.next++;
			const record = this.recordOf(index);
			const before = record === undefined ? undefined : this.lastOfRecord.get(record);
			const run = (async () => {
				await before;
				return await this.runOne(index);
			})();
			if (record !== undefined) this.lastOfRecord.set(record, run);
			const outcome = await run;
			this.outcomes[index] = outcome;
			// A failure an earlier try left is not a new one: the items after it still run, as in a batch.
			if ('error' in outcome && !outcome.earlier && !this.context.continueOnFail())
				this.stopped = true;
		}
	}

	/** The record an item acts on; an item whose parameters cannot be read fails in its own run instead. */
	private recordOf(index: number): string | undefined {
		try {
			return this.module.recordOf?.(this.reader.forItem(index));
		} catch {
			return undefined;
		}
	}

	private async runOne(index: number): Promise<Outcome> {
		const { node } = this.reader;
		const { ledger, module } = this;
		const earlier = ledger?.earlierOutcome(index, 0);
		if (earlier?.sent) return { data: earlier.sent.fixed, earlier: true };
		if (earlier) {
			const error = withWhatHappened(node, earlierFailure(node, earlier.failed!), module.effect);
			return { error, earlier: true };
		}
		const item = this.itemRun(index);
		try {
			const data = await module.execute.call(this.context, item);
			ledger?.keep({
				number: index + 1,
				size: 1,
				entries: [index, 0],
				sent: { answer: {}, sandbox: false, fixed: data },
			});
			return { data };
		} catch (caught) {
			if (ledger && mayHaveBeenProcessed(caught))
				ledger.keep({
					number: index + 1,
					size: 1,
					entries: [index, 0],
					failed: keptFailure(caught),
				});
			const explained = await explainRefusal(this.context, node, module.named, caught, item);
			return { error: withWhatHappened(node, explained, module.effect) };
		}
	}

	private itemRun(index: number): ItemRun {
		const { context } = this;
		const request: RequestOptions = {
			itemIndex: index,
			pacer: this.pacer,
			retry: this.throughput.retry,
			timeoutMs: this.throughput.timeoutMs,
		};
		return {
			...this.reader.forItem(index),
			request: async (path, body = {}) => await apiRequest.call(context, path, body, request),
			pages: async (path, body, listKey, paging) =>
				await apiRequestPages.call(context, path, body, listKey, {
					...paging,
					itemIndex: index,
					request,
				}),
		};
	}

	private report(): INodeExecutionData[] {
		const { node } = this.reader;
		const { outcomes, context } = this;
		const failed = outcomes.findIndex((outcome) => outcome !== undefined && 'error' in outcome);
		if (failed !== -1 && !context.continueOnFail()) {
			const error = (outcomes[failed] as { error: unknown }).error;
			const own = (error as { description?: string }).description;
			const others = this.throughput.parallel > 1 ? othersSummary(outcomes, failed) : '';
			const advice = continueAdvice(outcomes.length);
			if (!others && !advice) throw errorForItem(node, error, failed);
			throw errorForItem(node, error, failed, {
				description: [own, others, advice].filter(Boolean).join(' '),
			});
		}
		const notRun = outcomes.findIndex((outcome) => outcome === undefined);
		if (notRun !== -1) throw stoppedError(node, othersSummary(outcomes, -1));
		if (failed === -1) this.ledger?.close();
		return outcomes.flatMap((outcome, index) =>
			'data' in outcome!
				? context.helpers.constructExecutionMetaData(
						context.helpers.returnJsonArray(outcome.data),
						{
							itemData: { item: index },
						},
					)
				: [errorItem(outcome!.error, index)],
		);
	}
}

export async function runPerItem(
	context: IExecuteFunctions,
	reader: ParameterReader,
	module: ItemOperationModule,
	scope: string,
): Promise<INodeExecutionData[]> {
	return await new PerItemRun(context, reader, module, scope).run();
}
