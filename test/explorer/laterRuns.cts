/**
 * Later runs of the node, by other executions: each is recorded as the node's check records an ordinary execution's
 * run, a moment after the one before, in the process's record of runs (neverTwice/processRecord.ts) and in the node's
 * row of n8n's store (neverTwice/storeClaims.ts: the hour's and the 10 s's entries, then the run's claim), which keeps its newest
 * 10,000 entries: enough later runs push what an execution's lineage left there out.
 */
import type { Emulator } from '../../emulator/server.cts';
import { MAX_ENTRIES } from '../../nodes/MailDelivery/neverTwice/storeClaims';
import {
	type Execution,
	type N8nInstance,
	processedData,
	processRecord,
	recordProcessed,
} from '../harness/n8n.cts';
import { advanceClock } from './clock.cts';

/** Appends the entries the row does not hold, as n8n's store does, and drops the oldest past its bound. */
const record = (row: string, entries: string[]) => recordProcessed(row, entries, MAX_ENTRIES);

export async function laterRuns(
	n8n: N8nInstance,
	nodeName: string,
	count: number,
	emulator: Emulator,
) {
	const node = n8n.workflow.nodes.find((candidate) => candidate.name === nodeName)!;
	for (let run = 0; run < count; run++) {
		advanceClock(emulator, 1);
		const now = Date.now();
		const lineage = `n8n:${now}:later`;
		processRecord().claimHere(String(n8n.workflowId), lineage, 1, {
			nodeId: node.id,
			nodeName: node.name,
			executionId: `later-${now}`,
			byRetry: false,
			sends: true,
			over: true,
			endsExecution: false,
			redo: false,
			at: now,
		});
		const hour = Math.floor(now / 3_600_000);
		record(`${n8n.workflowId}:${node.id}`, [
			`h:${hour}:0`,
			`h:${hour}:1`,
			`t:${Math.floor(now / 10_000)}`,
			`c:${lineage}:1`,
		]);
	}
}

/** The lineage an execution's saved data names for the node, if it ran the node. */
function lineageOf(execution: Execution, nodeName: string) {
	const node = execution.saved.executionData?.contextData?.[`node:${nodeName}`] as
		{ runHistory?: { lineage?: string } } | undefined;
	return node?.runHistory?.lineage;
}

/**
 * Later runs until what the lineage of `execution` left in the node's row is pushed out (its claims; or, when its
 * data names none, every entry the row held, but the hour's entries a later run writes again): false when the row
 * holds nothing to push out.
 */
export async function pushOut(
	n8n: N8nInstance,
	nodeName: string,
	execution: Execution,
	emulator: Emulator,
) {
	const node = n8n.workflow.nodes.find((candidate) => candidate.name === nodeName)!;
	const row = `${n8n.workflowId}:${node.id}`;
	const lineage = lineageOf(execution, nodeName);
	const held = () => processedData.get(row) ?? [];
	const pushed = new Set(
		held().filter((entry) =>
			lineage === undefined ? !entry.startsWith('h:') : entry.startsWith(`c:${lineage}:`),
		),
	);
	if (pushed.size === 0) return false;
	while (held().some((entry) => pushed.has(entry))) await laterRuns(n8n, nodeName, 500, emulator);
	return true;
}
