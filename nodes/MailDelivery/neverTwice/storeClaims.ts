/**
 * The two facts the node keeps in n8n's deduplication store, because they must outlive the n8n process that made
 * them. n8n's store answers only "was this entry there?", and only by recording it; so the node never asks about an
 * entry it would not want recorded (a look at an absent entry that n8n killed half-way would leave it there, saying
 * what never happened). Each fact is therefore recorded by the one that makes it true, and read either by recording
 * it (a claim: first to record it holds it) or by taking it out (a read that leaves nothing behind):
 *
 * - `took:<lineage>:<n>`: a retry took run n of an execution that may come back to the node (it waited, or still
 *   ran), and sends it. That execution, coming back, takes the entry out and finds it there (after n8n restarted
 *   too: the process's record, processRecord.ts, is gone then).
 * - `redo:<lineage>:<n>`: a retry with Redo After a Crash sends run n; another such retry of the same execution
 *   finds it and sends nothing (also after a restart).
 * Both in the node's row (by its ID), which only this node writes: nothing of the user's is in it (n8n's Remove
 * Duplicates node keeps its own rows), and nothing else pushes them out. An ordinary run reads the row's count only;
 * the row holds entries only after a retry took or redid a run.
 *
 * Across n8n processes (queue mode) n8n's store may lose a write (it reads a row, changes it in memory and writes it
 * back whole): there these facts may be lost, which docs/reliability.md says.
 */

/** The most entries n8n keeps per row, as n8n's Remove Duplicates node keeps by default. */
export const MAX_ENTRIES = 10_000;

/** One row of n8n's store. */
export interface StoreRow {
	/** Records the entries, in order; true for each that was there already. */
	record(entries: string[]): Promise<boolean[]>;
	remove(entries: string[]): Promise<void>;
	/** How many entries the row holds. */
	count(): Promise<number>;
}

/** A run of the node in an execution's lineage. */
export interface RunName {
	lineage: string;
	run: number;
}

const tookOf = ({ lineage, run }: RunName) => `took:${lineage}:${run}`;
const redoOf = ({ lineage, run }: RunName) => `redo:${lineage}:${run}`;

/** A retry takes the run of an execution that may come back: recorded before its first request. */
export async function recordTakeOver(row: StoreRow, run: RunName) {
	await row.record([tookOf(run)]);
}

/**
 * Whether a retry took this run (its execution comes back to the node): read by taking the entry out, and only when
 * the row holds anything at all (one count, the usual case: no retry ever took or redid a run of this node).
 */
export async function takenOver(row: StoreRow, run: RunName): Promise<boolean> {
	const before = await row.count();
	if (before === 0) return false;
	await row.remove([tookOf(run)]);
	return (await row.count()) < before;
}

/** Claims the run for a redo: false when another redo of the lineage holds it. */
export async function claimRedo(row: StoreRow, run: RunName): Promise<boolean> {
	const [recordedBefore] = await row.record([redoOf(run)]);
	return !recordedBefore;
}
