/**
 * Many later runs of the node, by other executions: each makes the claim a new execution's run makes (run 1 of its
 * own lineage, claims.ts), through n8n-core's deduplication service into the node's row, as the saved workflow has
 * the node. Ten thousand take a second this way, against minutes as whole executions; never-twice.test.cts checks
 * that they leave the row as whole executions do.
 */
import { DataDeduplicationService } from 'n8n-core';
import type { ICheckProcessedOptions } from 'n8n-workflow';

import type { Emulator } from '../../emulator/server.cts';
import { claimRun, type ClaimRow, MAX_CLAIMS } from '../../nodes/MailDelivery/run/claims';
import type { Execution, N8nInstance } from '../harness/instance.cts';
import { processedData, testWorkflow } from '../harness/n8n.cts';
import { advanceClock } from './clock.cts';

const STORE: ICheckProcessedOptions = { mode: 'entries', maxEntries: MAX_CLAIMS };

/** The node's row, through n8n-core's service (the one its helpers call). */
function rowOf(n8n: N8nInstance, nodeName: string): ClaimRow {
	const workflow = testWorkflow(n8n.workflow.nodes, n8n.workflow.connections);
	Object.assign(workflow, { id: n8n.workflowId });
	const context = { workflow, node: workflow.getNode(nodeName)! };
	const service = DataDeduplicationService.getInstance();
	return {
		record: async (entries) => {
			const { processed } = await service.checkProcessedAndRecord(entries, 'node', context, STORE);
			const there = new Set(processed.map(String));
			return entries.map((entry) => there.has(entry));
		},
		remove: async (entries) => await service.removeProcessed(entries, 'node', context, STORE),
		count: async () => await service.getProcessedDataCount('node', context, STORE),
	};
}

export async function laterRuns(
	n8n: N8nInstance,
	nodeName: string,
	count: number,
	emulator: Emulator,
) {
	const row = rowOf(n8n, nodeName);
	for (let run = 0; run < count; run++) {
		// Each run its own execution, started a moment after the one before.
		advanceClock(emulator, 1);
		await claimRun(row, { lineage: `n8n:${Date.now()}`, run: 1, retry: false }, Date.now());
	}
}

/**
 * Later runs until the oldest entry the lineage of `execution` left in the node's row of the store (an entry naming
 * its start, as the harness keeps entries) is pushed out: the store's bound, met exactly where it matters. False
 * when the row holds none.
 */
export async function pushOut(
	n8n: N8nInstance,
	nodeName: string,
	execution: Execution,
	emulator: Emulator,
) {
	const lineage = String(execution.saved.executionData?.runtimeData?.establishedAt ?? '');
	const node = n8n.workflow.nodes.find((candidate) => candidate.name === nodeName)!;
	const row = () => processedData.get(`${n8n.workflowId}:${node.id}`) ?? [];
	const oldest = () => (lineage ? row().findIndex((entry) => entry.includes(lineage)) : -1);
	if (oldest() === -1) return false;
	// Each run adds at least one entry: halve the distance until that entry leaves.
	for (let index = oldest(); index !== -1; index = oldest())
		await laterRuns(n8n, nodeName, Math.max(1, Math.ceil((index + 1) / 2)), emulator);
	return true;
}
