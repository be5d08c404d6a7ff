/**
 * The one engine every operation runs through, in the order a reader follows: read every item (`read`), pack
 * the entries into requests (`pack`: one per item for an operation run item by item, up to 100 messages for
 * Send, rows for Import), send them (`send`), and give each item its result or error (`outputs`).
 *
 * The engine alone owns how the requests go: how many at once (Options → Requests in Parallel, read once for the
 * run; 0, the default of most operations, a number that follows the platform's answers: transport/concurrency.ts), pacing after a 429,
 * the execution's stop, On Error = Stop Workflow, requests on the same record in input order, a request refused
 * whole split (dispatch.ts), and the words for what was done and not run (report.ts, runOutputs.ts). Never twice
 * is the guard's (neverTwice/guard.ts): the run asks it once before its first request what it may send, and tells
 * it the run's end.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ConcurrencyLimit } from '../../shared/transport/concurrency';
import { RequestPacer } from '../../shared/transport/pacing';
import { RunGuard, runNameOf } from '../neverTwice/guard';
import { itemError } from '../items/itemErrors';
import type { ItemParameters, ParameterReader } from '../items/parameterReader';
import { RequestDispatch, type Requests } from './dispatch';
import { type Accepted, Outcomes } from './outcomes';
import { type Entry, type Packing, RequestQueue } from './queue';
import { type OutputShape, refusedError, type RunSettings, throughputHints } from './report';
import { RunOutputs } from './runOutputs';
import { concurrencyOf, type DefaultParallel, type Throughput, throughputOf } from './throughput';

export type { Requests } from './dispatch';
export type { Accepted, ItemOutcome } from './outcomes';
export { type Entry, groupKey, type Packing } from './queue';

/**
 * While a request the run started is under way (its retry claim, a template's look-up), reading pauses after
 * this many items, so that the request goes out and is answered beside the reading rather than after it.
 */
const ITEMS_BETWEEN_PAUSES = 500;
/**
 * The first pause comes after this many items, and the pauses after it at twice as many each until
 * ITEMS_BETWEEN_PAUSES: a request started with the run takes several turns of the event loop to leave (its
 * credential, its connection), and each turn it waits for early on delays its answer by a slice of the reading.
 */
const ITEMS_BEFORE_FIRST_PAUSE = 8;

/** What the router tells a run of its operation. */
type OperationSettings = RunSettings & {
	/** The operation and its input, which the run's ledger belongs to. */
	scope: string;
	/** Requests in Parallel when the Options collection holds none: a number, or following the platform. */
	defaultParallel: DefaultParallel;
	/**
	 * An operation that asks a person once per execution (operation.ts, wait): only item 0 is run, and a redo
	 * sends its mail again (an earlier try's buttons answer the execution that sent it).
	 */
	asksAPerson?: boolean;
};

/**
 * The run of one operation on its input items. `E`: its entries; `RequestData`: what a request's entries share
 * (made once per request by its packing's `requestDataOf`: Send's request-level fields).
 */
export class Run<E extends Entry = Entry, RequestData = unknown> {
	readonly node: INode;
	/** Options, read once for item 0: they shape the whole run. */
	readonly options: IDataObject;
	readonly throughput: Throughput;
	readonly outcomes: Outcomes<E, RequestData>;
	private readonly itemCount: number;
	private readonly continueOnFail: boolean;
	/** Never twice, for a run that changes something (neverTwice/guard.ts). */
	private readonly guard: RunGuard<Accepted<RequestData>> | undefined;
	private readonly pacer = new RequestPacer();
	/** How many requests are under way at once: fixed, or following the platform's answers. */
	private readonly concurrency: ConcurrencyLimit;
	private readonly runOutputs: RunOutputs<E, RequestData>;
	private queue: RequestQueue<E, RequestData> | undefined;
	private requestNumber: number;

	constructor(
		readonly context: IExecuteFunctions,
		readonly reader: ParameterReader,
		private readonly settings: OperationSettings,
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
		const { scope, effect, asksAPerson } = settings;
		this.guard = effect
			? RunGuard.open<Accepted<RequestData>>(context, this.node, {
					scope,
					itemCount: this.itemCount,
					repeatOnRetry: this.options.repeatOnRetry === true,
					redoSendsAccepted: asksAPerson === true,
				})
			: undefined;
		this.requestNumber = this.guard?.lastRequest ?? 0;
		this.outcomes = new Outcomes<E, RequestData>(this.itemCount, this.guard);
		this.runOutputs = new RunOutputs(context, this.node, this.outcomes, settings, this.itemCount);
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
		const guard = this.guard;
		guard?.startClaim();
		const entries: T[] = [];
		let nextPause = ITEMS_BEFORE_FIRST_PAUSE;
		for (let itemIndex = 0; itemIndex < this.itemCount; itemIndex++) {
			if (itemIndex === nextPause) {
				nextPause += Math.min(nextPause, ITEMS_BETWEEN_PAUSES);
				if (guard?.claimAnswered === false || lookingUp()) await sleep(0);
			}
			let read: T[];
			try {
				const reading = readItem(this.reader.forItem(itemIndex));
				read = reading instanceof Promise ? await reading : reading;
			} catch (error) {
				this.refuse(itemIndex, error);
				continue;
			}
			for (let entryIndex = 0; entryIndex < read.length; entryIndex++) {
				const earlier = guard?.earlierOf(itemIndex, entryIndex);
				if (this.outcomes.noteRead(read[entryIndex], entryIndex, earlier))
					entries.push(read[entryIndex]);
			}
		}
		return entries;
	}

	/**
	 * An item that is not to be sent (it cannot be read, or a check after reading found it unfit): it fails
	 * alone. Under Stop Workflow the run stops before its first request (send()), once every item is checked,
	 * so that the error can say how many items are refused and what the other setting would send.
	 */
	refuse(itemIndex: number, error: unknown) {
		// A helper's ItemProblem names the field; the item's error names the item too (items/itemErrors.ts).
		this.outcomes.refuse(itemIndex, itemError(this.node, error, itemIndex));
	}

	/** Packs the entries into requests, in input order. */
	pack(entries: E[], packing: Packing<E, RequestData>) {
		this.queue = new RequestQueue(entries, packing, () => runNameOf(this.context));
	}

	/**
	 * Sends the packed requests, several at once (dispatch.ts), and returns when each is answered or the run has
	 * stopped. Under Stop Workflow an item refused while reading stops the run here, before any request (one rule
	 * for every operation: docs/errors.md). Before the first request, the guard says what the run may send.
	 */
	async send(requests: Requests<E, RequestData>) {
		if (!this.continueOnFail) {
			const refused = refusedError(this.node, this.outcomes.items, this.settings);
			if (refused) throw refused;
		}
		const queue = this.queue!;
		if (queue.size === 0) return;
		const { continueOnFail, throughput, concurrency, pacer, guard } = this;
		const nextNumber = () => this.nextNumber();
		if (guard && !(await guard.maySend(queue, this.outcomes, continueOnFail, nextNumber))) return;
		const run = { throughput, concurrency, pacer, continueOnFail, nextNumber, record: guard };
		await new RequestDispatch(this.context, this.node, queue, this.outcomes, run).sendAll(requests);
	}

	/** The run's end, whatever it is (`threw`: it ends the execution): its hints, and the guard's end. */
	async settled(threw: boolean) {
		const paceHints = throughputHints(
			this.concurrency.summary,
			this.pacer.pacedRate,
			this.pacer.fromEarlierRun,
		);
		if (!threw) this.context.addExecutionHints(...paceHints);
		await this.guard?.ended(threw);
	}

	private nextNumber() {
		const number = ++this.requestNumber;
		this.guard?.numbered(number);
		return number;
	}

	/** Makes each item's output as it is answered, when nothing in it is known later (runOutputs.ts). */
	describeAsAnswered(shape: OutputShape<E, RequestData>) {
		this.runOutputs.describeAsAnswered(shape);
	}

	/** Every input item's output, paired with it, or the run's error (runOutputs.ts). */
	outputs(shape: OutputShape<E, RequestData>): INodeExecutionData[] {
		return this.runOutputs.outputs(shape, {
			continueOnFail: this.continueOnFail,
			throughput: this.throughput,
			requestsLeft: this.queue?.size ?? 0,
			earlierTry: this.guard?.earlierTry,
			everyItemDone: () => this.guard?.everyItemDone(),
		});
	}
}
