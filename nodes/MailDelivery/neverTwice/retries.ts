/**
 * Whether a run of an operation that changes something may send, against every other try of its execution. n8n's
 * Retry (executions list, REST API) starts a new execution, in mode "retry", from what the execution it retries
 * saved (the nodes' context data, with the run's ledger, ledger.ts), also while that execution still runs or waits,
 * and twice when Retry is pressed twice; n8n may have crashed, restarted or been stopped after that save. The tries of
 * one execution and its retries form a lineage; each run of the node claims the next number in it before its first
 * request (the context data counts the runs its data knows), in this process's record (processRecord.ts) and in n8n's
 * store (storeClaims.ts), where it outlives the process.
 *
 * Where the retry runs says how many n8n processes there are: n8n runs a Retry in its one process in regular mode
 * (its default) and always on a worker in queue mode (`WorkflowRunner.run`), so a retry that runs in n8n's main
 * process is alone with every other try of its execution there, or in what n8n's store shows of tries before a
 * restart; each run also keeps a journal of its requests there (journal.ts). The verdict, first row that applies
 * (docs/reliability.md says why each holds):
 *
 * | the execution itself        | a retry claimed this run (this process, or the store)         | refuse (retryWentFirst) |
 * | the execution itself        | it waited across a restart, and the store forgot since it began | refuse (waitedTooLong) |
 * | the execution itself        | otherwise                                                     | send                    |
 * | a retry                     | a try here sends this run now                                 | refuse (retrySends, executionSends) |
 * | a retry, Redo After a Crash | another redo holds this run (this process, or the store)      | refuse (redone)         |
 * | a retry, Redo After a Crash | otherwise                                                     | send (main process: take over, sending again what its journal shows in doubt) |
 * | a retry in the main process | a try claimed this run and is over (here, or before a restart) | take over: send what its journal shows never left |
 * | a retry in the main process | no claim, and the record here or the store shows all since its execution began | send |
 * | a retry in the main process | otherwise (the store cannot show it)                          | refuse (cannotTell)     |
 * | a retry on a worker         | the try its data goes on from ended its execution on this worker | send                 |
 * | a retry on a worker         | otherwise                                                     | refuse (otherWorker, ranSince) |
 */
import { randomUUID } from 'node:crypto';
import type { IContextObject, IExecuteFunctions, INode, NodeOperationError } from 'n8n-workflow';

import { RunJournal } from './journal';
import { lineageOf, runsInMainProcess } from './lineage';
import { notSentError, type RefusalCause, type RefusedItem } from './notSent';
import {
	claimHere,
	exactSince,
	firstClaimHere,
	otherIdHere,
	redoneHere,
	type RunSeenHere,
	seenHere,
} from './processRecord';
import {
	claim,
	claimOf,
	claimRedo,
	holds,
	neverForgot,
	type RunName,
	type StoreRow,
	trustedSince,
	unclaim,
} from './storeClaims';
import { inTurn, nodeRow } from './storeRow';

/** What the node's context data knows of its runs in this execution's lineage (saved with the execution). */
interface RunHistory {
	lineage: string;
	/** Runs of the node claimed in the lineage, as far as this execution's data knows. */
	runs: number;
	/** When the lineage began (its execution's beginning), where known. */
	since?: number;
	/** A try of this data refused, and why (what its output said; a retry of it asks again). */
	refused?: RefusalCause;
	/** Saved by the node before this version: the execution itself lost a run to its retry. */
	lostToRetry?: RefusalCause;
	/** The run that ended its execution (the node threw, or the execution was stopped). */
	endedExecution?: number;
	/** Saved by the node before this version: a refusal without its cause. */
	inDoubt?: true;
}

const HISTORY_KEY = 'runHistory';

/**
 * Whether this run may send: `refusal` makes the error of each item an earlier try may have sent (`all`: every item
 * refused, listed in the error under Stop Workflow).
 */
export type RetryCheck =
	| {
			send: true;
			/**
			 * The run's journal in n8n's store (regular mode), once the run's packing is known; `takeOver`: read what an
			 * earlier try of the run left in it first (journal.ts).
			 */
			journal?: (fingerprint: string) => RunJournal;
			takeOver?: boolean;
	  }
	| {
			send: false;
			refusal: (item: RefusedItem, all?: RefusedItem[]) => NodeOperationError;
	  };

interface RetryOptions {
	/** The run's ledger record, if an earlier try left one, belongs to this operation and input. */
	recordFits: boolean;
	/** Options → Redo After a Crash. */
	repeatOnRetry: boolean;
}

/** One try of a run: what its data says and what it claims. */
interface Try extends RunName {
	retry: boolean;
	saved?: RunHistory;
	since?: number;
	redo: boolean;
	/** Its data cannot be matched with these items (a retry of a changed workflow). */
	misfit: boolean;
	workflow: string;
	node: { id: string; name: string };
	execution: string;
	/** It runs in n8n's main process (regular mode, for a retry). */
	main: boolean;
	/** This process's record of its claim, once it claims. */
	claimed?: RunSeenHere;
	/** It sends a run an earlier try claimed and is over: from the run's journal. */
	takeOver?: true;
}

/** This process's claim of each run, by the node's context data, for runEnded. */
const claimsOfRuns = new WeakMap<IContextObject, RunSeenHere>();

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
	const named = lineageOf(context, saved, retry);
	let refusal: RefusalCause | undefined = { kind: 'noRecord' };
	let journaled = false;
	let takeOver = false;
	if (named !== undefined) {
		const run: Try = {
			retry,
			saved,
			lineage: named.lineage,
			since: named.since,
			run: (saved?.runs ?? 0) + 1,
			redo: options.repeatOnRetry,
			misfit: !options.recordFits,
			workflow: String(context.getWorkflow().id),
			node: { id: context.getNode().id, name: context.getNode().name },
			execution: String(context.getExecutionId?.() ?? ''),
			main: runsInMainProcess(context),
		};
		refusal = await serialized(run.workflow, async () =>
			retry ? await retryVerdict(context, run) : await ownVerdict(context, run),
		);
		if (run.claimed) claimsOfRuns.set(data, run.claimed);
		journaled = run.main;
		takeOver = run.takeOver === true;
		data[HISTORY_KEY] = {
			lineage: run.lineage,
			// A try that refuses takes no run: a later run of it, or a retry of it, asks about the same run again.
			runs: refusal ? run.run - 1 : run.run,
			...(run.since === undefined ? {} : { since: run.since }),
			...(refusal ? { refused: refusal } : {}),
		} satisfies RunHistory;
	}
	if (!refusal) {
		const row = nodeRow(context);
		const name: RunName | undefined = historyOf(data) && {
			lineage: historyOf(data)!.lineage,
			run: historyOf(data)!.runs,
		};
		return {
			send: true,
			...(journaled && name
				? { journal: (fingerprint) => new RunJournal(row, name, fingerprint) }
				: {}),
			...(takeOver ? { takeOver } : {}),
		};
	}
	const cause = refusal;
	return { send: false, refusal: (item, all) => notSentError(node, cause, item, all) };
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
 * for n8n's Retry On Fail, which claims its next run): its data says so, and a retry of it may show that it is alone.
 */
export function runEnded(context: IExecuteFunctions, { threw }: { threw: boolean }) {
	const data = nodeContext(context);
	const claimed = claimsOfRuns.get(data);
	if (claimed) claimed.over = true;
	const saved = historyOf(data);
	const stopped = context.getExecutionCancelSignal?.()?.aborted === true;
	if (saved && (threw || stopped)) {
		data[HISTORY_KEY] = { ...saved, endedExecution: saved.runs } satisfies RunHistory;
		if (claimed) claimed.endsExecution = true;
	}
}

/** The execution itself: it sends unless a retry of it took this run (or an earlier one of its runs). */
async function ownVerdict(context: IExecuteFunctions, run: Try): Promise<RefusalCause | undefined> {
	const seen = seenHere(run.workflow, run.lineage, run.run, run.node);
	if (run.saved?.lostToRetry) return run.saved.lostToRetry;
	if (!run.redo && seen?.byRetry && seen.sends)
		return { kind: 'retryWentFirst', execution: seen.executionId };
	try {
		const refusal = await nodeRow(context).alone(async (row) => {
			// Resumed after n8n restarted (it waited): a retry may have taken its run meanwhile, which only the store
			// shows, and only if it forgot nothing since the execution began.
			if (!run.redo && !recordHoldsAll(run) && !(await storeHoldsAll(row, run)))
				return { kind: 'waitedTooLong' as const };
			if (!(await claim(row, run, Date.now())) && !run.redo)
				return { kind: 'retryWentFirst' as const };
			return undefined;
		});
		if (refusal) return refusal;
	} catch {
		return { kind: 'storeFailed' };
	}
	remember(run);
	return undefined;
}

/** This process's record holds every claim of the run's lineage: it began after the process loaded the node. */
const recordHoldsAll = (run: Try) => run.since !== undefined && run.since > exactSince();

/** n8n's store shows every claim of the run's lineage: it forgot nothing since the lineage began. */
const storeHoldsAll = async (row: StoreRow, run: Try) =>
	(await neverForgot(row)) || (run.since !== undefined && (await trustedSince(row, run.since)));

async function retryVerdict(
	context: IExecuteFunctions,
	run: Try,
): Promise<RefusalCause | undefined> {
	const seen = seenHere(run.workflow, run.lineage, run.run, run.node);
	if (seen?.sends && !seen.over)
		return { kind: seen.byRetry ? 'retrySends' : 'executionSends', execution: seen.executionId };
	const row = nodeRow(context);
	if (run.redo) {
		// One redo a run: this process's record is exact for what ran here (another worker's write of the row may
		// lose this one's entry from n8n's store); the store keeps it across a restart and for other workers.
		const redone = redoneHere(run.workflow, run.lineage, run.run, run.node);
		if (redone) return { kind: 'redone', execution: redone.executionId };
		if (!(await claimRedo(row, run).catch(() => true))) return { kind: 'redone' };
		// A run an earlier try claimed (the claim was there): in n8n's one process its journal says what the platform
		// accepted, which the redo keeps (it sends again only what may not have reached it).
		if (!(await claim(row, run, Date.now()).catch(() => true)) && run.main) run.takeOver = true;
		remember(run);
		return undefined;
	}
	if (run.misfit) return { kind: 'workflowChanged' };
	if (run.saved?.inDoubt) return { kind: 'cannotTell' };
	if (seen?.sends) {
		// A try that ran this run is over: in n8n's one process the run is taken over from its journal, in the row of
		// the node's ID (one pasted again since has another); elsewhere nothing shows what it sent.
		const ranSince: RefusalCause = { kind: 'ranSince', execution: seen.executionId };
		if (!run.main || seen.nodeId !== run.node.id) return ranSince;
		const refusal = await aloneInMainProcess(row, run, true);
		if (refusal) return refusal.kind === 'cannotTell' ? ranSince : refusal;
	} else {
		const refusal = run.main
			? await aloneInMainProcess(row, run, false)
			: await aloneOnWorker(row, run);
		if (refusal) return refusal;
	}
	if (!run.claimed) remember(run);
	return undefined;
}

/**
 * Regular mode: every try of the lineage ran in this process or before it started (and is over). This process's
 * record holds every claim of a lineage that began after it started; of one that began before, n8n's store does,
 * when an entry of an hour before the lineage began is still there (nothing recorded since was forgotten). Either
 * way the node must have run under this ID before the lineage began: a node pasted again since has a new ID and a
 * new row of the store, where the lineage's earlier tries, and the execution coming back, do not look.
 *
 * A claim of the run by a try that is over (`overHere`: this process saw it end; or one in the store that this
 * process did not make, by a try that n8n's restart or crash ended while it sent) is taken over from the run's
 * journal (journal.ts), which the store holds whole when it forgot nothing since the lineage began.
 */
async function aloneInMainProcess(
	row: StoreRow,
	run: Try,
	overHere: boolean,
): Promise<RefusalCause | undefined> {
	if (run.since === undefined) return await aloneOnWorker(row, run, { kind: 'cannotTell' });
	const since = run.since;
	const holdsAll = recordHoldsAll(run);
	// The node ran under this ID before the lineage began, or, new to this process, it replaced no node of its name
	// here: else the execution, coming back after a restart, would look for this retry's claim under another ID.
	const ranBefore =
		(firstClaimHere(run.workflow, run.node.id) ?? Infinity) < since ||
		(firstClaimHere(run.workflow, run.node.id) === undefined &&
			!otherIdHere(run.workflow, run.node));
	try {
		// The look and the claim with no other call of this process between: the store forgets nothing meanwhile.
		const refusal = await row.alone(async (alone) => {
			// A claim there is read whole, its journal after it (the store forgets the oldest first): the run is taken
			// over from it. Only a claim's absence needs the look, which may not show it; the claim just made to ask is
			// then taken back.
			const shown = overHere || (holdsAll && ranBefore) || (await storeShowsAll(alone, run, since));
			if (!(await claim(alone, run, Date.now()))) run.takeOver = true;
			else if (overHere) return { kind: 'cannotTell' as const };
			else if (!shown) {
				await unclaim(alone, run);
				return 'notShown' as const;
			}
			return undefined;
		});
		if (refusal === 'notShown') return await aloneOnWorker(row, run, { kind: 'cannotTell' });
		return refusal;
	} catch {
		return { kind: 'storeFailed' };
	}
}

/**
 * Whether n8n's store shows every claim of this run made since the lineage began, for a lineage that began before
 * this process (a restart since): the store forgets the oldest entries first, so it does when it still holds an
 * entry written, in this row (this node's ID), before any such claim could be. One of a minute or an hour before the
 * lineage began; else the claim of the run this retry's data goes on from (every claim of the next run came after
 * it; asking records it, which is true: that run was claimed).
 */
async function storeShowsAll(row: StoreRow, run: Try, since: number): Promise<boolean> {
	if (await trustedSince(row, since)) return true;
	// Only a run that was claimed (runs 0: none was; asking would record it, and the next ask find it).
	return (
		run.saved !== undefined &&
		run.saved.runs > 0 &&
		(await holds(row, claimOf({ lineage: run.lineage, run: run.saved.runs })))
	);
}

/**
 * Queue mode (or a lineage this process cannot read): the try whose run this retry's data goes on from ended its
 * execution on this worker, so that execution runs the node no further, and any other retry that could send the same
 * items runs here, where the record orders them, or on another worker, which has no such record and refuses.
 */
async function aloneOnWorker(
	row: StoreRow,
	run: Try,
	otherwise: RefusalCause = { kind: 'otherWorker' },
): Promise<RefusalCause | undefined> {
	if (!shownAloneHere(run)) return otherwise;
	if (!(await claim(row, run, Date.now()).catch(() => false))) return otherwise;
	return undefined;
}

/** The try whose run this retry's data goes on from ended its execution in this process. */
const shownAloneHere = (run: Try) =>
	run.saved !== undefined &&
	seenHere(run.workflow, run.lineage, run.saved.runs, run.node)?.endsExecution === true;

function remember(run: Try) {
	run.claimed = {
		nodeId: run.node.id,
		nodeName: run.node.name,
		executionId: run.execution,
		byRetry: run.retry,
		redo: run.retry && run.redo,
		sends: true,
		over: false,
		endsExecution: false,
		at: Date.now(),
	};
	claimHere(run.workflow, run.lineage, run.run, run.claimed);
}

function historyOf(data: IContextObject): RunHistory | undefined {
	const saved = data[HISTORY_KEY] as (RunHistory & { unknownEarlier?: boolean }) | undefined;
	// Saved by the node before these versions: its one flag meant either.
	if (saved?.unknownEarlier)
		return { ...saved, inDoubt: true, lostToRetry: { kind: 'retryWentFirst' } };
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

/** The node's verdicts, one at a time per workflow in this process (they read and change its record whole). */
const workflowQueues = new Map<string, Promise<unknown>>();

const serialized = async <T>(workflow: string, work: () => Promise<T>) =>
	await inTurn(workflowQueues, workflow, work);
