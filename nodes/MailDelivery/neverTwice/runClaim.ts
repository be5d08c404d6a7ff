/**
 * The run's claim, held by the run's guard (guard.ts), which the engine asks one question before the first request
 * (may the run send?) and tells the run's end. The claim starts as the items are read (retries.ts); when it refuses,
 * each item to send fails with the reason, its request's UniqueMsgID and its addresses; when the run takes over a run
 * an earlier try claimed and is over, the run's journal in n8n's store (journal.ts) says which requests that try
 * sent: those the platform accepted keep that outcome, those that may have reached it without an answer fail, and the
 * others are sent. The journal also hears of each request of this try (guard.ts).
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { PlatformError } from '../../shared/transport/failures';
import type { RunJournal } from './journal';
import { inFlightWords, notSentError, type RefusedItem } from './notSent';
import { checkRetry, type RetryCheck, runEnded } from './retries';

/** A request not sent yet as a refused item names it: its entries, its UniqueMsgID and each entry's addresses. */
interface DescribedRequest {
	entries: Array<{ itemIndex: number }>;
	eventsName?: string;
	recipients?: string[][];
}

/** The run's requests not sent yet, by their origin (their place in the run's packing): run/queue.ts. */
export interface WaitingRequests<Request> {
	/** Which items' entries each request carries, as a digest (journal.ts). */
	fingerprint(): string;
	origins(): number[];
	/** Takes these origins' requests out of the queue. */
	withhold(origins: Set<number>): Request[];
	describe(request: Request): DescribedRequest;
	/** Takes every request left out of the queue, described. */
	takeAllRequests(): DescribedRequest[];
}

/** Where the claim writes what becomes of the run's items before any request of this try (run/outcomes.ts). */
export interface ClaimedItems<Request> {
	/** An earlier try sent this request and the platform accepted it: its entries keep that outcome. */
	acceptedEarlier(request: Request, number: number): void;
	/** An earlier try sent this request with no answer kept: this item's entries of it fail with `error`. */
	inDoubtEarlier(request: Request, itemIndex: number, number: number, error: unknown): void;
	/** The item is not sent, for this reason. */
	refuse(itemIndex: number, error: unknown): void;
}

export class RunClaim {
	private check: Promise<RetryCheck> | undefined;

	/** The claim's answer came (reading pauses for it now and then while it does not: run/engine.ts). */
	answered = false;

	/** The run's journal in n8n's store (regular mode), once the run may send. */
	journal: RunJournal | undefined;

	/** Who sent what the run's output says an earlier try sent, when the run took over from the journal. */
	earlierTry: string | undefined;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly node: INode,
		private readonly options: {
			recordFits: boolean;
			repeatOnRetry: boolean;
			/** A redo sends what the platform accepted too, not only what may not have reached it. */
			redoSendsAccepted: boolean;
		},
	) {}

	/** Claims the run, as its items are read: before its first request, and saved with the execution whatever follows. */
	start() {
		if (this.check) return;
		this.check = checkRetry(this.context, this.node, this.options);
		this.check.then(
			() => (this.answered = true),
			() => (this.answered = true),
		);
	}

	/**
	 * Whether the run may send its queue; when not, every item to send fails, before any request (under Stop
	 * Workflow, one error listing them). A run that takes over an earlier try's run first keeps what its journal
	 * says that try did.
	 */
	async maySend<Request>(
		queue: WaitingRequests<Request>,
		items: ClaimedItems<Request>,
		continueOnFail: boolean,
		nextNumber: () => number,
	): Promise<boolean> {
		this.start();
		const retry = await this.check!;
		let refusal = retry.send ? undefined : retry.refusal;
		if (retry.send) {
			this.journal = retry.journal?.(queue.fingerprint());
			const { repeatOnRetry: redo, redoSendsAccepted } = this.options;
			if (retry.takeOver && this.journal && !(redo && redoSendsAccepted)) {
				const taken = await takeOverEarlier(this.node, this.journal, queue, items, {
					nextNumber,
					redo,
				});
				this.earlierTry =
					"an earlier try of this step, as its record in n8n's store shows (n8n stopped during it, or another retry ran it)";
				// A redo whose journal cannot be read sends every item, as asked.
				if (!taken && !redo)
					refusal = (item, all) => notSentError(this.node, { kind: 'workflowChanged' }, item, all);
			}
		}
		if (!refusal) return true;
		const refused = refusedItems(queue.takeAllRequests());
		if (!continueOnFail) throw refusal(refused[0], refused);
		for (const item of refused) items.refuse(item.itemIndex, refusal(item));
		return false;
	}

	/**
	 * The run ended (`threw`: it ends the execution): the claim is in the node's context before the node ends (one
	 * written after n8n saved the execution would be lost), and the journal's writes are done.
	 */
	async end(threw: boolean) {
		if (!this.check) return;
		await this.check.catch(() => undefined);
		await this.journal?.close();
		runEnded(this.context, { threw });
	}
}

/** Every item of the requests not sent yet, with its request's UniqueMsgID and its addresses. */
function refusedItems(requests: DescribedRequest[]): RefusedItem[] {
	const items = new Map<number, RefusedItem>();
	for (const { entries, eventsName, recipients } of requests)
		entries.forEach(({ itemIndex }, index) => {
			let item = items.get(itemIndex);
			if (!item) items.set(itemIndex, (item = { itemIndex, uniqueMsgID: eventsName }));
			if (recipients) item.email = [...(item.email ?? []), ...recipients[index]];
		});
	return [...items.values()];
}

/**
 * Reads what an earlier try of the run left in its journal and takes its requests out of the queue: accepted ones
 * keep that outcome, those in doubt fail with why (a redo leaves them in the queue, to be sent again). False when
 * that try packed other entries, or the store forgot the journal.
 */
async function takeOverEarlier<Request>(
	node: INode,
	journal: RunJournal,
	queue: WaitingRequests<Request>,
	items: ClaimedItems<Request>,
	{ nextNumber, redo }: { nextNumber: () => number; redo: boolean },
): Promise<boolean> {
	const earlier = await journal.readEarlier(queue.origins());
	if (earlier === 'otherPacking' || earlier === 'forgotten') return false;
	if (redo) earlier.inDoubt.clear();
	for (const request of queue.withhold(earlier.accepted))
		items.acceptedEarlier(request, nextNumber());
	for (const request of queue.withhold(earlier.inDoubt)) {
		// Each item of the request fails with its own fields (its address, the request's UniqueMsgID).
		const number = nextNumber();
		for (const item of refusedItems([queue.describe(request)])) {
			const { message, description, fields } = inFlightWords(item);
			const error = new PlatformError(
				node,
				{ path: '', mayHaveBeenProcessed: true },
				{ message, description, itemIndex: item.itemIndex },
			);
			Object.assign(error.context, fields);
			items.inDoubtEarlier(request, item.itemIndex, number, error);
		}
	}
	return true;
}
