/**
 * Whether a run of an operation that changes something may send, against every other try of its execution. n8n's
 * Retry (executions list, REST API) starts a new execution, in mode "retry", from what the execution it retries
 * saved (the nodes' context data, with the run's ledger, ledger.ts), also while that execution still runs or waits,
 * and twice when Retry is pressed twice; n8n may have crashed, restarted or been stopped after that save. The tries of
 * one execution and its retries form a lineage; each run of the node claims the next number in it before its first
 * request (the context data counts the runs its data knows), in this process's record (processRecord.ts) and in n8n's
 * store (storeClaims.ts), where it outlives the process.
 *
 * Each try claims its run here (checkRetry) and asks verdicts.ts whether it may send: the verdict table is there.
 * The exhaustive checker (test/checker/model.cts) loads this file and calls checkRetry and runEnded.
 */
import type { IContextObject, IExecuteFunctions, INode, NodeOperationError } from 'n8n-workflow';

import { RunJournal } from './journal';
import { lineageOf, runsInMainProcess } from './lineage';
import { notSentError, type RefusalCause, type RefusedItem } from './notSent';
import type { RunSeenHere } from './processRecord';
import { HISTORY_KEY, historyOf, nodeContext, type RunHistory } from './runHistory';
import type { LineageRun } from './storeClaims';
import { inTurn, nodeRow } from './storeRow';
import { ownVerdict, retryVerdict, type TryOfRun } from './verdicts';

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
		const run: TryOfRun = {
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
		const name: LineageRun | undefined = historyOf(data) && {
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

/** The node's verdicts, one at a time per workflow in this process (they read and change its record whole). */
const workflowQueues = new Map<string, Promise<unknown>>();

const serialized = async <T>(workflow: string, work: () => Promise<T>) =>
	await inTurn(workflowQueues, workflow, work);
