/**
 * What happened to each input item in a run: the entries its requests carried and what they did, or why it
 * was not sent, kept in the run's ledger (its keeper: neverTwice/guard.ts) so that n8n's retry of the run sends only
 * what was refused or never sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { mayHaveBeenProcessed } from '../../shared/transport/failures';
import type { Entry, PackedRequest } from './queue';

/**
 * A request the platform accepted: its answer, whether it was a sandbox check, and what its entries' outputs need
 * of it. Kept in the run's ledger for a retry, so plain data and small.
 */
export interface Accepted<RequestData> {
	answer: IDataObject;
	sandbox: boolean;
	/**
	 * Of a request that combines items (Send): the part of its request data its items' outputs show (UniqueMsgID,
	 * sender, template).
	 */
	requestIdentity?: RequestData;
	/** Of an item run item by item: its output, made from the answer by its step 2 (run/eachItem.ts). */
	itemOutput?: IDataObject | IDataObject[];
}

/** What an earlier try of the run did with an entry (neverTwice/guard.ts, EarlierEntry). */
interface EarlierOutcome<RequestData> {
	number: number;
	size: number;
	sent?: Accepted<RequestData>;
	error?: unknown;
}

/** Where each request's outcome is kept for a retry of the run: its ledger (neverTwice/guard.ts, RunGuard). */
interface OutcomeKeeper<RequestData> {
	/** `entries`: item index and index within the item, flat. */
	keepAccepted(number: number, entries: number[], sent: Accepted<RequestData>): void;
	keepFailed(number: number, size: number, entries: number[], error: unknown): void;
}

export interface ItemOutcome<E, RequestData> {
	sent: E[];
	failed: E[];
	requests: number[];
	/** The size of each request of the run, by number (one map for the run: a request's size is its own). */
	requestSizes: ReadonlyMap<number, number>;
	/** The request that sent its entries: the platform's answer and what the output needs of it. */
	accepted?: Accepted<RequestData>;
	error?: unknown;
	/** A failed entry's request may have reached the platform: it may have taken effect. */
	uncertain: boolean;
	/** Entries an earlier try of this run sent (or may have): not sent again. */
	earlier: { sent: boolean; failed: boolean };
	/** The item was not sent for a reason of its own, before any request (it could not be read, a retry). */
	refused?: unknown;
}

/** An item no request has carried yet, nor an earlier try of the run: what every item starts as. */
const NOT_EARLIER = Object.freeze({ sent: false, failed: false });

/**
 * A list of an item's with one more value. Most items have one entry and one request: their lists are made at
 * that size (a list grown by push from empty keeps room for 16).
 */
function added<T>(list: T[], value: T): T[] {
	if (list.length === 0) return [value];
	list.push(value);
	return list;
}

export class Outcomes<E extends Entry, RequestData> {
	/**
	 * Each item's outcome, made when the item is first touched (a request answered, a refusal): the read of a
	 * large input then makes none, and most are made beside the requests.
	 */
	private readonly outcomes: Array<ItemOutcome<E, RequestData> | undefined>;

	/** Whether every item has its outcome (items made them all). */
	private complete = false;

	/** Each entry's index within its item when not 0 (most items have one entry), by which the ledger knows it on a retry. */
	private readonly entryIndexes = new Map<E, number>();

	/** The size of each request of the run, by number: every item's outcome reads it (requestSizes). */
	private readonly requestSizes = new Map<number, number>();

	/** Per item, its entries admitted to be sent and not answered yet (accepted or failed). */
	private readonly unanswered: Uint32Array;

	/** Hears of an item whose every entry admitted to be sent has been answered (its outcome is then final). */
	onAnswered?: (itemIndex: number) => void;

	constructor(
		itemCount: number,
		private readonly keeper: OutcomeKeeper<RequestData> | undefined,
	) {
		this.unanswered = new Uint32Array(itemCount);
		this.outcomes = new Array<ItemOutcome<E, RequestData> | undefined>(itemCount);
	}

	/** Every item's outcome, in input order (those no request touched made now). */
	get items(): Array<ItemOutcome<E, RequestData>> {
		if (!this.complete) {
			for (let index = 0; index < this.outcomes.length; index++) this.outcomeOf(index);
			this.complete = true;
		}
		return this.outcomes as Array<ItemOutcome<E, RequestData>>;
	}

	/** An item's outcome, made when first needed. */
	outcomeOf(itemIndex: number): ItemOutcome<E, RequestData> {
		return (this.outcomes[itemIndex] ??= {
			sent: [],
			failed: [],
			requests: [],
			requestSizes: this.requestSizes,
			accepted: undefined,
			error: undefined,
			uncertain: false,
			earlier: NOT_EARLIER,
			refused: undefined,
		});
	}

	/**
	 * Notes a read entry and says whether it is to be sent: not when an earlier try of this run sent it, or may have
	 * (`earlier`, from the run's ledger); it then keeps that outcome.
	 */
	noteRead(
		entry: E,
		entryIndex: number,
		earlier: EarlierOutcome<RequestData> | undefined,
	): boolean {
		if (entryIndex !== 0) this.entryIndexes.set(entry, entryIndex);
		if (!earlier) {
			this.unanswered[entry.itemIndex]++;
			return true;
		}
		const outcome = this.outcomeOf(entry.itemIndex);
		this.noteRequest(outcome, earlier.number, earlier.size);
		if (earlier.sent) {
			outcome.sent = added(outcome.sent, entry);
			outcome.accepted = earlier.sent;
			outcome.earlier = { ...outcome.earlier, sent: true };
		} else {
			outcome.failed = added(outcome.failed, entry);
			outcome.error ??= earlier.error;
			outcome.uncertain = true;
			outcome.earlier = { ...outcome.earlier, failed: true };
		}
		return false;
	}

	/** The item is not sent, for this reason; its entries are not either. */
	refuse(itemIndex: number, error: unknown) {
		this.outcomeOf(itemIndex).refused ??= error;
	}

	private entryIndexOf(entry: E): number {
		return this.entryIndexes.size === 0 ? 0 : (this.entryIndexes.get(entry) ?? 0);
	}

	/** Halves are answered in any order: an item's entries are listed in its own order. */
	inItemOrder = (a: E, b: E) => this.entryIndexOf(a) - this.entryIndexOf(b);

	/** An earlier try of the run sent this request and the platform accepted it (its journal says so). */
	acceptedEarlier(request: PackedRequest<E, RequestData>, number: number) {
		const accepted = { code: 200, message: 'accepted' };
		const { entries, requestData } = request;
		this.accepted(
			entries,
			number,
			{ answer: accepted, sandbox: false, requestIdentity: requestData },
			true,
		);
	}

	/** An earlier try sent this request with no answer kept: this item's entries of it fail with `error`. */
	inDoubtEarlier(
		request: PackedRequest<E, RequestData>,
		itemIndex: number,
		number: number,
		error: unknown,
	) {
		const entries = request.entries.filter((entry) => entry.itemIndex === itemIndex);
		this.failed(entries, number, error, true, request.entries.length);
	}

	/** `earlier`: an earlier try of the run sent the request (its journal says so: neverTwice/runClaim.ts). */
	accepted(entries: E[], number: number, accepted: Accepted<RequestData>, earlier = false) {
		this.keeper?.keepAccepted(number, this.entryPairs(entries), {
			answer: { code: accepted.answer.code, message: accepted.answer.message },
			sandbox: accepted.sandbox,
			requestIdentity: accepted.requestIdentity,
			itemOutput: accepted.itemOutput,
		});
		this.requestSizes.set(number, entries.length);
		for (const entry of entries) {
			const outcome = this.outcomeOf(entry.itemIndex);
			this.noteItemRequest(outcome, number);
			outcome.sent = added(outcome.sent, entry);
			outcome.accepted = accepted;
			if (earlier) outcome.earlier = { ...outcome.earlier, sent: true };
		}
		this.answered(entries);
	}

	/** `size`: the request's, when these are some of its entries (an earlier request's items, each with its error). */
	failed(entries: E[], number: number, error: unknown, earlier = false, size = entries.length) {
		const uncertain = mayHaveBeenProcessed(error);
		if (uncertain) this.keeper?.keepFailed(number, size, this.entryPairs(entries), error);
		this.requestSizes.set(number, size);
		for (const entry of entries) {
			const outcome = this.outcomeOf(entry.itemIndex);
			this.noteItemRequest(outcome, number);
			outcome.failed = added(outcome.failed, entry);
			outcome.error ??= error;
			outcome.uncertain ||= uncertain;
			if (earlier) outcome.earlier = { ...outcome.earlier, failed: true };
		}
		this.answered(entries);
	}

	/** Entries were answered: the items none of whose entries is still under way are told (onAnswered). */
	private answered(entries: E[]) {
		for (const { itemIndex } of entries)
			if (--this.unanswered[itemIndex] === 0) this.onAnswered?.(itemIndex);
	}

	private noteRequest(outcome: ItemOutcome<E, RequestData>, number: number, size: number) {
		this.requestSizes.set(number, size);
		this.noteItemRequest(outcome, number);
	}

	private noteItemRequest(outcome: ItemOutcome<E, RequestData>, number: number) {
		if (!outcome.requests.includes(number)) outcome.requests = added(outcome.requests, number);
	}

	/** The entries as the ledger knows them: item index and index within the item, flat. */
	entryPairs(entries: E[]): number[] {
		const pairs = new Array<number>(entries.length * 2);
		for (let index = 0; index < entries.length; index++) {
			pairs[index * 2] = entries[index].itemIndex;
			pairs[index * 2 + 1] = this.entryIndexOf(entries[index]);
		}
		return pairs;
	}
}
