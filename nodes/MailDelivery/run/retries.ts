/**
 * A retried execution whose earlier try left no record of what this node sent. n8n's Retry (executions list,
 * REST API) starts a new execution, in mode "retry", from what the execution it retries saved. The run's
 * ledger (ledger.ts) is saved with that execution when the node ended; when n8n crashed, restarted or was
 * stopped while the node was sending, it is lost, and sending again would send twice what went out.
 *
 * So every run of an operation that changes something claims, before its first request, that it started:
 * in n8n's deduplication store (checkProcessedAndRecord, a database write that later executions read),
 * under the execution's lineage (its context's establishedAt, which n8n carries into every retry of it) and
 * a digest of the run's input (not the run index: after a crash n8n counts the crashed run). A retry
 * without a ledger record sends only when it can tell that no earlier try started: the lineage is known
 * and the claim is new. Otherwise each item fails, saying that the execution this one retries may have
 * sent it, unless the user turned on Options → Redo After a Crash (repeatOnRetry). (n8n 1.x carries the lineage into a retry
 * only when the execution it retries saved something: after a crash it is lost, and the retry refuses.)
 */
import { createHash } from 'node:crypto';
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The most claims kept per node; the oldest go first (one claim per run of the node). */
const MAX_CLAIMS = 1000;

/** Whether this run may send: `refusal` makes each item's error when it may not. */
type RetryCheck = { send: true } | { send: false; refusal: (itemIndex: number) => Error };

/**
 * Claims this run of the node and says whether it may send. `continuesEarlierTry`: the ledger holds the
 * record of an earlier try of this run (then that record decides, item by item).
 */
export async function checkRetry(
	context: IExecuteFunctions,
	node: INode,
	{ continuesEarlierTry, repeatOnRetry }: { continuesEarlierTry: boolean; repeatOnRetry: boolean },
): Promise<RetryCheck> {
	const lineage = context.getExecutionContext?.();
	// A context made for this very retry (source "retry") means n8n lost the one it retries.
	const known = lineage?.establishedAt !== undefined && lineage.source !== 'retry';
	let claimed: boolean | undefined;
	if (known) {
		try {
			const { processed } = await context.helpers.checkProcessedAndRecord(
				[`started:${lineage.establishedAt}:${inputDigest(context.getInputData())}`],
				'node',
				{ mode: 'entries', maxEntries: MAX_CLAIMS },
			);
			claimed = processed.length > 0;
		} catch {
			claimed = undefined;
		}
	}
	if (context.getMode() !== 'retry' || continuesEarlierTry || repeatOnRetry) return { send: true };
	if (known && claimed === false) return { send: true };
	return { send: false, refusal: (itemIndex) => mayHaveBeenSent(node, itemIndex, known) };
}

/** The run's input items, digested: the same in every retry of the execution. */
function inputDigest(items: INodeExecutionData[]): string {
	const digest = createHash('sha256');
	for (const item of items) digest.update(JSON.stringify(item.json)).update('\n');
	return digest.digest('base64');
}

function mayHaveBeenSent(node: INode, itemIndex: number, lineageKnown: boolean) {
	return new NodeOperationError(
		node,
		'Not sent: the execution this one retries may have sent it already',
		{
			itemIndex,
			description: [
				lineageKnown
					? 'That execution started sending from this node and stopped before n8n saved what it sent (n8n crashed, restarted or was stopped).'
					: 'n8n kept no record of that execution from this node on (it crashed, restarted or was stopped), so whether it sent this item cannot be told.',
				'So that nothing goes out twice, nothing was sent. Check what the platform received (Get Stats, or the events of a Mail Delivery Trigger), then send what is missing, or turn on Options → Redo After a Crash to send every item again.',
			].join(' '),
		},
	);
}
