/**
 * Never twice, as one run of an operation that changes something meets it: the one door of this room the engine
 * (run/engine.ts) goes through. The guard opens the run's ledger (ledger.ts: what each request of the run did, for
 * n8n's Retry On Fail) and its claim (runClaim.ts: the run's number in its execution's lineage, lineage.ts, and the
 * verdict, verdicts.ts). The engine asks it one question before the first request, `maySend` (what this run may
 * send, after what an earlier try of it did), and tells it the run's end, `ended`. Between the two it hears of each
 * request, as the ledger and the run's journal in n8n's store (journal.ts) must before the request leaves and when
 * its answer comes, so that a crash in between is told apart on a retry.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { earlierFailure, earlierTryWords, keptFailure, SentLedger } from './ledger';
import { type ClaimedItems, RunClaim, type WaitingRequests } from './runClaim';

export { runNameOf } from './runHistory';

const NOT_RECORDED = "Not sent: n8n's store did not record the request before it left";

/** What an earlier try of the run did with an entry: the request that carried it, and what it got. */
interface EarlierEntry<Kept> {
	number: number;
	size: number;
	/** The platform accepted it: what this try's output shows of it. */
	sent?: Kept;
	/** Its request failed after it may have reached the platform (or was under way when n8n saved): not sent again. */
	error?: unknown;
}

/**
 * The guard of one run. `Kept`: what the ledger keeps of an accepted request (plain data, saved with the execution:
 * run/outcomes.ts, Accepted).
 */
export class RunGuard<Kept> {
	private constructor(
		private readonly node: INode,
		private readonly ledger: SentLedger<Kept>,
		private readonly claim: RunClaim,
	) {}

	/** The guard of this run of the node: its ledger left by an earlier try (or new), and its claim not made yet. */
	static open<Kept>(
		context: IExecuteFunctions,
		node: INode,
		run: {
			/** The operation and its input, which the run's ledger belongs to. */
			scope: string;
			itemCount: number;
			/** Options → Redo After a Crash. */
			repeatOnRetry: boolean;
			/** A redo sends what the platform accepted too (Send and Wait: its earlier mail answers another execution). */
			redoSendsAccepted: boolean;
		},
	): RunGuard<Kept> {
		const redo = run.repeatOnRetry;
		const ledger = SentLedger.open<Kept>(context, run.scope, run.itemCount, { redo });
		const claim = new RunClaim(context, node, {
			recordFits: ledger.recordFits,
			repeatOnRetry: redo,
			redoSendsAccepted: run.redoSendsAccepted,
		});
		return new RunGuard(node, ledger, claim);
	}

	/** The number of the last request an earlier try made: this try's are numbered after it. */
	get lastRequest(): number {
		return this.ledger.lastRequest;
	}

	/** Claims the run, as its items are read (before its first request). */
	startClaim() {
		this.claim.start();
	}

	/** Whether the claim's answer came (reading pauses for it now and then while it does not). */
	get claimAnswered(): boolean {
		return this.claim.answered;
	}

	/** What an earlier try of the run did with this entry, if it sent it or may have: then it is not sent again. */
	earlierOf(itemIndex: number, entryIndex: number): EarlierEntry<Kept> | undefined {
		const earlier = this.ledger.earlierOutcome(itemIndex, entryIndex);
		if (!earlier) return undefined;
		const { number, size, sent, failed } = earlier;
		if (sent) return { number, size, sent };
		return { number, size, error: earlierFailure(this.node, failed!, this.ledger.earlierIn) };
	}

	/**
	 * The one question, before the run's first request: may it send its queue? An earlier try's requests its journal
	 * shows are taken out first (accepted ones keep that outcome, those in doubt fail); when the run may not send,
	 * every item left fails (under Stop Workflow this throws one error listing them) and the answer is false.
	 */
	async maySend<Request>(
		queue: WaitingRequests<Request>,
		items: ClaimedItems<Request>,
		continueOnFail: boolean,
		nextNumber: () => number,
	): Promise<boolean> {
		return await this.claim.maySend(queue, items, continueOnFail, nextNumber);
	}

	/** A request number was taken (a request refused unprocessed still takes one). */
	numbered(number: number) {
		this.ledger.numbered(number);
	}

	/**
	 * A request is about to leave, carrying these entries (item index and index within the item, flat): a record
	 * saved before its answer counts it as under way, and it leaves once the run's journal holds that it may have.
	 */
	async leaving(number: number, origin: number, entries: number[]) {
		this.ledger.sending(number, entries);
		await this.claim.journal?.announce(origin).catch((error: unknown) => {
			throw new NodeOperationError(this.node, NOT_RECORDED, {
				description: `${String((error as Error).message)}: nothing of this request was sent.`,
			});
		});
	}

	/** Keeps a request the platform accepted. */
	keepAccepted(number: number, entries: number[], sent: Kept) {
		this.ledger.keep({ number, size: entries.length / 2, entries, sent });
	}

	/** Keeps a request that failed after it may have reached the platform (`size`: the whole request's). */
	keepFailed(number: number, size: number, entries: number[], error: unknown) {
		this.ledger.keep({ number, size, entries, failed: keptFailure(error) });
	}

	/** The first request of an origin was answered: accepted whole, or refused with nothing processed. */
	answered(origin: number, outcome: 'accepted' | 'unprocessed') {
		this.claim.journal?.answered(origin, outcome);
	}

	/** A request of the origin was refused whole and is cut in halves. */
	cutInHalves(origin: number) {
		this.claim.journal?.cutInHalves(origin);
	}

	/** A request's answer is in: one not kept (refused unprocessed) frees its entries for a retry. */
	settled(number: number) {
		this.ledger.settled(number);
	}

	/** Who made the earlier tries whose outcomes the run's output shows, in words. */
	get earlierTry(): string {
		return this.claim.earlierTry ?? earlierTryWords(this.ledger.earlierIn);
	}

	/** Every item of the run is done: the ledger keeps nothing for a retry (the execution carries none of it). */
	everyItemDone() {
		this.ledger.close();
	}

	/** The run's end (`threw`: it ends the execution): the claim's end is saved and the journal's writes are done. */
	async ended(threw: boolean) {
		await this.claim.end(threw);
	}
}
