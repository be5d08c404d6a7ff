/**
 * Whether a run of an operation that changes something may send, against every other try of its execution. n8n's
 * Retry (executions list, REST API) starts a new execution, in mode "retry", from what the execution it retries
 * saved (the nodes' context data, with the run's ledger, ledger.ts), also while that execution still runs or waits,
 * and twice when Retry is pressed twice; n8n may have crashed, restarted or been stopped after that save. The tries of
 * one execution and its retries form a lineage; each run of the node claims the next number in it before its first
 * request (the context data counts the runs its data knows).
 *
 * What decides is this n8n process's record of the runs it saw (processRecord.ts): exact, and no other process has
 * it. The verdict, first row that applies (docs/reliability.md says why each holds):
 *
 * | the execution itself (not a retry) | a retry took this run (its data, this process, or the store) | refuse (retryWentFirst) |
 * | the execution itself               | otherwise                                        | send                     |
 * | a retry                            | another retry sends this run (seen here)         | refuse (retrySends)      |
 * | a retry with Redo After a Crash    | another redo holds this run (the store)          | refuse (retrySends)      |
 * | a retry with Redo After a Crash    | otherwise                                        | send                     |
 * | a retry                            | its data holds a refusal                         | refuse (inDoubt)         |
 * | a retry                            | another try took this run (seen here)            | refuse (taken)           |
 * | a retry                            | not shown alone (below)                          | refuse (notShownAlone)   |
 * | a retry                            | otherwise                                        | send                     |
 *
 * Shown alone: the try whose run the retry's data goes on from ended its execution in this process (it threw, or
 * the execution was stopped): that execution runs the node no further, and any other retry that could send the same
 * items runs here, where the record orders them, or in another process, which has no such record and refuses. With
 * Options → One Process (the user says no other process exists), also: everything the data goes on from
 * happened in this process since it started (its run was claimed here, or the execution began after it started),
 * and a retry that takes the run of an execution that may come back records so in n8n's store first
 * (storeClaims.ts), where that execution looks when it comes back after a restart.
 *
 * The context data keeps a refusal's verdict (inDoubt), so that a retry of a refused retry is refused again.
 */
import { createHash, randomUUID } from 'node:crypto';
import type {
	ICheckProcessedOptions,
	IContextObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { claimHere, endedHere, firstRunHere, SEEN_SINCE, seenHere } from './processRecord';
import {
	claimRedo,
	MAX_ENTRIES,
	recordTakeOver,
	type RunName,
	type StoreRow,
	takenOver,
} from './storeClaims';

const STORE: ICheckProcessedOptions = { mode: 'entries', maxEntries: MAX_ENTRIES };

/** What the node's context data knows of its runs in this execution's lineage (saved with the execution). */
interface RunHistory {
	lineage: string;
	/** Runs of the node claimed in the lineage, as far as this execution's data knows. */
	runs: number;
	/** A try of this data refused: what an earlier try sent cannot be told, for this try's retries either. */
	inDoubt?: true;
	/** The execution itself lost a run to its retry: its later runs are the retry's too. */
	lostToRetry?: true;
}

const HISTORY_KEY = 'runHistory';

/** Why a run does not send. */
type Refusal = 'noRecord' | 'inDoubt' | 'taken' | 'notShownAlone' | 'retrySends' | 'retryWentFirst';

/**
 * Whether this run may send: `refusal` makes the error of each item an earlier try may have sent, with what the
 * platform's events call the request it would have been in (`eventsName`) and how many items are refused.
 */
export type RetryCheck =
	| { send: true }
	| {
			send: false;
			refusal: (itemIndex: number, eventsName?: string, refused?: number) => NodeOperationError;
	  };

interface RetryOptions {
	/** The run's ledger record, if an earlier try left one, belongs to this operation and input. */
	recordFits: boolean;
	/** Options → Redo After a Crash. */
	repeatOnRetry: boolean;
	/** Options → One Process: the user says n8n runs as one process. */
	oneProcess: boolean;
}

/** One try of a run: what its data says and what it claims. */
interface Try {
	retry: boolean;
	saved?: RunHistory;
	lineage: string;
	run: number;
	redo: boolean;
	/** A refusal its data already holds, or a record it cannot use. */
	inDoubt: boolean;
}

/**
 * Claims this run of the node and says whether it may send, before its first request. The claim is written into
 * the node's context data before this returns, so that n8n saves it with the execution whatever follows.
 */
export async function checkRetry(
	context: IExecuteFunctions,
	node: INode,
	options: RetryOptions,
): Promise<RetryCheck> {
	const data = nodeContext(context);
	const retry = context.getMode() === 'retry';
	const saved = historyOf(data);
	const lineage = lineageOf(context, saved, retry);
	let refusal: Refusal | undefined = 'noRecord';
	if (lineage !== undefined) {
		const run: Try = {
			retry,
			saved,
			lineage,
			run: (saved?.runs ?? 0) + 1,
			redo: options.repeatOnRetry,
			inDoubt: retry && (saved?.inDoubt === true || !options.recordFits),
		};
		refusal = await serialized(context, async () =>
			retry ? await retryVerdict(context, run, options.oneProcess) : await ownVerdict(context, run),
		);
		data[HISTORY_KEY] = {
			lineage,
			runs: run.run,
			...(refusal || run.inDoubt ? { inDoubt: true } : {}),
			...(refusal === 'retryWentFirst' ? { lostToRetry: true } : {}),
		} satisfies RunHistory;
	}
	if (!refusal) return { send: true };
	const why = refusal;
	return {
		send: false,
		refusal: (itemIndex, eventsName, refused) =>
			notSent(node, itemIndex, why, { eventsName, refused }),
	};
}

/**
 * The run's name in its execution: its lineage and number, the same in every try of the run (after checkRetry).
 * A run with no claim (nothing it does is kept for a retry) has a name of its own.
 */
export function runName(context: IExecuteFunctions) {
	const saved = historyOf(nodeContext(context));
	return saved ? `${saved.lineage}:${saved.runs}` : `unclaimed:${randomUUID()}`;
}

/**
 * The node's run ended. When it threw, or the execution was stopped, its execution runs the node no further (but
 * for n8n's Retry On Fail, which claims its next run here, in this process): a retry of it may then show here that
 * it is alone.
 */
export function runEnded(context: IExecuteFunctions, { threw }: { threw: boolean }) {
	const saved = historyOf(nodeContext(context));
	const stopped = context.getExecutionCancelSignal?.()?.aborted === true;
	if (saved && (threw || stopped)) endedHere(rowKey(context), saved.lineage, saved.runs);
}

/** The execution itself: it sends unless a retry of it took this run (or an earlier one of its runs). */
async function ownVerdict(context: IExecuteFunctions, run: Try): Promise<Refusal | undefined> {
	if (run.redo) {
		claim(context, run);
		return undefined;
	}
	const seen = seenHere(rowKey(context), run.lineage, run.run);
	if (run.saved?.lostToRetry || (seen?.byRetry && seen.sends)) return 'retryWentFirst';
	// After a restart this process has no record of a retry that took the run before it: n8n's store has.
	if (await takenOver(nodeRow(context), storeName(run)).catch(() => false)) return 'retryWentFirst';
	claim(context, run);
	return undefined;
}

async function retryVerdict(
	context: IExecuteFunctions,
	run: Try,
	oneProcess: boolean,
): Promise<Refusal | undefined> {
	const row = rowKey(context);
	const seen = seenHere(row, run.lineage, run.run);
	if (seen?.byRetry && seen.sends) return 'retrySends';
	if (run.redo) {
		// What a redo sent is kept where a restart does not lose it (in queue mode n8n's store may still lose it).
		const free = await claimRedo(nodeRow(context), storeName(run)).catch(() => true);
		if (!free) return 'retrySends';
		claim(context, run);
		return undefined;
	}
	if (run.inDoubt) return 'inDoubt';
	if (seen) return 'taken';
	const before = run.saved && seenHere(row, run.lineage, run.saved.runs);
	const alone =
		before?.ended === true || (oneProcess && (before !== undefined || begunHere(context, run)));
	if (!alone) return 'notShownAlone';
	// An execution that did not end here may come back to the node: it finds this in the store.
	if (oneProcess && !before?.ended) await recordTakeOver(nodeRow(context), storeName(run));
	claim(context, run);
	return undefined;
}

/**
 * The execution began after this process started, and its data knows no run of the node: all of it was seen here.
 * And this node (by its ID) ran here before the execution began: it is the node the execution runs, not one pasted
 * again since (a new ID, which the execution, coming back, would not look under).
 */
function begunHere(context: IExecuteFunctions, run: Try) {
	const established = n8nLineage(context);
	const firstRun = firstRunHere(rowKey(context));
	return (
		run.saved === undefined &&
		established !== undefined &&
		established > SEEN_SINCE &&
		firstRun !== undefined &&
		firstRun < established
	);
}

function claim(context: IExecuteFunctions, run: Try) {
	if (!seenHere(rowKey(context), run.lineage, run.run))
		claimHere(rowKey(context), run.lineage, run.run, {
			byRetry: run.retry,
			sends: true,
			ended: false,
		});
}

const storeName = (run: Try): RunName => ({ lineage: run.lineage, run: run.run });

/**
 * The lineage the run claims in: its data's; else one its execution and any retry of it name alike before either ran
 * the node (a retry must find the runs its execution makes later): n8n's (2.x), with what the trigger gave it.
 */
function lineageOf(context: IExecuteFunctions, saved: RunHistory | undefined, retry: boolean) {
	if (saved) return saved.lineage;
	const established = n8nLineage(context);
	const trigger = established === undefined ? undefined : triggerFingerprint(context);
	if (trigger !== undefined) return `n8n:${established}:${trigger}`;
	// A retry that cannot name its execution's lineage as the execution did cannot find its runs.
	return retry ? undefined : `node:${randomUUID()}`;
}

/**
 * What the execution's trigger gave it (a retry keeps it: n8n does not run the trigger again), so that two
 * executions n8n started in the same millisecond have lineages of their own: n8n's lineage is a time.
 */
function triggerFingerprint(context: IExecuteFunctions) {
	const trigger = context.getExecutionContext?.()?.triggerNode?.name;
	if (trigger === undefined) return undefined;
	try {
		const items = context.getWorkflowDataProxy(0).$(trigger).all() as INodeExecutionData[];
		const hash = createHash('sha256').update(trigger);
		for (const item of items) hash.update(JSON.stringify(item.json));
		return hash.digest('hex').slice(0, 16);
	} catch {
		// The trigger is not in this workflow (renamed or deleted since the execution began).
		return undefined;
	}
}

/** n8n's lineage of this execution (2.x), unless n8n made it for this very retry (it lost the one retried). */
function n8nLineage(context: IExecuteFunctions) {
	const established = context.getExecutionContext?.();
	return established?.establishedAt !== undefined && established.source !== 'retry'
		? established.establishedAt
		: undefined;
}

function historyOf(data: IContextObject): RunHistory | undefined {
	const saved = data[HISTORY_KEY] as (RunHistory & { unknownEarlier?: boolean }) | undefined;
	// Saved by the node before this version: its one flag meant either.
	if (saved?.unknownEarlier) return { ...saved, inDoubt: true, lostToRetry: true };
	return saved;
}

function nodeContext(context: IExecuteFunctions): IContextObject {
	try {
		return context.getContext('node');
	} catch {
		// No execution context data (a node run outside a workflow execution): nothing to keep.
		return {};
	}
}

const rowKey = (context: IExecuteFunctions) =>
	`${String(context.getWorkflow().id)}:${context.getNode().id}`;

/** The node's row of n8n's deduplication store. */
function nodeRow(context: IExecuteFunctions): StoreRow {
	return {
		record: async (entries) => {
			const { processed } = await context.helpers.checkProcessedAndRecord(entries, 'node', STORE);
			const recordedBefore = new Set(processed.map(String));
			return entries.map((entry) => recordedBefore.has(entry));
		},
		remove: async (entries) => await context.helpers.removeProcessed(entries, 'node', STORE),
		count: async () => await context.helpers.getProcessedDataCount('node', STORE),
	};
}

/** The node's verdicts, one at a time per node in this process (n8n reads and writes its row whole). */
const nodeQueues = new Map<string, Promise<unknown>>();

async function serialized<T>(context: IExecuteFunctions, work: () => Promise<T>): Promise<T> {
	const key = rowKey(context);
	const queued = (nodeQueues.get(key) ?? Promise.resolve()).then(work, work);
	const settled = queued.catch(() => undefined);
	nodeQueues.set(key, settled);
	try {
		return await queued;
	} finally {
		if (nodeQueues.get(key) === settled) nodeQueues.delete(key);
	}
}

const REDO =
	'turn on Options → Redo After a Crash to send it again: every item the record of that execution does not show as sent goes out again, also to recipients who may have it already';

const WHY: Record<Refusal, string> = {
	noRecord:
		"That execution's saved data shows nothing of this node, and this retry cannot name its runs as the execution would (n8n 1.x, or the trigger was renamed or deleted since), so whether it sent this item cannot be told.",
	inDoubt:
		'An earlier retry of it refused this item already: an earlier try may have sent it after n8n last saved what it sent, and that stays so for every retry of it.',
	taken:
		'Another try of that execution started sending from this node after n8n last saved what it sent (n8n crashed, restarted or was stopped, or another retry of the same execution went on from there).',
	notShownAlone:
		'That execution did not fail in this node in this n8n process since the process started (n8n restarted since, the execution ran in another n8n process, failed before this node or had not ended), so nothing shows that no other try of it sends this item: where n8n runs several processes (queue mode), its store cannot show that.',
	retrySends:
		'Another retry of that execution already sends from this node (Retry pressed twice, or again with Redo After a Crash): the items are its to send (see that execution).',
	retryWentFirst:
		'Retry was pressed on this execution while it was still running or waiting, and that retry has already started sending from this node: the items are its to send (see that execution).',
};

/** What to do, after the reason. */
function remedy(refusal: Refusal) {
	if (refusal === 'retryWentFirst')
		return 'So that nothing goes out twice, this execution sent nothing from this node. Turn on Options → Redo After a Crash to send from both.';
	if (refusal === 'retrySends') return 'So that nothing goes out twice, nothing was sent.';
	const oneProcess =
		refusal === 'notShownAlone'
			? " If this n8n runs as one process (regular mode, n8n's default, not queue mode), turn on Options → One Process and retry with the saved workflow."
			: '';
	return `So that nothing goes out twice, nothing was sent.${oneProcess} Check what the platform received (Get Stats, or the events of a Mail Delivery Trigger), then send what is missing, or ${REDO}.`;
}

/** Where to look for what an earlier try of the request did: the platform's events about it. */
function eventsHint(eventsName: string | undefined) {
	return eventsName === undefined
		? ''
		: ` If the platform accepted it, its events carry UniqueMsgID ${eventsName}: a Delivered, Bounced or Dropped event (the Mail Delivery Trigger's) with that UniqueMsgID and this item's address says it was sent; without one, it was not.`;
}

function notSent(
	node: INode,
	itemIndex: number,
	refusal: Refusal,
	{ eventsName, refused }: { eventsName?: string; refused?: number },
) {
	const cost =
		refused === undefined || refusal === 'retryWentFirst' || refusal === 'retrySends'
			? ''
			: ` Redo After a Crash would send the ${refused} item${refused === 1 ? '' : 's'} refused here again.`;
	return new NodeOperationError(
		node,
		refusal === 'retryWentFirst'
			? 'Not sent: a retry of this execution sends it'
			: refusal === 'retrySends'
				? 'Not sent: another retry of the same execution sends it'
				: 'Not sent: the execution this one retries may have sent it already',
		{
			itemIndex,
			description: `${WHY[refusal]} ${remedy(refusal)}${cost}${eventsHint(eventsName)}`,
		},
	);
}
