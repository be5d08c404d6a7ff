/**
 * n8n's Retry of an execution whose data knows nothing of what the node sent (n8n crashed, restarted or was
 * stopped while it sent, after its last save; the harness is n8n's one process, regular mode): the retry takes the
 * run over from its journal in n8n's store (neverTwice/journal.ts): it keeps what the platform accepted, refuses what
 * may have reached it without an answer, naming it, and sends the rest; nobody gets the mail twice. A retry whose
 * execution never reached the node sends as usual, once the node ran in this n8n before that execution began.
 * (End to end, with n8n killed mid-send: test/e2e/retries.e2e.mjs.)
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
let lineage = 0;
/**
 * The context of an execution started by a webhook now (after this process loaded the node), which n8n carries into
 * every retry of it.
 */
const newExecution = () => ({ establishedAt: Date.now() + ++lineage, source: 'webhook' });
/** An execution that began before this process loaded the node (before a restart of n8n). */
const executionBeforeRestart = () => ({
	establishedAt: 1_700_000_000_000 + ++lineage,
	source: 'webhook',
});

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

/** Runs `workflow` once, stopped mid-send; the retry is given nothing of it, as after a crash (n8n saved none). */
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

/**
 * Retry of an execution `interruptedSend` stopped, pressed until it runs: n8n ends a stopped execution at once and
 * its node runs on until its requests are answered, and a Retry pressed meanwhile refuses, saying the execution
 * sends (`executionSends`), as it should; a person presses it again.
 */
async function retryAfterTheStop(
	workflow: ReturnType<typeof actionWorkflow>,
	items: ReturnType<typeof people>,
	execution: ReturnType<typeof newExecution>,
) {
	for (;;) {
		const retried = await runAs(workflow, 'retry', items, execution);
		const reason = (retried.error() as NodeApiError | undefined)?.context?.reason;
		if (reason !== 'executionSends') return retried;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** How many times the platform accepted each address. */
const acceptedCounts = () => {
	const counts = new Map<string, number>();
	for (const mail of env.view().mails) counts.set(mail.email, (counts.get(mail.email) ?? 0) + 1);
	return counts;
};

/** Every one of `count` people got the mail exactly once. */
function eachOnce(count: number) {
	const counts = acceptedCounts();
	expect(Math.max(...counts.values())).toBe(1);
	expect(counts.size).toBe(count);
}

/**
 * After a retry that took the run over: nobody got the mail twice, the items refused are those of the one request
 * under way at the stop (parallel 1), named as in flight, and every other item was accepted once.
 */
function takenOver(retried: Awaited<ReturnType<typeof runWorkflow>>) {
	const counts = acceptedCounts();
	expect(Math.max(...counts.values())).toBe(1);
	const refused = retried.output('Mail Delivery', 1);
	expect(refused.length).toBeLessThanOrEqual(100);
	for (const item of refused) expect(item.json.details).toMatchObject({ reason: 'inFlight' });
	const refusedIndexes = new Set(refused.map((item) => (item.pairedItem as { item: number }).item));
	for (const [index, person] of people(1000).entries())
		if (!refusedIndexes.has(index)) expect(counts.get(String(person.json.email))).toBe(1);
	return refused;
}

test('a retry of an execution stopped mid-send, its data knowing nothing of the node: it sends what never left, keeps what was accepted, refuses only the request under way, nobody twice', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } }), {
		onError: 'continueErrorOutput',
	});
	const execution = newExecution();
	await interruptedSend(workflow, execution);
	const sentBefore = env.view().mails.length;
	expect(sentBefore).toBeGreaterThanOrEqual(300);
	expect(sentBefore).toBeLessThan(1000);

	const retried = await retryAfterTheStop(workflow, people(1000), execution);
	takenOver(retried);
	const hints = (retried.run.data.resultData.runData['Mail Delivery'][0].hints ?? []).map(
		(hint) => hint.message,
	);
	expect(hints.join(' ')).toMatch(
		/Items 0–\d+ were sent by an earlier try of this step, as its record in n8n's store shows/,
	);
});

test('under Stop Workflow the same: the retry sends what never left, and its error names the request under way', async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } }));
	const execution = newExecution();
	await interruptedSend(workflow, execution);
	const before = env.view().mails.length;
	const retried = await retryAfterTheStop(workflow, people(1000), execution);
	const counts = acceptedCounts();
	expect(Math.max(...counts.values())).toBe(1);
	expect(counts.size).toBeGreaterThanOrEqual(900);
	expect(counts.size).toBeGreaterThan(before);
	if (counts.size < 1000)
		expect(retried.error()?.message).toMatch(/an earlier try may have sent it/);
});

test('with Redo After a Crash the retry sends every item its journal does not show accepted, as asked: everyone gets the mail, twice at most those of the 4 requests under way at the stop (the kill with a known request in flight: never-twice.test.cts)', async () => {
	const workflow = actionWorkflow(
		sendToEachItem({ options: { parallelRequests: 4, repeatOnRetry: true } }),
	);
	const execution = newExecution();
	await interruptedSend(workflow, execution);
	const acceptedBefore = env.view().mails.length;
	const retried = await retryAfterTheStop(workflow, people(1000), execution);
	expect(retried.error()).toBeUndefined();
	expect(retried.output('Mail Delivery')).toHaveLength(1000);
	expect(acceptedBefore).toBeGreaterThan(0);
	const counts = acceptedCounts();
	expect(counts.size).toBe(1000);
	expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
	expect([...counts.values()].filter((times) => times === 2).length).toBeLessThanOrEqual(400);
});

test('a retry of an execution that failed before the node sends as usual, when the node ran in this n8n before that execution began', async () => {
	const workflow = actionWorkflow(sendToEachItem());
	await runAs(workflow, 'webhook', people(1), newExecution());
	const retried = await runAs(workflow, 'retry', people(300), newExecution());
	expect(retried.error()).toBeUndefined();
	expect(env.view().mails).toHaveLength(301);
});

test('a retry of an execution that failed before the node refuses when the node never ran here before that execution began (it may be a node pasted again since, with a new ID its execution would not look under)', async () => {
	const workflow = actionWorkflow(sendToEachItem(), { onError: 'continueErrorOutput' });
	const retried = await runAs(workflow, 'retry', people(3), newExecution());
	expect(txRequests()).toBe(0);
	const failed = retried.output('Mail Delivery', 1);
	expect(failed[0].json.error).toBe('Not sent: whether an earlier try sent it cannot be told');
	expect(failed[0].json.details).toMatchObject({ reason: 'cannotTell', email: ['p0@example.org'] });
});

test('a retry of an execution that began before n8n started, with no record of the node from before it in the store, refuses', async () => {
	const workflow = actionWorkflow(sendToEachItem(), { onError: 'continueErrorOutput' });
	await runAs(workflow, 'webhook', people(1), newExecution());
	const retried = await runAs(workflow, 'retry', people(3), executionBeforeRestart());
	expect(txRequests()).toBe(1);
	expect(
		String((retried.output('Mail Delivery', 1)[0].json.details as IDataObject).description),
	).toMatch(/n8n restarted since this execution began/);
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

test('operations run item by item that change something are held to the same rule: each contact once', async () => {
	const workflow = upsertByEmail(4, { onError: 'continueErrorOutput' });
	const execution = newExecution();
	await runWorkflow({
		...workflow,
		credentials: env.credentials(),
		items: people(200),
		executionContext: execution,
		mode: 'webhook',
		cancelWhen: () => upserts() >= 12,
	});
	await env.settled();
	const retried = await runAs(workflow, 'retry', people(200), execution);
	// The requests under way at the stop (4 at once) may have reached the platform: refused, as in flight.
	const refused = retried.output('Mail Delivery', 1);
	expect(refused.length).toBeLessThanOrEqual(4);
	for (const item of refused) expect(item.json.details).toMatchObject({ reason: 'inFlight' });
	const counts = new Map<string, number>();
	for (const request of env.view().requests)
		if (request.path === '/v5/contacts/upsert') {
			const email = String((request.body as IDataObject).email);
			counts.set(email, (counts.get(email) ?? 0) + 1);
		}
	expect(counts.size).toBeGreaterThanOrEqual(200 - refused.length);
	expect(Math.max(...counts.values())).toBe(1);
});

/** The context data a finished run saved, as n8n gives it back to a retry of that execution. */
const savedContext = (result: Awaited<ReturnType<typeof runWorkflow>>) => result.savedContext;

test('retrying the same failed execution twice never sends again what the first retry sent: the second goes on from its journal', async () => {
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
	// What the first retry sent is reported as an earlier try's; request 5's items stay in doubt.
	expect(again.error()?.message).toMatch(/internal|500|error/i);
});

test('a retry of an execution stopped mid-run takes it over, also after 1,001 later runs of the node', async () => {
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
	const retried = await runAs(workflow, 'retry', people(400), execution);
	// The requests under way at the stop (16 at once) may have reached the platform: refused, as in flight.
	const refused = retried.output('Mail Delivery', 1);
	expect(refused.length).toBeLessThanOrEqual(16);
	for (const item of refused) expect(item.json.details).toMatchObject({ reason: 'inFlight' });
	const counts = new Map<string, number>();
	for (const request of env.view().requests)
		if (
			request.path === '/v5/contacts/upsert' &&
			(request.body as IDataObject).email !== 'p0@example.org'
		)
			counts.set(
				String((request.body as IDataObject).email),
				(counts.get(String((request.body as IDataObject).email)) ?? 0) + 1,
			);
	expect(Math.max(...counts.values())).toBe(1);
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

test('a send says nothing of Save Execution Progress in its output: Redo After a Crash says when a crash can be retried', async () => {
	const workflow = actionWorkflow(sendToEachItem());
	const unsaved = await runAs(workflow, 'webhook', people(300), newExecution());
	const hints = (unsaved.run.data.resultData.runData['Mail Delivery'][0].hints ?? []).map(
		(hint) => hint.message,
	);
	expect(hints.join(' ')).not.toMatch(/Save Execution Progress/);
	const { retryOptions } = await import('../../nodes/MailDelivery/actions/common.descriptions');
	expect(retryOptions.map((option) => option.description).join(' ')).toMatch(
		/A crashed execution can be retried only with Workflow Settings → Save Execution Progress on/,
	);
});

test("n8n dies after a request failed (500) and before n8n saved it: the retry refuses only that request's items, each naming its UniqueMsgID, address and reason as fields, and sends the rest", async () => {
	const workflow = actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } }));
	const execution = newExecution();
	await env.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 2 });
	const first = await runAs(workflow, 'webhook', people(1000), execution);
	expect(first.error()).toBeDefined();
	expect(txRequests()).toBe(3);
	// Request 3 was processed, then answered 500: the platform accepted items 200-299.
	const accepted = new Map(env.view().mails.map((mail) => [mail.email, mail.uniqueMsgID]));
	// The retry has nothing of that try (as after n8n died before saving it); its workflow routes errors apart.
	const routed = {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.name === 'Mail Delivery' ? { ...node, onError: 'continueErrorOutput' as const } : node,
		),
	};
	const retried = await runAs(routed, 'retry', people(1000), execution);
	const failed = retried.output('Mail Delivery', 1);
	expect(failed).toHaveLength(100);
	expect(failed.map((item) => item.pairedItem)).toEqual(
		Array.from({ length: 100 }, (_, index) => ({ item: 200 + index })),
	);
	expect(failed[0].json.error).toBe('Not sent again: an earlier try may have sent it');
	expect(failed[0].json.details).toMatchObject({
		reason: 'inFlight',
		uniqueMsgID: accepted.get('p200@example.org'),
		email: ['p200@example.org'],
	});
	// Items 300-999 never left: the retry sent them.
	eachOnce(1000);
});
