/** For the code before the fix: each later run is the node's own claim (checkRetry) in a new execution, through n8n-core's ExecuteContext. */
import { ExecuteContext } from 'n8n-core';
import type { INodeExecutionData } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import type { Emulator } from '../../emulator/server.cts';
import { checkRetry } from '../../nodes/MailDelivery/run/retries';
import type { Execution, N8nInstance } from '../harness/instance.cts';
import { buildAdditionalData, CredentialsStore, processedData, testWorkflow } from '../harness/n8n.cts';
import { advanceClock } from './clock.cts';


export async function laterRuns(n8n: N8nInstance, nodeName: string, count: number, emulator: Emulator) {
	const { nodes, connections } = n8n.workflow;
	const workflow = testWorkflow(nodes, connections);
	Object.assign(workflow, { id: n8n.workflowId });
	const action = workflow.getNode(nodeName)!;
	const additionalData = buildAdditionalData(new CredentialsStore());
	const items: INodeExecutionData[] = [{ json: { email: 'not an address' } }];
	for (let run = 0; run < count; run++) {
		advanceClock(emulator, 1);
		const data = createRunExecutionData({ executionData: { nodeExecutionStack: [], runtimeData: { version: 1, establishedAt: Date.now(), source: 'webhook' } } });
		additionalData.executionId = `later-${run}`;
		const context = new ExecuteContext(workflow, action, additionalData, 'webhook', data, 0, items, { main: [items] }, { node: action, data: { main: [items] }, source: null }, []);
		await checkRetry(context, action, { recordFits: true, repeatOnRetry: false });
	}
}

export async function pushOut(n8n: N8nInstance, nodeName: string, execution: Execution, emulator: Emulator) {
	const lineage = String(execution.saved.executionData?.runtimeData?.establishedAt ?? '');
	const node = n8n.workflow.nodes.find((candidate) => candidate.name === nodeName)!;
	const row = () => processedData.get(`${n8n.workflowId}:${node.id}`) ?? [];
	const oldest = () => (lineage ? row().findIndex((entry) => entry.includes(lineage)) : -1);
	if (oldest() === -1) return false;
	for (let index = oldest(); index !== -1; index = oldest())
		await laterRuns(n8n, nodeName, Math.max(1, Math.ceil((index + 1) / 2)), emulator);
	return true;
}
