/**
 * n8n's Retry of an execution that crashed, restarted or was stopped while the node was sending: the
 * execution it retries saved no record of what the node sent (n8n saves it when the node ends). The retry
 * never sends those items again silently: they fail, unless Options → Redo After a Crash is on. A retry whose
 * earlier try never reached the node sends as usual. (End to end, with n8n killed mid-send:
 * test/e2e/send-faults.e2e.mjs.)
 */
import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { people, sendToEachItem, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const txRequests = () => env.view().requests.filter((r) => r.path === TX).length;
let lineage = 1_700_000_000_000;
/** The context of an execution started by a webhook, which n8n carries into every retry of it. */
const newExecution = () => ({ establishedAt: ++lineage, source: 'webhook' });

beforeEach(async () => {
	await env.control('POST', 'settings', { latencyMs: 30, credits: 1_000_000 });
});

/** Runs `workflow` once, stopped mid-send as by a crash (no record of what it sent is kept). */
async function interruptedSend(workflow: ReturnType<typeof actionWorkflow>, execution: object) {
	await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(1000),
		executionContext: execution as never,
		mode: 'webhook',
		cancelWhen: () => txRequests() >= 3,
	});
	await env.settled();
}

test('a retry of an execution that stopped mid-send sends nothing again: every item fails, saying why', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } }), {
		onError: 'continueErrorOutput',
	});
	const execution = newExecution();
	await interruptedSend(workflow, execution);
	const sentBefore = txRequests();
	expect(sentBefore).toBeGreaterThanOrEqual(3);

	const retried = await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(1000),
		executionContext: execution,
		mode: 'retry',
	});
	expect(txRequests()).toBe(sentBefore);
	const failed = retried.output('Mail Delivery', 1);
	expect(failed).toHaveLength(1000);
	expect(failed[0].json.error).toBe(
		'Not sent: the execution this one retries may have sent it already',
	);
	expect(String((failed[0].json.details as IDataObject).description)).toMatch(
		/Options → Redo After a Crash/,
	);
});

test('under Stop Workflow the retry stops before any request, with the same reason', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } }));
	const execution = newExecution();
	await interruptedSend(workflow, execution);
	const sentBefore = txRequests();
	const retried = await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(1000),
		executionContext: execution,
		mode: 'retry',
	});
	expect(txRequests()).toBe(sentBefore);
	expect(retried.error()?.message).toMatch(/may have sent it already/);
});

test('with Redo After a Crash the retry sends every item again, as asked', async () => {
	const workflow = actionWorkflow(
		sendToEachItem({ options: { parallelRequests: 4, repeatOnRetry: true } }),
	);
	const execution = newExecution();
	await interruptedSend(workflow, execution);
	const retried = await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(1000),
		executionContext: execution,
		mode: 'retry',
	});
	expect(retried.error()).toBeUndefined();
	expect(retried.output('Mail Delivery')).toHaveLength(1000);
});

test('a retry of an execution that never reached the node sends as usual (no false alarm)', async () => {
	const workflow = actionWorkflow(sendToEachItem());
	const retried = await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(300),
		executionContext: newExecution(),
		mode: 'retry',
	});
	expect(retried.error()).toBeUndefined();
	expect(env.view().mails).toHaveLength(300);
});

test('a retry whose lineage n8n lost (its context made for the retry) cannot tell, and sends nothing', async () => {
	const retried = await runWorkflow({
		...actionWorkflow(sendToEachItem(), { onError: 'continueErrorOutput' }),
		credentials: env.credentials(),
		items: people(10),
		executionContext: { establishedAt: Date.now(), source: 'retry' },
		mode: 'retry',
	});
	expect(txRequests()).toBe(0);
	expect(retried.output('Mail Delivery', 1)).toHaveLength(10);
	expect(
		String((retried.output('Mail Delivery', 1)[0].json.details as IDataObject).description),
	).toMatch(/n8n kept no record/);
});

test('operations run item by item that change something are held to the same rule', async () => {
	const workflow = actionWorkflow(
		{
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			options: { parallelRequests: 1 },
		},
		{ onError: 'continueErrorOutput' },
	);
	const execution = newExecution();
	const upserts = () => env.view().requests.filter((r) => r.path === '/v5/contacts/upsert').length;
	await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(200),
		executionContext: execution,
		mode: 'webhook',
		cancelWhen: () => upserts() >= 3,
	});
	await env.settled();
	const before = upserts();
	const retried = await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(200),
		executionContext: execution,
		mode: 'retry',
	});
	expect(upserts()).toBe(before);
	expect(retried.output('Mail Delivery', 1)).toHaveLength(200);
});
