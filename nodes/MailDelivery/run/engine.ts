/**
 * The one engine every operation runs through, in the order a reader follows: read every item (`read`), pack
 * the entries into requests (`pack`: one per item for an operation run item by item, up to 100 messages for
 * Send, rows for Import), send them (`send`), and give each item its result or error (`outputs`).
 *
 * The engine alone owns how the requests go: how many at once (Options → Requests in Parallel, read once for the
 * run; when not set, a number that follows the platform's answers: transport/concurrency.ts), pacing after a 429,
 * the execution's stop, On Error = Stop Workflow (no request starts after a failure, but the halves of a refused
 * request that find the entry at fault), requests on the same record in input order, what a retry of the run may
 * send (neverTwice/retries.ts) and what each request did (neverTwice/ledger.ts), and the words for what was done
 * and not run (report.ts). A request the platform refused whole is split in halves until the entries at
 * fault are alone, so every good entry is sent exactly once; any other failure fails exactly the entries of that
 * request and is never resent.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { RequestOptions } from '../../shared/transport';
import type { ConcurrencyLimit } from '../../shared/transport/concurrency';
import { mayHaveBeenProcessed, restated } from '../../shared/transport/failures';
import { RequestPacer } from '../../shared/transport/pacing';
import { type Accepted, earlierTryWords, SentLedger } from '../neverTwice/ledger';
import { type ItemOutcome, Outcomes } from './outcomes';
import type { ItemParameters, ParameterReader } from '../items/parameterReader';
import { type Entry, type Packing, RequestQueue, type Unit } from './queue';
import {
	earlierSummary,
	isNotRun,
	outputOf,
	type OutputOf,
	type OutputShape,
	outputsOf,
	refusedError,
	runError,
	type RunSettings,
	stoppedError,
	throughputHints,
} from './report';
import { RunClaim } from './claim';
import { runName } from '../neverTwice/retries';
import { concurrencyOf, type DefaultParallel, type Throughput, throughputOf } from './throughput';

export type { Accepted } from '../neverTwice/ledger';
export type { ItemOutcome } from './outcomes';
export { type Entry, groupKey, type Packing } from './queue';

/** How one request is made, and what its failures mean. */
export interface Requests<E, RequestData> {
	/**
	 * Makes the request for these entries: the platform's answer and what their outputs need of it, which the
	 * run's ledger keeps for a retry (saved with the execution: keep it small).
	 */
	send: (
		entries: E[],
		fixed: RequestData,
		options: RequestOptions,
	) => Promise<Accepted<RequestData>>;
	/** True when the platform refused the whole request and processed none of it: then it is split. */
	refusedWhole?: (error: unknown) => boolean;
	/** The error of a failed request with the condition that applies, when a look-up can tell it. */
	explain?: (entries: E[], fixed: RequestData, error: unknown) => Promise<unknown>;
}

/**
 * While a request the run started is under way (its retry claim, a template's look-up), reading pauses after
 * this many items, so that the request goes out and is answered beside the reading rather than after it.
 */
const ITEMS_BETWEEN_PAUSES = 500;

const NOT_RECORDED = "Not sent: n8n's store did not record the request before it left";

const SPLIT_NO_FURTHER =
	'Both halves of the request were refused like the whole, and no item alone causes that refusal: the node did not split it further.';

/**
 * The run of one operation on its input items. `E`: its entries; `RequestData`: what belongs to a request, not an
 * entry (made once per request by its packing's `fix`; of an accepted request, what its entries' outputs need).
 */
export class Run<E extends Entry = Entry, RequestData = unknown> {
	readonly node: INode;

	/** Options, read once for item 0: they shape the whole run. */
	readonly options: IDataObject;

	readonly throughput: Throughput;

	private readonly itemCount: number;

	private readonly continueOnFail: boolean;

	private readonly ledger: SentLedger<RequestData> | undefined;

	readonly outcomes: Outcomes<E, RequestData>;

	private readonly pacer = new RequestPacer();

	/** How many requests are under way at once: fixed, or following the platform's answers. */
	private readonly concurrency: ConcurrencyLimit;

	private queue: RequestQueue<E, RequestData> | undefined;

	private requestNumber: number;

	/** Requests on a record: the last one's run, which the next one on that record waits for. */
	private readonly lastOfRecord = new Map<string, Promise<unknown>>();

	/** Items' outputs made early, as they were answered (describeAsAnswered), for outputs() with that shape. */
	private earlyOutputs:
		{ shape: OutputShape<E, RequestData>; outputs: Array<OutputOf | undefined> } | undefined;

	/** The run's claim in its execution's lineage (claim.ts), for a run that changes something. */
	private readonly claim: RunClaim<E, RequestData> | undefined;

	constructor(
		readonly context: IExecuteFunctions,
		readonly reader: ParameterReader,
		private readonly settings: RunSettings & {
			/** The operation and its input, which the run's ledger belongs to. */
			scope: string;
			/** Requests in Parallel when the Options collection holds none: a number, or following the platform. */
			defaultParallel: DefaultParallel;
			/**
			 * An operation that asks a person once per execution (operation.ts, wait): only item 0 is run, and a redo
			 * sends its mail again (an earlier try's buttons answer the execution that sent it).
			 */
			asksAPerson?: boolean;
		},
	) {
		this.node = reader.node;
		const inputs = context.getInputData().length;
		this.itemCount = settings.asksAPerson ? Math.min(inputs, 1) : inputs;
		this.continueOnFail = context.continueOnFail();
		const options = (reader.get('options', 0, {}) as IDataObject) ?? {};
		// Send and Wait for Response groups how its request is sent under Options → Sending the Mail.
		const sending = (options.sending as { values?: IDataObject } | undefined)?.values;
		this.options = { ...options, ...sending };
		this.throughput = throughputOf(this.node, this.options, settings.defaultParallel);
		this.concurrency = concurrencyOf(this.throughput);
		this.ledger = settings.effect
			? SentLedger.open<RequestData>(context, settings.scope, this.itemCount, {
					redo: this.options.repeatOnRetry === true,
				})
			: undefined;
		this.requestNumber = this.ledger?.lastRequest ?? 0;
		this.claim =
			this.ledger &&
			new RunClaim(context, this.node, {
				recordFits: this.ledger.recordFits,
				repeatOnRetry: this.options.repeatOnRetry === true,
				redoSendsAccepted: settings.asksAPerson === true,
			});
		this.outcomes = new Outcomes<E, RequestData>(this.itemCount, this.node, this.ledger);
	}

	/**
	 * Reads every item into its entries, in input order. An item that cannot be read is refused (refuse());
	 * entries an earlier try of the run sent, or may have, keep that outcome and are not returned to be sent
	 * again. `readItem` may wait (Send and Wait's step 1 reads the credential: eachItem.ts, operation.ts).
	 */
	async read<T extends E>(
		readItem: (item: ItemParameters) => T[] | Promise<T[]>,
		/** Whether a request the reading started (a look-up) is still under way. */
		lookingUp: () => boolean = () => false,
	): Promise<T[]> {
		this.claim?.start();
		const entries: T[] = [];
		for (let itemIndex = 0; itemIndex < this.itemCount; itemIndex++) {
			if (
				itemIndex % ITEMS_BETWEEN_PAUSES === ITEMS_BETWEEN_PAUSES - 1 &&
				(this.claim?.answered === false || lookingUp())
			)
				await sleep(0);
			let read: T[];
			try {
				const reading = readItem(this.reader.forItem(itemIndex));
				read = reading instanceof Promise ? await reading : reading;
			} catch (error) {
				this.refuse(itemIndex, error);
				continue;
			}
			for (let entryIndex = 0; entryIndex < read.length; entryIndex++)
				if (this.outcomes.admit(read[entryIndex], entryIndex)) entries.push(read[entryIndex]);
		}
		return entries;
	}

	/**
	 * An item that is not to be sent (it cannot be read, or a check after reading found it unfit): it fails
	 * alone. Under Stop Workflow the run stops before its first request (send()), once every item is checked,
	 * so that the error can say how many items are refused and what the other setting would send.
	 */
	refuse(itemIndex: number, error: unknown) {
		this.outcomes.refuse(itemIndex, error);
	}

	/** Packs the entries into requests, in input order. */
	pack(entries: E[], packing: Packing<E, RequestData>) {
		this.queue = new RequestQueue(entries, packing, () => runName(this.context));
	}

	/**
	 * Sends the packed requests, several at once, and returns when each is answered or the run has stopped.
	 * Under Stop Workflow an item refused while reading stops the run here, before any request (one rule for
	 * every operation: docs/errors.md). Before the first request, a retried execution checks that it may send
	 * (neverTwice/retries.ts).
	 */
	async send(requests: Requests<E, RequestData>) {
		if (!this.continueOnFail) {
			const refused = refusedError(this.node, this.outcomes.items, this.settings);
			if (refused) throw refused;
		}
		const queue = this.queue!;
		if (queue.size === 0) return;
		const numbered = () => this.nextNumber();
		if (
			this.claim &&
			!(await this.claim.maySend(queue, this.outcomes, this.continueOnFail, numbered))
		)
			return;
		const workers = Math.min(this.throughput.parallel, queue.size);
		await Promise.all(Array.from({ length: workers }, async () => await this.worker(requests)));
	}

	/** The run's end, whatever it is (`threw`: it ends the execution): its hints, and its claim's end (claim.ts). */
	async settled(threw: boolean) {
		const paceHints = throughputHints(this.concurrency.summary, this.pacer.pacedRate);
		if (!threw) this.context.addExecutionHints(...paceHints);
		await this.claim?.end(threw);
	}

	private nextNumber() {
		const number = ++this.requestNumber;
		this.ledger?.numbered(number);
		return number;
	}

	/** Sends requests while any is left, each when the number at once allows (on a record: after the last). */
	private async worker(requests: Requests<E, RequestData>) {
		const queue = this.queue!;
		const cancelled = this.context.getExecutionCancelSignal?.();
		while (!cancelled?.aborted) {
			// The place is given back as soon as the answer is in, before the answer is worked on.
			const release = await this.concurrency.acquire();
			const unit = cancelled?.aborted ? undefined : queue.next();
			if (!unit) return release();
			const before = unit.record === undefined ? undefined : this.lastOfRecord.get(unit.record);
			const sent = (async (waiting: Unit<E, RequestData>) => {
				await before;
				// A request that waited for another on its record starts only if the run goes on.
				if (!queue.goesOn(waiting) || cancelled?.aborted) return;
				await this.request(waiting, requests, release);
			})(unit).finally(release);
			if (unit.record !== undefined) this.lastOfRecord.set(unit.record, sent);
			await sent;
		}
	}

	private async request(
		unit: Unit<E, RequestData>,
		requests: Requests<E, RequestData>,
		answeredNow: () => void,
	) {
		const number = this.nextNumber();
		this.outcomes.sending(unit.entries, number);
		try {
			// The request leaves once the run's journal holds that it may have (neverTwice/journal.ts).
			await this.claim?.journal?.announce(unit.origin).catch((error: unknown) => {
				throw new NodeOperationError(this.node, NOT_RECORDED, {
					description: `${String((error as Error).message)}: nothing of this request was sent.`,
				});
			});
			const accepted = await requests.send(unit.entries, unit.fixed, {
				retry: this.throughput.retry,
				pacer: this.pacer,
				concurrency: this.concurrency,
				timeoutMs: this.throughput.timeoutMs,
				itemIndex: unit.entries[0].itemIndex,
			});
			answeredNow();
			this.outcomes.accepted(unit.entries, number, accepted);
			if (!unit.parent) this.claim?.journal?.answered(unit.origin, 'accepted');
			this.answered(unit);
		} catch (error) {
			answeredNow();
			if (requests.refusedWhole?.(error) && unit.entries.length > 1) {
				this.claim?.journal?.cutInHalves(unit.origin);
				this.answered(unit, this.queue!.refused(unit, number, error as NodeApiError));
				return;
			}
			const explained = requests.explain
				? await requests.explain(unit.entries, unit.fixed, error).catch(() => error)
				: error;
			if (!unit.parent && !mayHaveBeenProcessed(error))
				this.claim?.journal?.answered(unit.origin, 'unprocessed');
			this.failed(unit, number, explained);
			this.answered(unit);
		} finally {
			this.ledger?.settled(number);
		}
	}

	private failed(unit: Unit<E, RequestData>, number: number, error: unknown) {
		this.outcomes.failed(unit.entries, number, error);
		if (!this.continueOnFail) this.queue!.stopAfter(unit);
	}

	/** A request was answered: halves its sibling's answer shows to be refused for what they share fail. */
	private answered(unit: Unit<E, RequestData>, settled = this.queue!.answered(unit)) {
		for (const half of settled)
			this.failed(
				half.unit,
				half.number,
				restated(this.node, half.error, {
					message: `${half.error.message}: ${half.cause}`,
					description: [SPLIT_NO_FURTHER, half.error.description].filter(Boolean).join(' '),
				}),
			);
	}

	/**
	 * Makes each item's output as its last entry is answered, beside the requests still under way, when the
	 * operation's outputs hold nothing known only later: outputs() with the same shape then gathers them.
	 */
	describeAsAnswered(shape: OutputShape<E, RequestData>) {
		const outputs = new Array<OutputOf | undefined>(this.itemCount);
		const settings = this.settings;
		const reportShape = this.reportShape(shape);
		this.earlyOutputs = { shape, outputs };
		this.outcomes.onAnswered = (itemIndex) => {
			const outcome = this.outcomes.outcomeOf(itemIndex);
			if (outcome.refused === undefined)
				outputs[itemIndex] = outputOf(outcome, itemIndex, settings, reportShape);
		};
	}

	/**
	 * Every input item's output, paired with it; under Stop Workflow, the error of the first failed item with
	 * what happened to the others; after the execution was stopped, what was done before. A run that ends
	 * with every item done leaves nothing for a retry to skip.
	 */
	outputs(shape: OutputShape<E, RequestData>): INodeExecutionData[] {
		const { items } = this.outcomes;
		const settings = {
			...this.settings,
			earlierTry: this.claim?.earlierTry ?? earlierTryWords(this.ledger?.earlierIn),
		};
		if (!this.continueOnFail) {
			const error = runError(this.node, items, settings, this.throughput);
			if (error) throw error;
		}
		if ((this.queue?.size ?? 0) > 0 || items.some(isNotRun))
			throw stoppedError(items, this.node, settings);
		// Items an earlier try did keep the record: the operation may fail after this (Send and Wait cannot wait for
		// that try's mail), and a further try of the run (Retry On Fail) must find them done.
		if (
			items.every(
				(outcome) =>
					outcome.failed.length === 0 && outcome.refused === undefined && !outcome.earlier.sent,
			)
		)
			this.ledger?.close();
		const earlier = earlierSummary(items, settings);
		if (earlier)
			this.context.addExecutionHints({
				message: `${earlier} Their results are those of that try.`,
				location: 'outputPane',
			});
		const early = this.earlyOutputs?.shape === shape ? this.earlyOutputs.outputs : undefined;
		return outputsOf(items, settings, this.reportShape(shape), early);
	}

	private reportShape(shape: OutputShape<E, RequestData>) {
		return {
			...shape,
			describe: shape.describe as (
				outcome: ItemOutcome<unknown, unknown>,
				where: IDataObject,
			) => IDataObject,
			inItemOrder: this.outcomes.inItemOrder as (a: unknown, b: unknown) => number,
		};
	}
}
