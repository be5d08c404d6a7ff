/**
 * Whether a run of an operation that changes something may send, against every try of its execution: n8n's Retry
 * (executions list, REST API) starts a new execution, in mode "retry", from what the execution it retries saved (the
 * nodes' context data, with the run's ledger, ledger.ts, as n8n last saved it), also while that execution still runs
 * or waits; n8n may have crashed, restarted or been stopped after that save.
 *
 * Every run claims, before its first request, its number in its execution's lineage (n8n's execution context, which
 * n8n carries into every retry, or one of the node's own kept in its context data), in n8n's deduplication store
 * (claims.ts). The context data counts the runs it knows. The first try to claim a number owns it:
 * - a retry sends only when it owns the number after the last one its saved data knows, and the store proves that
 *   it would see a claim an earlier try made (claims.ts: evidence); otherwise what an earlier try sent after n8n's
 *   last save is unknown, and every item the ledger does not account for fails, saying so;
 * - a try that is not a retry (the execution itself) sends unless a retry of it took its number first (Retry pressed
 *   while it still ran or waited): then that retry sends, and this one does not.
 * The context keeps a refusal's verdict, so that a retry of that retry is refused again. Options → Redo After a
 * Crash (repeatOnRetry) sends anyway. What a retry refuses depends on nothing a user changes without meaning to: a
 * node renamed loses its saved data (n8n keeps it by name) and one pasted again its store row (n8n keeps it by node
 * ID); either way the evidence is missing, and the retry refuses rather than send.
 */
import { randomUUID } from 'node:crypto';
import type {
	ICheckProcessedOptions,
	IContextObject,
	IExecuteFunctions,
	INode,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type Claim, claimRun, type ClaimRow, MAX_CLAIMS, vouches } from './claims';

const STORE: ICheckProcessedOptions = { mode: 'entries', maxEntries: MAX_CLAIMS };

/** What the node's context data knows of its runs in this execution's lineage (saved with the execution). */
interface RunHistory {
	lineage: string;
	/** Runs of the node started in the lineage, as far as this execution's data knows. */
	runs: number;
	/** An earlier try of the lineage may have sent what this data does not record, or that cannot be told. */
	unknownEarlier?: boolean;
}

const HISTORY_KEY = 'runHistory';

/** Why a run does not send. */
type Refusal = 'noRecord' | 'sentAfterSave' | 'cannotVouch' | 'retryWentFirst';

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

/** The node's row of n8n's deduplication store, or the workflow's ('workflow': where retries' marks stay). */
const rowOf = (context: IExecuteFunctions, scope: 'node' | 'workflow' = 'node'): ClaimRow => ({
	record: async (entries) => {
		const { processed } = await context.helpers.checkProcessedAndRecord(entries, scope, STORE);
		const there = new Set(processed.map(String));
		return entries.map((entry) => there.has(entry));
	},
	remove: async (entries) => await context.helpers.removeProcessed(entries, scope, STORE),
	count: async () => await context.helpers.getProcessedDataCount(scope, STORE),
});

/** n8n's lineage of this execution (2.x), unless n8n made it for this very retry (it lost the one retried). */
function n8nLineage(context: IExecuteFunctions) {
	const established = context.getExecutionContext?.();
	return established?.establishedAt !== undefined && established.source !== 'retry'
		? established.establishedAt
		: undefined;
}

function nodeContext(context: IExecuteFunctions): IContextObject {
	try {
		return context.getContext('node');
	} catch {
		// No execution context data (a node run outside a workflow execution): nothing to keep.
		return {};
	}
}

/** The claim this run makes, from what its saved data knows; none when a retry has no lineage to claim in. */
function claimFor(
	context: IExecuteFunctions,
	saved: RunHistory | undefined,
	retry: boolean,
): Claim | undefined {
	if (saved) {
		const evidence = retry ? { previousRun: saved.runs } : undefined;
		return { lineage: saved.lineage, run: saved.runs + 1, retry, evidence };
	}
	const established = n8nLineage(context);
	if (established !== undefined)
		return {
			lineage: `n8n:${established}`,
			run: 1,
			retry,
			evidence: retry ? { lineageStart: established } : undefined,
		};
	return retry ? undefined : { lineage: `node:${randomUUID()}`, run: 1, retry };
}

/**
 * Claims this run of the node and says whether it may send. `recordFits`: the run's ledger record, if an earlier try
 * left one, belongs to this operation and input (a retry with a changed workflow cannot use it).
 */
export async function checkRetry(
	context: IExecuteFunctions,
	node: INode,
	{ recordFits, repeatOnRetry }: { recordFits: boolean; repeatOnRetry: boolean },
): Promise<RetryCheck> {
	const store = nodeContext(context);
	const retry = context.getMode() === 'retry';
	const saved = store[HISTORY_KEY] as RunHistory | undefined;
	// An execution that lost a run of the node to its retry leaves the node's later tries and runs to that retry
	// (n8n's Retry On Fail would otherwise claim the next number for the same items): it claims nothing more.
	if (!retry && saved?.unknownEarlier === true && !repeatOnRetry)
		return { send: false, refusal: (itemIndex) => notSent(node, itemIndex, 'retryWentFirst') };
	const claim = claimFor(context, saved, retry);
	// A verdict saved with the execution stays for every retry of it.
	let refusal: Refusal | undefined =
		retry && (saved?.unknownEarlier === true || !recordFits) ? 'sentAfterSave' : undefined;
	if (!claim) refusal = 'noRecord';
	else {
		const row = rowOf(context);
		const before = refusal;
		const claimed = await serialized(context, async () => {
			// A retry looks first: it marks the run as its own only when it will send unless the run is taken.
			const vouched =
				!claim.evidence || (await vouches(row, claim.lineage, claim.evidence, Date.now()));
			const mark = retry && ((vouched && before === undefined) || repeatOnRetry);
			const marks = rowOf(context, 'workflow');
			return { vouched, ...(await claimRun(row, { ...claim, mark }, Date.now(), marks)) };
		});
		if (retry && claimed.taken) refusal ??= 'sentAfterSave';
		if (retry && !(claimed.vouched && claimed.stillVouched)) refusal ??= 'cannotVouch';
		if (!retry && claimed.takenByRetry) refusal ??= 'retryWentFirst';
		store[HISTORY_KEY] = {
			lineage: claim.lineage,
			runs: claim.run,
			...(refusal || saved?.unknownEarlier ? { unknownEarlier: true } : {}),
		} satisfies RunHistory;
	}
	if (!refusal || repeatOnRetry) return { send: true };
	return { send: false, refusal: (itemIndex) => notSent(node, itemIndex, refusal) };
}

const WHY: Record<Refusal, string> = {
	noRecord:
		'n8n kept no record of that execution from this node on (it crashed, restarted or was stopped), so whether it sent this item cannot be told.',
	sentAfterSave:
		'An earlier try of that execution started sending from this node after n8n last saved what it sent (n8n crashed, restarted or was stopped, or another retry of the same execution went on from there).',
	cannotVouch:
		"n8n's store holds no trace of this node older than what that execution did with it, so it cannot show whether that execution sent this item: the node is new (the store's traces are by ten minutes, hour and day), or was pasted again or imported (a new node ID) since, or more than 10,000 later entries pushed its traces out.",
	retryWentFirst:
		'Retry was pressed on this execution while it was still running or waiting, and that retry has already started sending from this node: the items are its to send (see that execution).',
};

function notSent(node: INode, itemIndex: number, refusal: Refusal) {
	const retryWentFirst = refusal === 'retryWentFirst';
	return new NodeOperationError(
		node,
		retryWentFirst
			? 'Not sent: a retry of this execution sends it'
			: 'Not sent: the execution this one retries may have sent it already',
		{
			itemIndex,
			description: [
				WHY[refusal],
				retryWentFirst
					? 'So that nothing goes out twice, this execution sent nothing from this node. Turn on Options → Redo After a Crash to send from both.'
					: 'So that nothing goes out twice, nothing was sent. Check what the platform received (Get Stats, or the events of a Mail Delivery Trigger), then send what is missing, or turn on Options → Redo After a Crash to send it again.',
			].join(' '),
		},
	);
}
