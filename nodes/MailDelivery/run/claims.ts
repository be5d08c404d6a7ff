/**
 * Claims of runs in n8n's deduplication store, the node's row of it: a list of entries that every execution reads
 * and writes at once, newest last, the oldest pushed out past MAX_CLAIMS (n8n keeps that many, as its Remove
 * Duplicates node does). Only presence can be asked, by recording an entry. docs/reliability.md says why these
 * rules keep "never twice" (the proof sketch); in short:
 *
 * - A run's claim is `run:<lineage>:<n>`. The first try to record it is its owner; any other try finds it there.
 * - What a row says is trusted only where the row proves that nothing it should hold was pushed out, and that it is
 *   the row every try of the lineage wrote: by an entry written before anything it vouches for (the row keeps
 *   entries in the order they came, and pushes out the oldest first, so an entry still there proves that every
 *   later one is). A retry that goes on from a run its saved data knows checks that run's own claim; one that
 *   knows none checks a marker of a period that had ended before its lineage began (every claim first adds the
 *   marker of its 10 minutes, hour and day). Never a count of entries, never a marker of a period that was not over.
 * - A retry that will send unless its run is taken records `retried:<lineage>:<n>` with its claim, so that an
 *   execution that is not a retry (the one retried while it still ran or waited) can tell that a retry took its run
 *   and sends it; a retry that will not send (it cannot vouch) leaves no mark, and that execution sends. The node's
 *   row may push that mark out before the execution comes back (it waited while the node ran 5,000 times), so a
 *   retry that owns its run records the mark again in the workflow's row (the store's other scope), which nothing
 *   of this package fills: an execution that finds its run free looks there before it sends.
 * - Each write carries a one-time entry, read back after it: two n8n processes writing the row at once lose one
 *   write, and the loser writes again.
 */
import { randomUUID } from 'node:crypto';

/** The most entries n8n keeps for the node, as n8n's Remove Duplicates node keeps by default. */
export const MAX_CLAIMS = 10_000;

/** n8n's store as the claims use it: one row. */
export interface ClaimRow {
	/** Records the entries, in order; true for each that was there already. */
	record(entries: string[]): Promise<boolean[]>;
	remove(entries: string[]): Promise<void>;
	/** How many entries the row holds. */
	count(): Promise<number>;
}

const MINUTE_MS = 60_000;
/** Periods whose markers claims leave, and how many of each a retry looks back over. */
const PERIODS = [
	{ name: 'ten-minutes', ms: 10 * MINUTE_MS, lookBack: 12 },
	{ name: 'hour', ms: 60 * MINUTE_MS, lookBack: 24 },
	{ name: 'day', ms: 24 * 60 * MINUTE_MS, lookBack: 35 },
];

const markersAt = (time: number) =>
	PERIODS.map(({ name, ms }) => `${name}:${Math.floor(time / ms)}`);

/** Markers of periods that had ended by `time`: each was written (or written again) before `time`. */
const markersBefore = (time: number) =>
	PERIODS.flatMap(({ name, ms, lookBack }) =>
		Array.from({ length: lookBack }, (_, back) => `${name}:${Math.floor(time / ms) - 1 - back}`),
	);

const claimOf = (lineage: string, run: number) => `run:${lineage}:${run}`;
const retryMarkOf = (lineage: string, run: number) => `retried:${lineage}:${run}`;

export interface Claim {
	lineage: string;
	run: number;
	retry: boolean;
	/**
	 * For a retry: what proves the row holds every claim made since the point it goes on from: the claim of the last
	 * run its saved data knows, or, knowing none, a marker from before `lineageStart`.
	 */
	evidence?: Evidence;
	/** A retry that will send unless the run is taken: marks it, so that the execution it retries does not send. */
	mark?: boolean;
}

type Evidence = { previousRun: number } | { lineageStart: number };

interface Claimed {
	/** Another try recorded this run's claim first. */
	taken: boolean;
	/** Of a try that is not a retry: the one that took the run was a retry that sends. */
	takenByRetry: boolean;
	/** The row still held the evidence as the claim was written. */
	stillVouched: boolean;
}

/** How many times a write lost to another process's is made again before the claim counts as taken. */
const MAX_WRITES = 3;

const probesOf = (lineage: string, evidence: Evidence | undefined) =>
	evidence === undefined
		? []
		: 'previousRun' in evidence
			? [claimOf(lineage, evidence.previousRun)]
			: markersBefore(evidence.lineageStart);

/**
 * Records `entries` after the current markers and `probes`, with a one-time entry read back after: whether each
 * entry was there, whether any probe was, and whether the write stayed. A probe that was not there leaves again: a
 * marker written now would vouch for what came before it.
 */
async function write(row: ClaimRow, now: number, probes: string[], entries: string[]) {
	const once = `once:${randomUUID()}`;
	const there = await row.record([...markersAt(now), ...probes, ...entries, once]);
	const probed = there.slice(PERIODS.length, PERIODS.length + probes.length);
	const absent = probes.filter((_, index) => !probed[index]);
	if (absent.length > 0) await row.remove(absent);
	return {
		there: there.slice(PERIODS.length + probes.length),
		vouched: probes.length === 0 || probed.some(Boolean),
		stuck: (await row.record([once]))[0],
	};
}

/** Whether the row holds the evidence: the retry's look before it decides whether it would send. */
export async function vouches(row: ClaimRow, lineage: string, evidence: Evidence, now: number) {
	return (await write(row, now, probesOf(lineage, evidence), [])).vouched;
}

/**
 * Whether `marks` (the workflow's row) holds the mark; false when it holds nothing, without a write. A row another
 * node keeps in another mode cannot be read: then the node's row is all there is to go by.
 */
async function markedIn(marks: ClaimRow, mark: string) {
	try {
		if ((await marks.count()) === 0) return false;
		const there = (await marks.record([mark]))[0];
		if (!there) await marks.remove([mark]);
		return there;
	} catch {
		return false;
	}
}

/**
 * Claims the run in the node's `row`. `marks`, the workflow's row, keeps the marks of retries that took a run for as
 * long as the execution they retried may come back (without it, only as long as the node's row keeps them).
 */
export async function claimRun(
	row: ClaimRow,
	claim: Claim,
	now: number,
	marks?: ClaimRow,
): Promise<Claimed> {
	const { lineage, run, retry } = claim;
	const mark = retryMarkOf(lineage, run);
	const entries = [claimOf(lineage, run), ...(claim.mark ? [mark] : [])];
	const probes = probesOf(lineage, claim.evidence);
	let written = await write(row, now, probes, entries);
	for (let attempt = 1; !written.stuck && attempt < MAX_WRITES; attempt++)
		written = await write(row, now, probes, entries);
	// A claim that would not stay cannot be told apart from one another try took.
	const taken = written.there[0] || !written.stuck;
	let takenByRetry = false;
	if (retry) {
		// Before the retry sends: recorded where the node's later runs do not push it out.
		if (claim.mark && !taken && written.vouched && marks)
			await marks.record([mark]).catch(() => undefined);
	} else if (taken) {
		takenByRetry = (await row.record([mark]))[0] || !written.stuck;
		if (!takenByRetry) await row.remove([mark]);
	} else if (marks) takenByRetry = await markedIn(marks, mark);
	return { taken, takenByRetry, stillVouched: written.vouched };
}
