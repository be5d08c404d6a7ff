/**
 * What each request of a batch run did, per input item, and kept in the run's ledger (run/ledger.ts) so that
 * n8n's retry of the run sends only what was refused or never sent.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { mayHaveBeenProcessed } from '../../../shared/transport/failures';
import { earlierFailure, keptFailure, type SentLedger } from '../ledger';

/** One entry of a batch (a message version, a contact row) and the input item it came from. */
export interface BatchEntry {
	itemIndex: number;
}

export interface ItemResult<T, Fixed> {
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

export class BatchOutcomes<T extends BatchEntry, Fixed> {
	readonly results: Array<ItemResult<T, Fixed>>;

	/** Each entry's index within its item, by which the ledger knows it on a retry. */
	private readonly entryIndexes = new Map<T, number>();

	constructor(
		itemCount: number,
		private readonly node: INode,
		private readonly ledger: SentLedger<Fixed>,
		/** The part of the request-level choices an output needs, kept for a retry (saved with the execution). */
		private readonly remember: (fixed: Fixed) => Fixed,
	) {
		this.results = Array.from({ length: itemCount }, () => ({
			sent: [],
			failed: [],
			requests: [],
			requestSizes: new Map(),
			sandbox: false,
			uncertain: false,
			earlier: { sent: false, failed: false },
		}));
	}

	/**
	 * A prepared entry: true when it is to be sent. One that an earlier try of this run sent, or may have,
	 * keeps that outcome and is not sent again.
	 */
	admit(entry: T, entryIndex: number): boolean {
		this.entryIndexes.set(entry, entryIndex);
		const earlier = this.ledger.earlierOutcome(entry.itemIndex, entryIndex);
		if (!earlier) return true;
		const result = this.results[entry.itemIndex];
		this.noteRequest(result, earlier.number, earlier.size);
		if (earlier.sent) {
			result.sent.push(entry);
			result.answer = earlier.sent.answer;
			result.sandbox = earlier.sent.sandbox;
			result.fixed = earlier.sent.fixed;
			result.earlier.sent = true;
		} else {
			result.failed.push(entry);
			result.error ??= earlierFailure(this.node, earlier.failed!);
			result.uncertain = true;
			result.earlier.failed = true;
		}
		return false;
	}

	/** Halves are answered in any order: an item's entries are listed in its own order. */
	inItemOrder = (a: T, b: T) => this.entryIndexes.get(a)! - this.entryIndexes.get(b)!;

	/** A request is about to carry these entries: a record saved before its answer counts it as under way. */
	sending(entries: T[], number: number) {
		this.ledger.sending(number, this.entryPairs(entries));
	}

	accepted(entries: T[], fixed: Fixed, number: number, answer: IDataObject, sandbox: boolean) {
		this.ledger.keep({
			number,
			size: entries.length,
			entries: this.entryPairs(entries),
			sent: {
				answer: { code: answer.code, message: answer.message },
				sandbox,
				fixed: this.remember(fixed),
			},
		});
		for (const entry of entries) {
			const result = this.results[entry.itemIndex];
			this.noteRequest(result, number, entries.length);
			result.sent.push(entry);
			result.answer = answer;
			result.sandbox = sandbox;
			result.fixed = fixed;
		}
	}

	failed(entries: T[], number: number, error: unknown) {
		const uncertain = mayHaveBeenProcessed(error);
		if (uncertain)
			this.ledger.keep({
				number,
				size: entries.length,
				entries: this.entryPairs(entries),
				failed: keptFailure(error),
			});
		for (const entry of entries) {
			const result = this.results[entry.itemIndex];
			this.noteRequest(result, number, entries.length);
			result.failed.push(entry);
			result.error ??= error;
			result.uncertain ||= uncertain;
		}
	}

	private noteRequest(result: ItemResult<T, Fixed>, number: number, size: number) {
		if (!result.requests.includes(number)) result.requests.push(number);
		result.requestSizes.set(number, size);
	}

	/** The entries as the ledger knows them: item index and index within the item, flat. */
	private entryPairs(entries: T[]): number[] {
		return entries.flatMap((entry) => [entry.itemIndex, this.entryIndexes.get(entry)!]);
	}
}
