/**
 * Whether a retried execution may send what the execution it retries may have sent without saving a record of
 * it. n8n's Retry (executions list, REST API) starts a new execution, in mode "retry", from what the execution
 * it retries saved: the nodes' context data (with the run's ledger, ledger.ts) as it was when n8n last saved
 * it. When n8n crashed, restarted or was stopped after that, the node may have sent more than that record says.
 *
 * So every run of an operation that changes something claims, before its first request, that it started: in
 * n8n's deduplication store (a database row per node, written at once, that every later execution reads),
 * under the execution's lineage (n8n's execution context, which it carries into every retry, or one of the
 * node's own kept with its context) and the run's number in that lineage, which the context data counts. A
 * retry claims the number after the last one its saved context knows: when an earlier try already claimed
 * it, that try started the node after n8n's last save (it crashed, or another retry of the same execution
 * went on from there), and what it sent is unknown. Then every item the ledger does not account for fails,
 * saying so, unless Options → Redo After a Crash (repeatOnRetry) is on; the context keeps that verdict, so a retry of that retry
 * is refused again. The store keeps the newest MAX_CLAIMS entries of a node: a claim may be pushed out by
 * later runs. Hourly markers claimed beside the claims tell when that may have happened; then the retry
 * cannot tell either, and refuses.
 */
import { randomUUID } from 'node:crypto';
import type {
	ICheckProcessedOptions,
	IContextObject,
	IExecuteFunctions,
	INode,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The most entries n8n keeps for the node, as n8n's Remove Duplicates node keeps by default. */
export const MAX_CLAIMS = 10_000;
const STORE: ICheckProcessedOptions = { mode: 'entries', maxEntries: MAX_CLAIMS };
const HOUR_MS = 3_600_000;
/** How far before a run's last known claim a marker still proves that no later claim was pushed out. */
const MARKER_HOURS = 24;
/** Re-reads of a claim after writing it: another process may have written the row in between. */
const MAX_VERIFICATIONS = 3;

/** What the node's context data knows of its runs in this execution's lineage (saved with the execution). */
interface RunHistory {
	lineage: string;
	/** Runs of the node started in the lineage, as far as this execution's data knows. */
	runs: number;
	/** When the last of them was claimed. */
	claimedAt?: number;
	/** An earlier try of the lineage started the node beyond what this data records, or that cannot be told. */
	unknownEarlier?: boolean;
}

const HISTORY_KEY = 'runHistory';

/** Whether this run may send: `refusal` makes the error of each item an earlier try may have sent. */
export type RetryCheck =
	{ send: true } | { send: false; refusal: (itemIndex: number) => NodeOperationError };

/** Claims against the node's row run one at a time in this process (n8n reads and writes the row whole). */
const rowQueues = new Map<string, Promise<unknown>>();

async function serialized<T>(context: IExecuteFunctions, work: () => Promise<T>): Promise<T> {
	const key = `${String(context.getWorkflow().id)}:${context.getNode().id}`;
	const queued = (rowQueues.get(key) ?? Promise.resolve()).then(work, work);
	const settled = queued.catch(() => undefined);
	rowQueues.set(key, settled);
	try {
		return await queued;
	} finally {
		if (rowQueues.get(key) === settled) rowQueues.delete(key);
	}
}

const markerOf = (time: number) => `hour:${Math.floor(time / HOUR_MS)}`;

/** Records the entries; true for each that was there already. */
async function record(context: IExecuteFunctions, entries: string[]): Promise<boolean[]> {
	const { processed } = await context.helpers.checkProcessedAndRecord(entries, 'node', STORE);
	const there = new Set(processed.map(String));
	return entries.map((entry) => there.has(entry));
}

/**
 * Claims a run, with the marker of the current hour. Returns whether an earlier try claimed it already and,
 * when `since` is given (a retry), whether claims made since then may have been pushed out of the store:
 * only once the store is full, and then unless a marker of the 24 hours up to `since` is still there
 * (everything claimed after a marker still is). The markers are looked up in the same write as the claim,
 * before it pushes anything out; those that were not there are taken out again and the row refilled to its
 * size, so that the look-up leaves no marker behind and a full row stays full.
 */
async function claim(
	context: IExecuteFunctions,
	entry: string,
	since?: number,
): Promise<{ claimedBefore: boolean; mayHaveForgotten: boolean }> {
	const current = markerOf(Date.now());
	const full =
		since !== undefined &&
		(await context.helpers.getProcessedDataCount('node', STORE)) >= MAX_CLAIMS;
	const markers = full
		? Array.from({ length: MARKER_HOURS }, (_, back) => markerOf(since - back * HOUR_MS))
		: [];
	const looked = markers.filter((marker) => marker !== current);
	const there = await record(context, [entry, current, ...looked]);
	const claimedBefore = there[0];
	const markerThere = (marker: string) =>
		marker === current ? there[1] : there[2 + looked.indexOf(marker)];
	const added = looked.filter((_, index) => !there[2 + index]);
	if (added.length > 0) {
		await context.helpers.removeProcessed(added, 'node', STORE);
		await record(
			context,
			added.map(() => `filler:${randomUUID()}`),
		);
	}
	// Two processes (queue mode) writing the row at once: one write is lost. Read back until it stays.
	for (let check = 0; !claimedBefore && check < MAX_VERIFICATIONS; check++)
		if ((await record(context, [entry]))[0]) break;
	return { claimedBefore, mayHaveForgotten: full && !markers.some(markerThere) };
}

/** The lineage of this execution: its saved history's, n8n's (2.x), or, in a new execution, a new one. */
function lineageOf(context: IExecuteFunctions, history: RunHistory | undefined, retry: boolean) {
	if (history) return history.lineage;
	const established = context.getExecutionContext?.();
	// A context made for this very retry (source "retry") means n8n lost the one it retries.
	if (established?.establishedAt !== undefined && established.source !== 'retry')
		return `n8n:${established.establishedAt}`;
	return retry ? undefined : `node:${randomUUID()}`;
}

function nodeContext(context: IExecuteFunctions): IContextObject {
	try {
		return context.getContext('node');
	} catch {
		// No execution context data (a node run outside a workflow execution): nothing to keep.
		return {};
	}
}

/**
 * Claims this run of the node and says whether it may send. `recordFits`: the run's ledger record, if an
 * earlier try left one, belongs to this operation and input (a retry with a changed workflow cannot use it).
 */
export async function checkRetry(
	context: IExecuteFunctions,
	node: INode,
	{ recordFits, repeatOnRetry }: { recordFits: boolean; repeatOnRetry: boolean },
): Promise<RetryCheck> {
	const store = nodeContext(context);
	const retry = context.getMode() === 'retry';
	const saved = store[HISTORY_KEY] as RunHistory | undefined;
	const lineage = lineageOf(context, saved, retry);
	let unknown = saved?.unknownEarlier === true || (retry && (!lineage || !recordFits));
	if (lineage) {
		const history: RunHistory = saved ?? { lineage, runs: 0 };
		const runs = history.runs + 1;
		const since = history.claimedAt ?? context.getExecutionContext?.()?.establishedAt ?? 0;
		const claimed = await serialized(
			context,
			async () => await claim(context, `run:${lineage}:${runs}`, retry ? since : undefined),
		);
		if (retry) unknown ||= claimed.claimedBefore || claimed.mayHaveForgotten;
		history.runs = runs;
		history.claimedAt = Date.now();
		if (unknown) history.unknownEarlier = true;
		store[HISTORY_KEY] = history;
	}
	if (!retry || repeatOnRetry || !unknown) return { send: true };
	return { send: false, refusal: (itemIndex) => mayHaveBeenSent(node, itemIndex, !!lineage) };
}

function mayHaveBeenSent(node: INode, itemIndex: number, lineageKnown: boolean) {
	return new NodeOperationError(
		node,
		'Not sent: the execution this one retries may have sent it already',
		{
			itemIndex,
			description: [
				lineageKnown
					? 'An earlier try of that execution started sending from this node after n8n last saved what it sent (n8n crashed, restarted or was stopped, or another retry of the same execution went on from there).'
					: 'n8n kept no record of that execution from this node on (it crashed, restarted or was stopped), so whether it sent this item cannot be told.',
				'So that nothing goes out twice, nothing was sent. Check what the platform received (Get Stats, or the events of a Mail Delivery Trigger), then send what is missing, or turn on Options → Redo After a Crash to send it again.',
			].join(' '),
		},
	);
}
