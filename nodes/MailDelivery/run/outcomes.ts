/**
 * What happened to each input item in a run: the entries its requests carried and what they did, or why it
 * was not sent, kept in the run's ledger (ledger.ts) so that n8n's retry of the run sends only what was refused
 * or never sent.
 */
import type { INode } from 'n8n-workflow';

import { mayHaveBeenProcessed } from '../../shared/transport/failures';
import { earlierFailure, keptFailure, type Accepted, type SentLedger } from './ledger';
import type { Entry } from './queue';

export interface ItemOutcome<E, Fixed> {
	sent: E[];
	failed: E[];
	requests: number[];
	requestSizes: Map<number, number>;
	/** The request that sent its entries: the platform's answer and what the output needs of it. */
	accepted?: Accepted<Fixed>;
	error?: unknown;
	/** A failed entry's request may have reached the platform: it may have taken effect. */
	uncertain: boolean;
	/** Entries an earlier try of this run sent (or may have): not sent again. */
	earlier: { sent: boolean; failed: boolean };
	/** The item was not sent for a reason of its own, before any request (it could not be read, a retry). */
	refused?: unknown;
}

export class Outcomes<E extends Entry, Fixed> {
	readonly items: Array<ItemOutcome<E, Fixed>>;

	/** Each entry's index within its item, by which the ledger knows it on a retry. */
	private readonly entryIndexes = new Map<E, number>();

	constructor(
		itemCount: number,
		private readonly node: INode,
		private readonly ledger: SentLedger<Fixed> | undefined,
	) {
		this.items = Array.from({ length: itemCount }, () => ({
			sent: [],
			failed: [],
			requests: [],
			requestSizes: new Map(),
			uncertain: false,
			earlier: { sent: false, failed: false },
		}));
	}

	/**
	 * A read entry: true when it is to be sent. One that an earlier try of this run sent, or may have,
	 * keeps that outcome and is not sent again.
	 */
	admit(entry: E, entryIndex: number): boolean {
		this.entryIndexes.set(entry, entryIndex);
		const earlier = this.ledger?.earlierOutcome(entry.itemIndex, entryIndex);
		if (!earlier) return true;
		const outcome = this.items[entry.itemIndex];
		this.noteRequest(outcome, earlier.number, earlier.size);
		if (earlier.sent) {
			outcome.sent.push(entry);
			outcome.accepted = earlier.sent;
			outcome.earlier.sent = true;
		} else {
			outcome.failed.push(entry);
			outcome.error ??= earlierFailure(this.node, earlier.failed!);
			outcome.uncertain = true;
			outcome.earlier.failed = true;
		}
		return false;
	}

	/** The item is not sent, for this reason; its entries are not either. */
	refuse(itemIndex: number, error: unknown) {
		this.items[itemIndex].refused ??= error;
	}

	/** Halves are answered in any order: an item's entries are listed in its own order. */
	inItemOrder = (a: E, b: E) => this.entryIndexes.get(a)! - this.entryIndexes.get(b)!;

	/** A request is about to carry these entries: a record saved before its answer counts it as under way. */
	sending(entries: E[], number: number) {
		this.ledger?.sending(number, this.entryPairs(entries));
	}

	accepted(entries: E[], number: number, accepted: Accepted<Fixed>) {
		this.ledger?.keep({
			number,
			size: entries.length,
			entries: this.entryPairs(entries),
			sent: {
				answer: { code: accepted.answer.code, message: accepted.answer.message },
				sandbox: accepted.sandbox,
				fixed: accepted.fixed,
			},
		});
		for (const entry of entries) {
			const outcome = this.items[entry.itemIndex];
			this.noteRequest(outcome, number, entries.length);
			outcome.sent.push(entry);
			outcome.accepted = accepted;
		}
	}

	failed(entries: E[], number: number, error: unknown) {
		const uncertain = mayHaveBeenProcessed(error);
		if (uncertain)
			this.ledger?.keep({
				number,
				size: entries.length,
				entries: this.entryPairs(entries),
				failed: keptFailure(error),
			});
		for (const entry of entries) {
			const outcome = this.items[entry.itemIndex];
			this.noteRequest(outcome, number, entries.length);
			outcome.failed.push(entry);
			outcome.error ??= error;
			outcome.uncertain ||= uncertain;
		}
	}

	private noteRequest(outcome: ItemOutcome<E, Fixed>, number: number, size: number) {
		if (!outcome.requests.includes(number)) outcome.requests.push(number);
		outcome.requestSizes.set(number, size);
	}

	/** The entries as the ledger knows them: item index and index within the item, flat. */
	private entryPairs(entries: E[]): number[] {
		return entries.flatMap((entry) => [entry.itemIndex, this.entryIndexes.get(entry)!]);
	}
}
