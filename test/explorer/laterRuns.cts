/**
 * Later runs of the node, by other executions. The node keeps nothing of them in n8n's store (only a retry that
 * takes a run, or redoes one, writes there: neverTwice/storeClaims.ts); what they change is the process's record of
 * runs (a run of the node seen here, the first one dated; the newest 100,000 kept, so that a retry whose run was
 * pushed out of it cannot show that it is alone, and refuses). Each is recorded there as the node's check records an
 * ordinary execution's run, a moment after the one before.
 */
import type { Emulator } from '../../emulator/server.cts';
import type { Execution, N8nInstance } from '../harness/instance.cts';
import { processRecord } from '../harness/n8n.cts';
import { advanceClock } from './clock.cts';

export async function laterRuns(
	n8n: N8nInstance,
	nodeName: string,
	count: number,
	emulator: Emulator,
) {
	const node = n8n.workflow.nodes.find((candidate) => candidate.name === nodeName)!;
	for (let run = 0; run < count; run++) {
		advanceClock(emulator, 1);
		processRecord().claimHere(`${n8n.workflowId}:${node.id}`, `n8n:${Date.now()}:later`, 1, {
			byRetry: false,
			sends: true,
			ended: true,
		});
	}
}

/** Later runs until what the lineage of `execution` left in the store is pushed out: it leaves nothing there. */
export async function pushOut(
	_n8n: N8nInstance,
	_nodeName: string,
	_execution: Execution,
	_emulator: Emulator,
) {
	return false;
}
