/**
 * The verdict of a try of a run (retries.ts claims the run and asks for it), first row that applies (docs/reliability.md
 * says why each holds). Where the retry runs says how many n8n processes there are: n8n runs a Retry in its one process
 * in regular mode (its default) and always on a worker in queue mode (`WorkflowRunner.run`), so a retry that runs in
 * n8n's main process is alone with every other try of its execution there, or in what n8n's store shows of tries
 * before a restart; each run also keeps a journal of its requests there (journal.ts).
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
import type { IExecuteFunctions } from 'n8n-workflow';

import type { RefusalCause } from './notSent';
import {
	claimHere,
	exactSince,
	firstClaimHere,
	otherIdHere,
	redoneHere,
	type RunSeenHere,
	seenHere,
} from './processRecord';
import type { RunHistory } from './runHistory';
import {
	claim,
	claimOf,
	claimRedo,
	holds,
	type LineageRun,
	neverForgot,
	type StoreRow,
	trustedSince,
	unclaim,
} from './storeClaims';
import { nodeRow } from './storeRow';

/** One try of a run: what its data says and what it claims. */
export interface TryOfRun extends LineageRun {
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

/** The execution itself: it sends unless a retry of it took this run (or an earlier one of its runs). */
export async function ownVerdict(
	context: IExecuteFunctions,
	run: TryOfRun,
): Promise<RefusalCause | undefined> {
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
const recordHoldsAll = (run: TryOfRun) => run.since !== undefined && run.since > exactSince();

/** n8n's store shows every claim of the run's lineage: it forgot nothing since the lineage began. */
const storeHoldsAll = async (row: StoreRow, run: TryOfRun) =>
	(await neverForgot(row)) || (run.since !== undefined && (await trustedSince(row, run.since)));

/** A retry (n8n's Retry): it sends when it can show that no other try of its execution sends the run, or took it over. */
export async function retryVerdict(
	context: IExecuteFunctions,
	run: TryOfRun,
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
	run: TryOfRun,
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
			else if (overHere) {
				// The store forgot the claim of the try that ran here: nothing shows what it sent. The claim made to ask
				// is taken back: a try refused leaves none, or the next try of this execution (n8n's Retry On Fail)
				// would find it and take the run over from an empty journal, sending it all again.
				await unclaim(alone, run);
				return { kind: 'cannotTell' as const };
			} else if (!shown) {
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
async function storeShowsAll(row: StoreRow, run: TryOfRun, since: number): Promise<boolean> {
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
	run: TryOfRun,
	otherwise: RefusalCause = { kind: 'otherWorker' },
): Promise<RefusalCause | undefined> {
	if (!shownAloneHere(run)) return otherwise;
	if (!(await claim(row, run, Date.now()).catch(() => false))) return otherwise;
	return undefined;
}

/** The try whose run this retry's data goes on from ended its execution in this process. */
const shownAloneHere = (run: TryOfRun) =>
	run.saved !== undefined &&
	seenHere(run.workflow, run.lineage, run.saved.runs, run.node)?.endsExecution === true;

function remember(run: TryOfRun) {
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
