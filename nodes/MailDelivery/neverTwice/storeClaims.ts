/**
 * What the node keeps in n8n's deduplication store (its node row, which only this node writes), because it must
 * outlive the n8n process that made it. n8n's store answers only "was this entry there?", and only by recording it,
 * or tells how many entries a row holds; it keeps the newest entries and forgets the oldest first. So every fact here
 * is an entry whose presence is recorded by the one that makes it true, and whose recording as a question is harmless
 * or is what the asker does next anyway:
 *
 * - `c:<lineage>:<n>`: run n of an execution's lineage was claimed, by the execution itself or by a retry of it,
 *   before its first request. Recording it is the claim: a try that finds it there already does not send.
 * - `t:<tick>` and `h:<hour>:<copy>`: something was recorded in those 10 s, that hour. Entries are forgotten oldest
 *   first, so one such entry of a time before an execution began shows that nothing recorded since was forgotten
 *   (trustedSince). It is read by taking it out (a recorded question would put it back as if new), so each hour has
 *   two.
 * - `redo:<lineage>:<n>`: a retry with Redo After a Crash sends run n; another such retry sends nothing.
 */

/** The most entries n8n keeps in the node's row (as n8n's Remove Duplicates node keeps by default). */
export const MAX_ENTRIES = 10_000;

/** The store's finest time: something recorded within these 10 s lies before a lineage that began 10 s later. */
const TICK = 10_000;
const HOUR = 3_600_000;

/** Clocks move a little (NTP): a tick counts as before a time only by this much more. */
const CLOCK_MARGIN = 5_000;

/** How far back an hour's entry is looked for: n8n keeps executions 14 days by default (EXECUTIONS_DATA_MAX_AGE). */
const LOOK_BACK_HOURS = 14 * 24;

/** One row of n8n's store. */
export interface StoreRow {
	/** Records the entries, in order; true for each that was there already. */
	record(entries: string[]): Promise<boolean[]>;
	remove(entries: string[]): Promise<void>;
	/** How many entries the row holds. */
	count(): Promise<number>;
	/** Runs `calls` with no other call of this process on the row in between (a count before and after means it). */
	alone<T>(calls: (row: StoreRow) => Promise<T>): Promise<T>;
}

/** A run of the node in an execution's lineage. */
export interface LineageRun {
	lineage: string;
	run: number;
}

/** The entry of a run's claim. */
export const claimOf = ({ lineage, run }: LineageRun) => `c:${lineage}:${run}`;
const redoOf = ({ lineage, run }: LineageRun) => `redo:${lineage}:${run}`;
const hourOf = (time: number) => Math.floor(time / HOUR);
const hourEntries = (hour: number) => [`h:${hour}:0`, `h:${hour}:1`];
const tickOf = (time: number) => Math.floor(time / TICK);
const tickEntry = (tick: number) => `t:${tick}`;

/**
 * Claims the run: false when a try claimed it before. The tick's and the hour's entries go first, so that they lie
 * before the claim in the row.
 */
export async function claim(row: StoreRow, run: LineageRun, now: number): Promise<boolean> {
	const answers = await row.record([
		...hourEntries(hourOf(now)),
		tickEntry(tickOf(now)),
		claimOf(run),
	]);
	return !answers[3];
}

/** Takes back a claim just made (the claimer refuses after all): it said nothing true. */
export async function unclaim(row: StoreRow, run: LineageRun) {
	await row.remove([claimOf(run)]);
}

/**
 * Whether the row never forgot an entry: n8n forgets the oldest only once it holds MAX_ENTRIES, and the node takes
 * out only what it added a moment before (a request's pending mark) or, rarely, an hour's entry (trustedSince): far
 * fewer than half as many.
 */
export async function neverForgot(row: StoreRow): Promise<boolean> {
	return (await row.count()) < MAX_ENTRIES / 2;
}

/** Whether the entry is there; asking records it, so only for an entry that is true (a run claimed). */
export async function holds(row: StoreRow, entry: string) {
	const [there] = await row.record([entry]);
	return there;
}

/** Claims the run for a redo: false when another redo of the lineage holds it. */
export async function claimRedo(row: StoreRow, run: LineageRun): Promise<boolean> {
	const [recordedBefore] = await row.record([redoOf(run)]);
	return !recordedBefore;
}

/**
 * Whether nothing the row held since `since` (an execution's beginning) was forgotten: an entry of 10 s or an hour
 * that ended before it is still there. Found by taking entries out (a count before and after): the 10 s before, the
 * hour of them before that, then hours, the newest first, then a day at a time for 14 days; each hour has two
 * entries, so a later look finds the other. A row that never held one (the node never ran before `since` under this
 * ID: new, or pasted again since) cannot show it. Call it alone on the row (StoreRow.alone): a count before and after
 * tells what the call between did only then.
 */
export async function trustedSince(row: StoreRow, since: number): Promise<boolean> {
	const newestTick = tickOf(since - CLOCK_MARGIN) - 1;
	const newest = hourOf(since - CLOCK_MARGIN) - 1;
	let before = await row.count();
	if (before === 0) return false;
	const found = async (entries: string[]) => {
		await row.remove(entries);
		const after = await row.count();
		const there = after < before;
		before = after;
		return there;
	};
	if (await found([tickEntry(newestTick)])) return true;
	const ticks = Array.from({ length: HOUR / TICK - 1 }, (_, tick) =>
		tickEntry(newestTick - 1 - tick),
	);
	if (await found(ticks)) return true;
	for (const copy of [0, 1]) if (await found([hourEntries(newest)[copy]])) return true;
	for (let day = 0; day < LOOK_BACK_HOURS / 24; day++) {
		const hours = Array.from({ length: 24 }, (_, hour) => newest - 1 - day * 24 - hour);
		for (const copy of [0, 1])
			if (await found(hours.map((hour) => hourEntries(hour)[copy]))) return true;
	}
	return false;
}
