/**
 * n8n's Retry of an execution that crashed, restarted or was stopped while the node was sending: the
 * execution it retries saved no record of what the node sent (n8n saves it when the node ends). The retry
 * never sends those items again silently: they fail, unless Options → Redo After a Crash is on. A retry whose
 * earlier try never reached the node sends as usual. (End to end, with n8n killed mid-send:
 * test/e2e/send-faults.e2e.mjs.)
 */
import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { people, sendToEachItem, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const txRequests = () => env.view().requests.filter((r) => r.path === TX).length;
/** Contact → Create or Update of each item's address, `parallelRequests` at once. */
const upsertByEmail = (parallelRequests: number, settings?: Parameters<typeof actionWorkflow>[1]) =>
	actionWorkflow(
		{
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			options: { parallelRequests },
		},
		settings,
	);
const upserts = () => env.view().requests.filter((r) => r.path === '/v5/contacts/upsert').length;
let lineage = 1_700_000_000_000;
/** The context of an execution started by a webhook, which n8n carries into every retry of it. */
const newExecution = () => ({ establishedAt: ++lineage, source: 'webhook' });

/** `workflow` run as n8n runs an execution of it (`mode` 'retry': Retry in the executions list). */
const runAs = async (
	workflow: ReturnType<typeof actionWorkflow>,
	mode: 'webhook' | 'retry',
	items: ReturnType<typeof people>,
	executionContext: ReturnType<typeof newExecution>,
	more: Partial<Parameters<typeof runWorkflow>[0]> = {},
) =>
	await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items,
		executionContext,
		mode,
		...more,
	});

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

	const retried = await runAs(workflow, 'retry', people(1000), execution);
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
	const retried = await runAs(workflow, 'retry', people(1000), execution);
	expect(txRequests()).toBe(sentBefore);
	expect(retried.error()?.message).toMatch(/may have sent it already/);
});

test('with Redo After a Crash the retry sends every item again, as asked', async () => {
	const workflow = actionWorkflow(
		sendToEachItem({ options: { parallelRequests: 4, repeatOnRetry: true } }),
	);
	const execution = newExecution();
	await interruptedSend(workflow, execution);
	const retried = await runAs(workflow, 'retry', people(1000), execution);
	expect(retried.error()).toBeUndefined();
	expect(retried.output('Mail Delivery')).toHaveLength(1000);
});

/** An execution that began `minutes` from now: later than the node's claims so far, in another ten minutes. */
const executionBeginningIn = (minutes: number) => ({
	establishedAt: Date.now() + minutes * 60_000,
	source: 'webhook',
});

test('a retry of an execution that never reached the node refuses by default: nothing shows that the execution will not come back, or that no other retry sends', async () => {
	const workflow = actionWorkflow(sendToEachItem(), { onError: 'continueErrorOutput' });
	const retried = await runAs(workflow, 'retry', people(3), executionBeginningIn(20));
	expect(txRequests()).toBe(0);
	const failed = retried.output('Mail Delivery', 1);
	expect(failed).toHaveLength(3);
	expect(failed[0].json.error).toBe(
		'Not sent: the execution this one retries may have sent it already',
	);
	expect(String((failed[0].json.details as IDataObject).description)).toMatch(
		/did not fail in this node in this n8n process.*turn on Options → One Process \(Regular Mode\)/,
	);
});

test('with One Process (Regular Mode), a retry of an execution that began since n8n started and never reached the node sends as usual', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { oneN8nProcess: true } }));
	// The node ran here before the execution began: it is the node that execution would come back to.
	await runAs(workflow, 'webhook', people(1), newExecution());
	const retried = await runAs(workflow, 'retry', people(300), executionBeginningIn(20));
	expect(retried.error()).toBeUndefined();
	expect(env.view().mails).toHaveLength(301);
});

test('with One Process (Regular Mode), a retry refuses when the node never ran here before its execution began (a node pasted again since has a new ID the execution would not look under)', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { oneN8nProcess: true } }), {
		onError: 'continueErrorOutput',
	});
	const retried = await runAs(workflow, 'retry', people(3), executionBeginningIn(20));
	expect(txRequests()).toBe(0);
	expect(retried.output('Mail Delivery', 1)[0].json.error).toBe(
		'Not sent: the execution this one retries may have sent it already',
	);
});

test('with One Process (Regular Mode), a retry of an execution that began before n8n started (it may have sent before a restart) refuses', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { oneN8nProcess: true } }), {
		onError: 'continueErrorOutput',
	});
	const retried = await runAs(workflow, 'retry', people(3), newExecution());
	expect(txRequests()).toBe(0);
	expect(
		String((retried.output('Mail Delivery', 1)[0].json.details as IDataObject).description),
	).toMatch(/n8n restarted since/);
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
	).toMatch(/cannot name its runs as the execution would/);
});

test('operations run item by item that change something are held to the same rule', async () => {
	const workflow = upsertByEmail(1, { onError: 'continueErrorOutput' });
	const execution = newExecution();
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
	const retried = await runAs(workflow, 'retry', people(200), execution);
	expect(upserts()).toBe(before);
	expect(retried.output('Mail Delivery', 1)).toHaveLength(200);
});

/** The context data a finished run saved, as n8n gives it back to a retry of that execution. */
const savedContext = (result: Awaited<ReturnType<typeof runWorkflow>>) => result.savedContext;

test('a retry of a refused retry is refused again, however many are chained, Retry On Fail included', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } }), {
		onError: 'continueErrorOutput',
		retryOnFail: { maxTries: 3 },
	});
	const execution = newExecution();
	await interruptedSend(workflow, execution);
	const sentBefore = txRequests();
	let retried = await runAs(workflow, 'retry', people(1000), execution);
	for (let chain = 2; chain <= 4; chain++) {
		retried = await runAs(workflow, 'retry', people(1000), execution, {
			contextData: savedContext(retried),
		});
		expect(txRequests()).toBe(sentBefore);
		const failed = retried.output('Mail Delivery', 1);
		expect(failed).toHaveLength(1000);
		expect(failed[0].json.error).toBe(
			'Not sent: the execution this one retries may have sent it already',
		);
	}
});

test('a retry of a refused retry under Stop Workflow is refused again, for item-by-item operations too', async () => {
	const workflow = upsertByEmail(16);
	const execution = newExecution();
	await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(400),
		executionContext: execution,
		mode: 'webhook',
		cancelWhen: () => upserts() >= 40,
	});
	await env.settled();
	const before = upserts();
	let retried = await runAs(workflow, 'retry', people(400), execution);
	expect(retried.error()?.message).toMatch(/may have sent it already/);
	retried = await runAs(workflow, 'retry', people(400), execution, {
		contextData: savedContext(retried),
	});
	expect(upserts()).toBe(before);
	expect(retried.error()?.message).toMatch(/may have sent it already/);
});

test('retrying the same failed execution twice never sends again what the first retry sent', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } }));
	const execution = newExecution();
	// The first try: the fifth request is answered 500 (it may have been processed); under Stop Workflow
	// no request starts after it, so items 500-999 are left for a retry.
	await env.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 4 });
	const first = await runAs(workflow, 'webhook', people(1000), execution);
	expect(first.error()).toBeDefined();
	expect(txRequests()).toBe(5);
	const retry = async () =>
		await runAs(workflow, 'retry', people(1000), execution, { contextData: savedContext(first) });
	await retry();
	expect(txRequests()).toBe(10);
	const again = await retry();
	expect(txRequests()).toBe(10);
	expect(again.error()?.message).toBe('Not sent: another retry of the same execution sends it');
});

test('a retry of an execution stopped mid-run refuses, also after 1,001 later runs of the node', async () => {
	const workflow = upsertByEmail(16, { onError: 'continueErrorOutput' });
	const execution = newExecution();
	await env.control('POST', 'settings', { latencyMs: 0 });
	await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(400),
		executionContext: execution,
		mode: 'webhook',
		cancelWhen: () => upserts() >= 40,
	});
	await env.settled();
	for (let run = 0; run < 1001; run++) await runAs(workflow, 'webhook', people(1), newExecution());
	const before = upserts();
	const retried = await runAs(workflow, 'retry', people(400), execution);
	expect(upserts()).toBe(before);
	expect(retried.output('Mail Delivery', 1)).toHaveLength(400);
}, 120_000);

test('a retry of an execution that failed on a bad field before any request sends, once the field is fixed', async () => {
	// The run claims itself while its items are read; the failed run ends only once that claim is in the context
	// n8n saves, or the retry would take the claim for a crashed try's and refuse to send.
	const workflow = actionWorkflow(sendToEachItem());
	const execution = newExecution();
	const items = people(300);
	items[299].json.email = 'not an address';
	const first = await runAs(workflow, 'webhook', items, execution);
	expect(first.error()?.message).toMatch(/"To".* item 299/);
	expect(txRequests()).toBe(0);
	const retried = await runAs(workflow, 'retry', people(300), execution, {
		contextData: savedContext(first),
	});
	expect(retried.error()).toBeUndefined();
	expect(env.view().mails).toHaveLength(300);
});

test('a retry of an execution that failed in this node (its record saved) goes on from the record', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } }));
	const execution = newExecution();
	await env.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 4 });
	const first = await runAs(workflow, 'webhook', people(1000), execution);
	expect(txRequests()).toBe(5);
	const retried = await runAs(workflow, 'retry', people(1000), execution, {
		contextData: savedContext(first),
	});
	expect(txRequests()).toBe(10);
	expect(retried.error()?.message).not.toMatch(/may have sent it already/);
});

test('a retry of an execution stopped mid-send (its record saved at the stop) sends none of what was under way again', async () => {
	await env.control('POST', 'settings', { latencyMs: 200 });
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 4 } }));
	const execution = newExecution();
	const stopped = await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(3000),
		executionContext: execution,
		mode: 'webhook',
		cancelWhen: () => txRequests() >= 6,
	});
	await env.settled();
	await env.control('POST', 'settings', { latencyMs: 0 });
	const retried = await runAs(workflow, 'retry', people(3000), execution, {
		contextData: stopped.savedContext,
	});
	// The requests under way at the stop are reported, not sent again.
	expect((retried.error() as NodeApiError).description).toMatch(
		/under way when the execution was stopped/,
	);
	const counts = new Map<string, number>();
	for (const mail of env.view().mails) counts.set(mail.email, (counts.get(mail.email) ?? 0) + 1);
	expect(Math.max(...counts.values())).toBe(1);
});

test('a send of several requests says, before any crash, that a retry after one needs Workflow Settings → Save Execution Progress; with it on, nothing is said', async () => {
	const workflow = actionWorkflow(sendToEachItem());
	const hintsOf = (result: Awaited<ReturnType<typeof runWorkflow>>) =>
		(result.run.data.resultData.runData['Mail Delivery'][0].hints ?? []).map(
			(hint) => hint.message,
		);
	const unsaved = await runAs(workflow, 'webhook', people(300), newExecution());
	expect(hintsOf(unsaved).join(' ')).toMatch(
		/can be retried only with Workflow Settings → Save Execution Progress on/,
	);
	const saved = await runAs(workflow, 'webhook', people(300), newExecution(), {
		workflowSettings: { saveExecutionProgress: true },
	});
	expect(hintsOf(saved).join(' ')).not.toMatch(/Save Execution Progress/);
	const one = await runAs(workflow, 'webhook', people(50), newExecution());
	expect(hintsOf(one).join(' ')).not.toMatch(/Save Execution Progress/);
});

test("n8n dies mid-send: each item the retry refuses names the UniqueMsgID its request carried in the try that died, which the platform's events about it carry (issue 54)", async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } }), {
		onError: 'continueErrorOutput',
	});
	const execution = newExecution();
	await interruptedSend(workflow, execution);
	const accepted = new Map(env.view().mails.map((mail) => [mail.email, mail.uniqueMsgID]));
	expect(accepted.size).toBeGreaterThanOrEqual(300);
	// The retry has nothing of the try that died (n8n saved nothing of it): as after a crash.
	const retried = await runAs(workflow, 'retry', people(1000), execution);
	const failed = retried.output('Mail Delivery', 1);
	expect(failed).toHaveLength(1000);
	const named = failed.map((item) =>
		/carry UniqueMsgID ([0-9a-f]{32})/.exec(String((item.json.details as IDataObject).description)),
	);
	expect(named.every(Boolean)).toBe(true);
	// Every item the platform accepted is named by the ID its mail carries; the others by their request's too.
	for (const [index, item] of people(1000).entries()) {
		const id = accepted.get(String(item.json.email));
		if (id !== undefined) expect(named[index]![1]).toBe(id);
	}
	expect(String((failed[0].json.details as IDataObject).description)).toMatch(
		/Redo After a Crash would send the 1000 items refused here again/,
	);
});
