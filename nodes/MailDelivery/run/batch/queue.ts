/**
 * The requests of a batch run, waiting to be sent: entries grouped by key and cut into chunks, and a refused
 * request cut in halves until the entries at fault are alone. When both halves are refused word for word like
 * the whole and no entry can cause that alone, the cause is what they share, and the split stops there.
 */
import { createHash } from 'node:crypto';
import type { NodeApiError } from 'n8n-workflow';

/** Stable text key of a value, for grouping items whose request-level fields are identical. */
export function groupKey(value: unknown): string {
	return createHash('sha1').update(JSON.stringify(value)).digest('hex');
}

/**
 * Groups entries by key, in input order, and cuts each group into chunks of at most `max`. Entries
 * that share request-level fields travel together; no chunk mixes two groups.
 */
function chunkByKey<T>(entries: T[], keyOf: (entry: T) => string, max: number): T[][] {
	const groups = new Map<string, T[]>();
	for (const entry of entries) {
		const key = keyOf(entry);
		const group = groups.get(key) ?? [];
		group.push(entry);
		groups.set(key, group);
	}
	const chunks: T[][] = [];
	for (const group of groups.values()) {
		for (let start = 0; start < group.length; start += max)
			chunks.push(group.slice(start, start + max));
	}
	return chunks;
}

/** A refused request cut in halves: the halves' answers say whether the cause is what they share. */
interface Split<T, Fixed> {
	error: NodeApiError;
	/** Halves not answered yet. */
	pending: number;
	/** Halves refused word for word like the whole, waiting for the other half's answer. */
	alike: Array<{ chunk: Chunk<T, Fixed>; number: number; error: NodeApiError }>;
}

export interface Chunk<T, Fixed> {
	entries: T[];
	fixed: Fixed;
	/** The first request this chunk was part of: halves of a refused request keep it. */
	origin: number;
	/** The refused request this chunk is a half of. */
	parent?: Split<T, Fixed>;
}

/** Halves refused like the whole, to fail together: what they share is the cause. */
interface SharedRefusal<T, Fixed> {
	chunk: Chunk<T, Fixed>;
	number: number;
	error: NodeApiError;
	cause: string;
}

const sameRefusal = (a: NodeApiError, b: NodeApiError) =>
	a.httpCode === b.httpCode && a.description === b.description;

export class RequestQueue<T, Fixed> {
	private readonly waiting: Array<Chunk<T, Fixed>>;

	/** Without continue-on-fail: the request whose failure stops the run; only its own halves still go. */
	private stoppedBy: number | undefined;

	constructor(
		entries: T[],
		{
			keyOf,
			maxPerRequest,
			fix,
		}: {
			keyOf: (entry: T) => string;
			maxPerRequest: number;
			/** Request-level choices made once per chunk and kept when it is split. */
			fix: (chunk: T[]) => Fixed;
		},
		/**
		 * When both halves of a refused request were refused like it: a phrase naming what their entries share,
		 * when no entry alone can cause that refusal; undefined when one could, and they are split further.
		 */
		private readonly sharedCause?: (
			entries: T[],
			fixed: Fixed,
			error: NodeApiError,
		) => string | undefined,
	) {
		this.waiting = chunkByKey(entries, keyOf, maxPerRequest).map((chunk, origin) => ({
			entries: chunk,
			fixed: fix(chunk),
			origin,
		}));
	}

	get size() {
		return this.waiting.length;
	}

	/** The next chunk to send; after the run was stopped, only the halves of the request that stopped it. */
	next(): Chunk<T, Fixed> | undefined {
		while (this.waiting.length > 0) {
			const chunk = this.waiting.shift()!;
			if (this.stoppedBy === undefined || chunk.origin === this.stoppedBy) return chunk;
		}
		return undefined;
	}

	/** No other request starts after this one's failure (its own halves still go). */
	stopAfter(chunk: Chunk<T, Fixed>) {
		this.stoppedBy ??= chunk.origin;
	}

	/** Halves of a refused request go first, so that a refused entry is found before other requests start. */
	split(chunk: Chunk<T, Fixed>, error: NodeApiError) {
		const half = Math.ceil(chunk.entries.length / 2);
		const parent: Split<T, Fixed> = { error, pending: 2, alike: [] };
		this.waiting.unshift(
			{ ...chunk, entries: chunk.entries.slice(0, half), parent },
			{ ...chunk, entries: chunk.entries.slice(half), parent },
		);
	}

	/**
	 * A request refused whole (nothing of it processed): split, or, for a half refused like its parent, held
	 * until its sibling is answered. Returns the halves that then fail together.
	 */
	refused(
		chunk: Chunk<T, Fixed>,
		number: number,
		error: NodeApiError,
	): Array<SharedRefusal<T, Fixed>> {
		if (chunk.parent && sameRefusal(error, chunk.parent.error))
			chunk.parent.alike.push({ chunk, number, error });
		else this.split(chunk, error);
		return this.answered(chunk);
	}

	/**
	 * A chunk was answered. Once both halves of a refused request are, halves refused like the whole are
	 * returned to fail together when what they share is the cause, and split further otherwise.
	 */
	answered(chunk: Chunk<T, Fixed>): Array<SharedRefusal<T, Fixed>> {
		const parent = chunk.parent;
		if (!parent || --parent.pending > 0) return [];
		const waiting = parent.alike;
		const cause =
			waiting.length === 2 && this.sharedCause
				? this.sharedCause(
						waiting.flatMap(({ chunk: half }) => half.entries),
						waiting[0].chunk.fixed,
						parent.error,
					)
				: undefined;
		if (cause) return waiting.map((half) => ({ ...half, cause }));
		for (const half of waiting) this.split(half.chunk, half.error);
		return [];
	}
}
