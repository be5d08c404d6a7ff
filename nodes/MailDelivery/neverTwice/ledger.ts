/**
 * What the requests of an operation that changes something did in this run of the node, kept where n8n keeps
 * per-node state of an execution (`getContext('node')`, the execution's context data, as Loop Over Items does), so
 * that a second try of the same run never sends again what a first try sent.
 *
 * n8n runs a node again, with the same input and the same run index, when Retry On Fail is set and the
 * node threw (or, under On Error = Continue, its first output item holds an error); the context data
 * is the same object across those tries, in the one process that runs the execution (queue mode
 * included). It is saved with the execution, so retrying a failed execution from the executions list
 * (which runs the failed node again with its saved input and run index) finds it too. A run index of
 * its own per run keeps a node that runs again in a loop, with new input, apart. The record is deleted
 * when a run ends with every item done, so executions that succeed carry nothing of it.
 */
import type { IContextObject, IExecuteFunctions, INode, NodeApiError } from 'n8n-workflow';

import {
	PlatformError,
	type RequestFailure,
	requestFailureOf,
} from '../../shared/transport/failures';
import { asSentence } from '../items/itemNames';

/** The outcome of one request of an earlier try. */
interface EarlierRequest<Kept> {
	number: number;
	size: number;
	/** The entries it carried: pairs of input item index and the entry's index within its item, flat. */
	entries: number[];
	/** Accepted: what the run keeps of its answer for its entries' outputs (plain data: run/outcomes.ts, Accepted). */
	sent?: Kept;
	/** Failed after it may have reached the platform (an internal error, a time-out, a dropped connection). */
	failed?: EarlierFailure;
	/**
	 * Sent and not answered yet. n8n saves the record while a request is under way when the execution is
	 * stopped (it saves at the stop, and the request may still reach the platform after): a retry takes such
	 * a request as one that may have reached the platform.
	 */
	underWay?: true;
}

/** What a retry reports of a request that was under way when n8n saved the record. */
const UNDER_WAY: EarlierFailure = {
	message: 'The request may have reached the platform',
	description:
		'It was under way when the execution was stopped, and n8n saved the execution before its answer came.',
	requestFailure: { path: '', mayHaveBeenProcessed: true },
};

/** A failure kept for a later try: its words and, from the transport, what it was. */
interface EarlierFailure {
	message: string;
	description?: string;
	requestFailure?: RequestFailure;
}

/** A failure as the ledger keeps it (it is saved with the execution: plain data). */
export function keptFailure(error: unknown): EarlierFailure {
	const failed = error as NodeApiError;
	return {
		message: failed.message,
		description: failed.description ?? undefined,
		requestFailure: requestFailureOf(error),
	};
}

interface LedgerRecord<Kept> {
	/** The operation and the input size the record belongs to. */
	scope: string;
	/** The execution whose try wrote it last (a retry's record comes from the execution it retries). */
	execution?: string;
	itemCount: number;
	/** The number of the last request made, so that a retry's requests are numbered after it. */
	lastRequest: number;
	requests: Array<EarlierRequest<Kept>>;
}

export class SentLedger<Kept> {
	private readonly earlier = new Map<string, EarlierRequest<Kept>>();

	/** This try's requests under way, by number, to settle when their answer comes. */
	private readonly underWay = new Map<number, EarlierRequest<Kept>>();

	private constructor(
		private readonly store: IContextObject,
		private readonly key: string,
		private readonly record: LedgerRecord<Kept>,
		/**
		 * False when an earlier try of this run left a record of another operation or input (a retry of a
		 * changed workflow): what it did cannot be matched with these items.
		 */
		readonly recordFits: boolean,
		/** The execution an earlier try of this run ran in, when not this one (the execution a retry goes on from). */
		readonly earlierIn: string | undefined,
		/** A retry with Redo After a Crash: what an earlier execution's requests may have sent is sent again. */
		redo: boolean,
	) {
		for (const request of record.requests) {
			if (request.underWay) {
				delete request.underWay;
				request.failed = UNDER_WAY;
			}
			// A redo sends again what the execution it retries may have sent (verdicts.ts lets one redo a run).
			if (redo && earlierIn !== undefined && !request.sent) continue;
			for (let i = 0; i < request.entries.length; i += 2)
				this.earlier.set(`${request.entries[i]}.${request.entries[i + 1]}`, request);
		}
	}

	/** The record of this run of the node: left by an earlier try, or new. */
	static open<Kept>(
		context: IExecuteFunctions,
		scope: string,
		itemCount: number,
		{ redo }: { redo: boolean },
	): SentLedger<Kept> {
		let store: IContextObject;
		let runIndex: number;
		try {
			store = context.getContext('node');
			runIndex = context.getWorkflowDataProxy(0).$runIndex as number;
		} catch {
			// No execution context data (a node run outside a workflow execution): nothing to keep.
			store = {};
			runIndex = 0;
		}
		const key = `sentLedger:${runIndex}`;
		const found = store[key] as LedgerRecord<Kept> | undefined;
		const fits = found?.scope === scope && found.itemCount === itemCount;
		const record = fits ? found : { scope, itemCount, lastRequest: 0, requests: [] };
		const execution = String(context.getExecutionId?.() ?? '');
		const earlierIn =
			fits && found.execution !== undefined && found.execution !== execution
				? found.execution
				: undefined;
		record.execution = execution;
		store[key] = record;
		return new SentLedger(store, key, record, fits || found === undefined, earlierIn, redo);
	}

	/** Whether an earlier try of this run sent (or may have sent) any entry. */
	get hasEarlier(): boolean {
		return this.earlier.size > 0;
	}

	get lastRequest(): number {
		return this.record.lastRequest;
	}

	/** What an earlier try's request did with this entry, if it sent it or may have. */
	earlierOutcome(itemIndex: number, entryIndex: number): EarlierRequest<Kept> | undefined {
		return this.earlier.size === 0 ? undefined : this.earlier.get(`${itemIndex}.${entryIndex}`);
	}

	/** Notes a request this try made; only its number counts when it was refused unprocessed. */
	numbered(number: number) {
		this.record.lastRequest = Math.max(this.record.lastRequest, number);
	}

	/** Notes a request about to be sent: until it is settled, a saved record counts it as under way. */
	sending(number: number, entries: number[]) {
		const request: EarlierRequest<Kept> = {
			number,
			size: entries.length / 2,
			entries,
			underWay: true,
		};
		this.underWay.set(number, request);
		this.record.requests.push(request);
	}

	/** Keeps a request that was accepted, or that failed after it may have reached the platform. */
	keep(request: EarlierRequest<Kept>) {
		const noted = this.underWay.get(request.number);
		if (!noted) {
			this.record.requests.push(request);
			return;
		}
		this.underWay.delete(request.number);
		delete noted.underWay;
		Object.assign(noted, request);
	}

	/** A request settled without being kept (refused unprocessed): its entries are free to be sent again. */
	settled(number: number) {
		const noted = this.underWay.get(number);
		if (!noted) return;
		this.underWay.delete(number);
		delete noted.underWay;
		noted.entries = [];
		noted.size = 0;
	}

	/** The run ended with every item done: nothing is left for a retry to know. */
	close() {
		delete this.store[this.key];
	}
}

/** Who made the earlier tries of a run, as the user reads it. */
export const earlierTryWords = (earlierIn: string | undefined) =>
	earlierIn === undefined
		? "an earlier try of this execution (n8n's Retry On Fail)"
		: `execution ${earlierIn}, which this retry goes on from`;

/** The failure an earlier try's request left, as this try reports it (not sent again). */
export function earlierFailure(node: INode, failed: EarlierFailure, earlierIn?: string) {
	const texts = {
		message: failed.message,
		description: [
			`${asSentence(earlierTryWords(earlierIn)).slice(0, -1)} sent the request of this item, which failed after it may have reached the platform, so it was not sent again.`,
			failed.description,
		]
			.filter(Boolean)
			.map((part) => asSentence(part!))
			.join(' '),
	};
	// A failure of an older record without its data is taken as the transport would: it may have been processed.
	return new PlatformError(
		node,
		failed.requestFailure ?? { path: '', mayHaveBeenProcessed: true },
		texts,
	);
}
