/**
 * What this n8n process saw of the node's runs since it started: which try claimed which run of an execution's
 * lineage, whether it sends, and whether it ended in a way that ends its execution (it threw, or the execution was
 * stopped). Kept in memory, so it is exact and every change is atomic (JavaScript runs one thing at a time), and it
 * is lost when the process ends: another process, or this one after a restart, has a record of its own.
 *
 * That is what lets a retry show that it is alone without an atomic store, which n8n does not give a community node
 * (docs/reliability.md): a retry that finds here that the try whose run its data goes on from ended in this very
 * process knows that (1) that execution will run the node no further, and (2) any other retry that could send the
 * same items either runs here, where this record orders them, or runs in another process, which has no such record
 * and refuses.
 */

/** A run of the node in an execution's lineage, as this process saw it claimed. */
interface RunSeenHere {
	/** The try that claimed it is a retry (n8n's Retry), not the execution itself. */
	byRetry: boolean;
	/** That try sends (or sent) the run's items. */
	sends: boolean;
	/** Its execution ends with that try: the node threw, or the execution was stopped. */
	ended: boolean;
}

/**
 * Runs kept at most: the oldest are forgotten first (a retry of one then cannot show it is alone, and refuses). A
 * run is a few dozen bytes: a busy n8n keeps the last day or more in a few MiB.
 */
const MAX_RUNS_SEEN = 100_000;

const runsSeen = new Map<string, RunSeenHere>();

/**
 * When this process loaded the node: what happened before, it did not see (n8n loads the package as it starts, and
 * again when it is updated; a later load only makes the record shorter, which is the safe side).
 */
export const SEEN_SINCE = Date.now();

const keyOf = (row: string, lineage: string, run: number) => `${row}|${lineage}|${run}`;

/** When this process first saw a run of each node (by workflow and node ID) claimed. */
const firstRuns = new Map<string, number>();

/** When this process first saw a run of the node claimed; undefined if never. */
export const firstRunHere = (row: string) => firstRuns.get(row);

export function seenHere(row: string, lineage: string, run: number): RunSeenHere | undefined {
	return runsSeen.get(keyOf(row, lineage, run));
}

/** Records the claim of a run; the caller has checked that no other try holds it. */
export function claimHere(row: string, lineage: string, run: number, claim: RunSeenHere) {
	if (!firstRuns.has(row)) firstRuns.set(row, Date.now());
	runsSeen.set(keyOf(row, lineage, run), claim);
	if (runsSeen.size > MAX_RUNS_SEEN) runsSeen.delete(runsSeen.keys().next().value!);
}

/** The try that claimed the run ended its execution. */
export function endedHere(row: string, lineage: string, run: number) {
	const seen = runsSeen.get(keyOf(row, lineage, run));
	if (seen) seen.ended = true;
}
