/**
 * What the node's context data (saved with the execution) knows of its runs in its execution's lineage: the lineage,
 * how many runs were claimed in it, and how the last try ended. retries.ts writes it as a run claims and ends;
 * verdicts.ts reads it.
 */
import { randomUUID } from 'node:crypto';
import type { IContextObject, IExecuteFunctions } from 'n8n-workflow';

import type { RefusalCause } from './notSent';

/** What the node's context data knows of its runs in this execution's lineage (saved with the execution). */
export interface RunHistory {
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

export const HISTORY_KEY = 'runHistory';

export function historyOf(data: IContextObject): RunHistory | undefined {
	const saved = data[HISTORY_KEY] as (RunHistory & { unknownEarlier?: boolean }) | undefined;
	// Saved by the node before these versions: its one flag meant either.
	if (saved?.unknownEarlier)
		return { ...saved, inDoubt: true, lostToRetry: { kind: 'retryWentFirst' } };
	return saved;
}

export function nodeContext(context: IExecuteFunctions): IContextObject {
	try {
		return context.getContext('node');
	} catch {
		// No execution context data (a node run outside a workflow execution): nothing to keep.
		return {};
	}
}

/**
 * The run's name in its execution, as text: its lineage and number, the same in every try of the run (after
 * checkRetry, retries.ts). A run with no claim (nothing it does is kept for a retry) has a name of its own.
 */
export function runNameOf(context: IExecuteFunctions): string {
	const saved = historyOf(nodeContext(context));
	return saved ? `${saved.lineage}:${saved.runs}` : `unclaimed:${randomUUID()}`;
}
