/**
 * The requests of a run, waiting to be sent: entries grouped by key and cut into requests of at most so many
 * (one entry each for an operation run item by item), and a request refused whole cut in halves until the
 * entries at fault are alone. When both halves are refused word for word like the whole and no entry can cause
 * that alone, the cause is what they share, and the split stops there. After a failure under On Error = Stop
 * Workflow only the halves of the failed request still go.
 */
import { createHash } from 'node:crypto';
import type { NodeApiError } from 'n8n-workflow';

/** One entry to send (a message version, a contact row, an item) and the input item it comes from. */
export interface Entry {
	itemIndex: number;
}

/** How entries become requests. */
export interface Packing<E extends Entry, RequestData> {
	/** Entries with the same key may share a request of at most `maxPerRequest`; without a key, one each. */
	keyOf?: (entry: E) => string;
	maxPerRequest: number;
	/**
	 * A request's request data (what its entries share: Send's request-level fields), made once per request and kept
	 * when a refused request is split. `name`: the request's name in its execution, the same in every try that packs
	 * the same entries (its run in the execution's lineage and its place in the run), so that a retry can say what
	 * an earlier try's request was called.
	 */
	requestDataOf?: (entries: E[], name: string) => RequestData;
	/** What the platform's events call a request of this request data (Send: its UniqueMsgID). */
	eventsName?: (requestData: RequestData) => string | undefined;
	/** The record a request acts on (a contact's address): requests on the same record go in input order. */
	recordOf?: (entry: E) => string | undefined;
	/** The addresses an entry goes to (a message's recipients, a contact's address): a refused item names them. */
	recipientsOf?: (entry: E) => string[];
	/**
	 * When both halves of a refused request were refused like it: a phrase naming what their entries share,
	 * when no entry alone can cause that refusal; undefined when one could, and they are split further.
	 */
	sharedCause?: (entries: E[], requestData: RequestData, error: NodeApiError) => string | undefined;
}

/** A request as a refusal names it: its entries, its UniqueMsgID and each entry's addresses. */
interface DescribedRequest<E> {
	entries: E[];
	eventsName?: string;
	recipients?: string[][];
}

/** Stable text key of a value, for grouping items whose request-level fields are identical. */
export function groupKey(value: unknown): string {
	return createHash('sha1').update(JSON.stringify(value)).digest('hex');
}

/**
 * Groups entries by key, in input order, and cuts each group into chunks of at most `max`. Entries
 * that share request-level fields travel together; no chunk mixes two groups.
 */
function chunkByKey<T>(entries: T[], keyOf: ((entry: T) => string) | undefined, max: number) {
	if (!keyOf || max === 1) return entries.map((entry) => [entry]);
	const groups = new Map<string, T[]>();
	for (const entry of entries) {
		const key = keyOf(entry);
		const group = groups.get(key);
		if (group) group.push(entry);
		else groups.set(key, [entry]);
	}
	const chunks: T[][] = [];
	for (const group of groups.values()) {
		for (let start = 0; start < group.length; start += max)
			chunks.push(group.slice(start, start + max));
	}
	return chunks;
}

/** A refused request cut in halves: the halves' answers say whether the cause is what they share. */
interface SplitRequest<E, RequestData> {
	error: NodeApiError;
	/** Halves not answered yet. */
	pending: number;
	/** Halves refused word for word like the whole, waiting for the other half's answer. */
	refusedAlike: Array<{
		request: PackedRequest<E, RequestData>;
		number: number;
		error: NodeApiError;
	}>;
}

/** One request to make: its entries and its request data. */
export interface PackedRequest<E, RequestData> {
	entries: E[];
	requestData: RequestData;
	/** The first request these entries were part of (its place in the run's packing): halves of a refused request keep it. */
	origin: number;
	/** The refused request this is a half of. */
	parent?: SplitRequest<E, RequestData>;
	/** The record it acts on, when it acts on one. */
	record?: string;
}

/** Halves refused like the whole, to fail together: what they share is the cause. */
interface SharedRefusal<E, RequestData> {
	request: PackedRequest<E, RequestData>;
	number: number;
	error: NodeApiError;
	cause: string;
}

/** A request's request data not made yet (next() makes it). */
const NOT_MADE_YET = Symbol('request data not made yet');

const sameRefusal = (a: NodeApiError, b: NodeApiError) =>
	a.httpCode === b.httpCode && a.description === b.description;

export class RequestQueue<E extends Entry, RequestData> {
	private readonly waiting: Array<PackedRequest<E, RequestData>>;

	/** The next request to hand out: the queue is read from the front without moving the rest. */
	private head = 0;

	/** Without continue-on-fail: the request whose failure stops the run; only its own halves still go. */
	private stoppedBy: number | undefined;

	constructor(
		entries: E[],
		private readonly packing: Packing<E, RequestData>,
		/** The run's name in its execution (neverTwice/runHistory.ts, runNameOf), known once the run has claimed it. */
		private readonly runName: () => string,
	) {
		// A request's request data is made as it is handed out (next()): before the first request only the
		// grouping is done, the rest beside the requests.
		this.waiting = chunkByKey(entries, packing.keyOf, packing.maxPerRequest).map(
			(chunk, origin) => ({
				entries: chunk,
				requestData: NOT_MADE_YET as RequestData,
				origin,
				record: packing.recordOf?.(chunk[0]),
			}),
		);
	}

	/** Requests not handed out yet. */
	get size() {
		return this.waiting.length - this.head;
	}

	/**
	 * What the packing is, as a digest: which items' entries each request carries, in order. Two tries of a run that
	 * pack the same entries alike give the same (neverTwice/journal.ts).
	 */
	fingerprint(): string {
		const hash = createHash('sha256');
		for (let index = this.head; index < this.waiting.length; index++) {
			const { entries, origin } = this.waiting[index];
			hash.update(`${origin}:${entries.map((entry) => entry.itemIndex).join(',')};`);
		}
		return hash.digest('hex').slice(0, 32);
	}

	/** The origins of the requests not handed out yet. */
	origins(): number[] {
		return this.waiting.slice(this.head).map((request) => request.origin);
	}

	/** Takes these origins' requests out (an earlier try sent them, or may have), with their request data made. */
	withhold(origins: Set<number>): Array<PackedRequest<E, RequestData>> {
		const withheld = this.waiting.filter(
			(request, index) => index >= this.head && origins.has(request.origin),
		);
		this.waiting.splice(
			this.head,
			this.waiting.length - this.head,
			...this.waiting.slice(this.head).filter((request) => !origins.has(request.origin)),
		);
		for (const request of withheld)
			if (request.requestData === NOT_MADE_YET) request.requestData = this.madeRequestData(request);
		return withheld;
	}

	/** The entries not handed out yet, and none will be: the run was stopped or refused. */
	takeAll(): E[] {
		return this.takeAllRequests().flatMap((request) => request.entries);
	}

	/** The requests not handed out yet, described (describe()). */
	takeAllRequests(): Array<DescribedRequest<E>> {
		const left = this.waiting.slice(this.head).map((request) => this.describe(request));
		this.head = this.waiting.length;
		return left;
	}

	/** A request's entries, what the platform's events call it and the addresses of each entry. */
	describe(request: PackedRequest<E, RequestData>): DescribedRequest<E> {
		const { recipientsOf } = this.packing;
		return {
			entries: request.entries,
			eventsName: this.packing.eventsName?.(
				request.requestData === NOT_MADE_YET ? this.madeRequestData(request) : request.requestData,
			),
			recipients: recipientsOf && request.entries.map(recipientsOf),
		};
	}

	private madeRequestData(request: PackedRequest<E, RequestData>): RequestData {
		return this.packing.requestDataOf
			? this.packing.requestDataOf(request.entries, `${this.runName()}:${request.origin}`)
			: (undefined as RequestData);
	}

	/** The next request to send; after the run was stopped, only the halves of the request that stopped it. */
	next(): PackedRequest<E, RequestData> | undefined {
		while (this.head < this.waiting.length) {
			const request = this.waiting[this.head++];
			if (!this.mayStart(request)) continue;
			if (request.requestData === NOT_MADE_YET) request.requestData = this.madeRequestData(request);
			return request;
		}
		return undefined;
	}

	/** Whether a request may still start: no failure stopped the run, or it is a half of the one that did. */
	mayStart(request: PackedRequest<E, RequestData>): boolean {
		return this.stoppedBy === undefined || request.origin === this.stoppedBy;
	}

	/** No other request starts after this one's failure (its own halves still go). */
	stopAfter(request: PackedRequest<E, RequestData>) {
		this.stoppedBy ??= request.origin;
	}

	/** Halves of a refused request go first, so that a refused entry is found before other requests start. */
	private split(request: PackedRequest<E, RequestData>, error: NodeApiError) {
		const half = Math.ceil(request.entries.length / 2);
		const parent: SplitRequest<E, RequestData> = { error, pending: 2, refusedAlike: [] };
		this.waiting.splice(
			this.head,
			0,
			{ ...request, entries: request.entries.slice(0, half), parent },
			{ ...request, entries: request.entries.slice(half), parent },
		);
	}

	/**
	 * A request refused whole (nothing of it processed): split, or, for a half refused like its parent, held
	 * until its sibling is answered. Returns the halves that then fail together.
	 */
	refused(
		request: PackedRequest<E, RequestData>,
		number: number,
		error: NodeApiError,
	): Array<SharedRefusal<E, RequestData>> {
		if (request.parent && sameRefusal(error, request.parent.error))
			request.parent.refusedAlike.push({ request, number, error });
		else this.split(request, error);
		return this.answered(request);
	}

	/**
	 * A request was answered. Once both halves of a refused request are, halves refused like the whole are
	 * returned to fail together when what they share is the cause, and split further otherwise.
	 */
	answered(request: PackedRequest<E, RequestData>): Array<SharedRefusal<E, RequestData>> {
		const parent = request.parent;
		if (!parent || --parent.pending > 0) return [];
		const waiting = parent.refusedAlike;
		const cause =
			waiting.length === 2 && this.packing.sharedCause
				? this.packing.sharedCause(
						waiting.flatMap(({ request: half }) => half.entries),
						waiting[0].request.requestData,
						parent.error,
					)
				: undefined;
		if (cause) return waiting.map((half) => ({ ...half, cause }));
		for (const half of waiting) this.split(half.request, half.error);
		return [];
	}
}
