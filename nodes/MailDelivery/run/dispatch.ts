/**
 * The run's requests sent: several at once (as many as the run's concurrency allows), each paced, those on the same
 * record in input order (recordOrder.ts), and a request the platform refused whole split in halves until the entries
 * at fault are alone (queue.ts), so every good entry is sent exactly once; any other failure fails exactly the entries
 * of that request and is never resent. Under On Error = Stop Workflow no request starts after a failure, but the
 * halves of a refused request that find the entry at fault.
 */
import type { IExecuteFunctions, INode, NodeApiError } from 'n8n-workflow';

import type { RequestOptions } from '../../shared/transport';
import type { ConcurrencyLimit } from '../../shared/transport/concurrency';
import { mayHaveBeenProcessed, restated } from '../../shared/transport/failures';
import type { RequestPacer } from '../../shared/transport/pacing';
import type { Accepted, Outcomes } from './outcomes';
import type { Entry, PackedRequest, RequestQueue } from './queue';
import { RecordOrder } from './recordOrder';
import type { Throughput } from './throughput';

/** How one request is made, and what its failures mean. */
export interface Requests<E, RequestData> {
	/**
	 * Makes the request for these entries: the platform's answer and what their outputs need of it, which the
	 * run's ledger keeps for a retry (saved with the execution: keep it small).
	 */
	send: (
		entries: E[],
		requestData: RequestData,
		options: RequestOptions,
	) => Promise<Accepted<RequestData>>;
	/** True when the platform refused the whole request and processed none of it: then it is split. */
	refusedWhole?: (error: unknown) => boolean;
	/** The error of a failed request with the condition that applies, when a look-up can tell it. */
	explain?: (entries: E[], requestData: RequestData, error: unknown) => Promise<unknown>;
}

/**
 * Where each request is recorded as it leaves and as its answer comes, so that a retry of the run can tell what it
 * did: the run's ledger and journal (neverTwice/guard.ts, RunGuard).
 */
interface RequestRecord {
	/** Resolves once the request may leave; rejects with the error of a request that must not. */
	leaving(number: number, origin: number, entries: number[]): Promise<void>;
	answered(origin: number, outcome: 'accepted' | 'unprocessed'): void;
	cutInHalves(origin: number): void;
	settled(number: number): void;
}

const SPLIT_NO_FURTHER =
	'Both halves of the request were refused like the whole, and no item alone causes that refusal: the node did not split it further.';

export class RequestDispatch<E extends Entry, RequestData> {
	private readonly recordOrder = new RecordOrder();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly node: INode,
		private readonly queue: RequestQueue<E, RequestData>,
		private readonly outcomes: Outcomes<E, RequestData>,
		private readonly run: {
			throughput: Throughput;
			concurrency: ConcurrencyLimit;
			pacer: RequestPacer;
			continueOnFail: boolean;
			/** The next request's number in the run. */
			nextNumber: () => number;
			record: RequestRecord | undefined;
		},
	) {}

	/** Sends every request left, several at once, and returns when each is answered or the run has stopped. */
	async sendAll(requests: Requests<E, RequestData>) {
		const workers = Math.min(this.run.throughput.parallel, this.queue.size);
		await Promise.all(Array.from({ length: workers }, async () => await this.worker(requests)));
	}

	/** Sends requests while any is left, each when the number at once allows (on a record: after the last). */
	private async worker(requests: Requests<E, RequestData>) {
		const queue = this.queue;
		const cancelled = this.context.getExecutionCancelSignal?.();
		while (!cancelled?.aborted) {
			// The place is given back as soon as the answer is in, before the answer is worked on.
			const release = await this.run.concurrency.acquire();
			const request = cancelled?.aborted ? undefined : queue.next();
			if (!request) return release();
			const send = async () => {
				// A request that waited for another on its record starts only if the run goes on.
				if (!queue.mayStart(request) || cancelled?.aborted) return;
				await this.request(request, requests, release);
			};
			await this.recordOrder.inTurn(request.record, send, release);
		}
	}

	private async request(
		request: PackedRequest<E, RequestData>,
		requests: Requests<E, RequestData>,
		answeredNow: () => void,
	) {
		const { record, throughput } = this.run;
		const number = this.run.nextNumber();
		try {
			await record?.leaving(number, request.origin, this.outcomes.entryPairs(request.entries));
			const accepted = await requests.send(request.entries, request.requestData, {
				retry: throughput.retry,
				pacer: this.run.pacer,
				concurrency: this.run.concurrency,
				timeoutMs: throughput.timeoutMs,
				itemIndex: request.entries[0].itemIndex,
			});
			answeredNow();
			this.outcomes.accepted(request.entries, number, accepted);
			if (!request.parent) record?.answered(request.origin, 'accepted');
			this.answered(request);
		} catch (error) {
			answeredNow();
			if (requests.refusedWhole?.(error) && request.entries.length > 1) {
				record?.cutInHalves(request.origin);
				this.answered(request, this.queue.refused(request, number, error as NodeApiError));
				return;
			}
			const explained = requests.explain
				? await requests.explain(request.entries, request.requestData, error).catch(() => error)
				: error;
			if (!request.parent && !mayHaveBeenProcessed(error))
				record?.answered(request.origin, 'unprocessed');
			this.failed(request, number, explained);
			this.answered(request);
		} finally {
			record?.settled(number);
		}
	}

	private failed(request: PackedRequest<E, RequestData>, number: number, error: unknown) {
		this.outcomes.failed(request.entries, number, error);
		if (!this.run.continueOnFail) this.queue.stopAfter(request);
	}

	/** A request was answered: halves its sibling's answer shows to be refused for what they share fail. */
	private answered(request: PackedRequest<E, RequestData>, settled = this.queue.answered(request)) {
		for (const half of settled)
			this.failed(
				half.request,
				half.number,
				restated(this.node, half.error, {
					message: `${half.error.message}: ${half.cause}`,
					description: [SPLIT_NO_FURTHER, half.error.description].filter(Boolean).join(' '),
				}),
			);
	}
}
