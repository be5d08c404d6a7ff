/**
 * Many later runs of the node, by other executions. The node keeps nothing of them in n8n's store (only a retry that
 * takes a run, or redoes one, writes there: neverTwice/storeClaims.ts); what they change is the process's record of
 * runs, which keeps the newest 100,000 (a retry whose run was pushed out of it cannot show that it is alone, and
 * refuses). So here they are the time they take: the clock moves a moment per run.
 */
import type { Emulator } from '../../emulator/server.cts';
import type { Execution, N8nInstance } from '../harness/instance.cts';
import { advanceClock } from './clock.cts';

export async function laterRuns(
	_n8n: N8nInstance,
	_nodeName: string,
	count: number,
	emulator: Emulator,
) {
	// Each run its own execution, started a moment after the one before.
	advanceClock(emulator, count);
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
