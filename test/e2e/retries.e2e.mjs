// End to end, "never twice" and "a lone retry sends" around n8n's Retry (line N8N_LINE), in real n8n (one process,
// regular mode): Retry after a node before the Send failed (a Code node, an upstream HTTP 500), with the saved and
// the original workflow, also after n8n restarted; after a platform refusal (403) and a 502, after n8n was killed
// mid-send (Save Execution Progress on: the retry takes the run over from its journal in n8n's store); Retry of an
// execution still running or waiting (the first to reach the node sends, the other says why not, also across a
// restart); and after the Mail Delivery node was pasted again (same name, a new node ID: n8n keeps the node's store
// row by ID and its saved data by name). What each recipient received is read from the emulator.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { people, sendParameters, startSendStack, stopStack, TX } from './executions.mjs';

const line = process.env.N8N_LINE ?? '2';
let stack;
let credential;
let on;

before(async () => ({ stack, credential, on } = await startSendStack(line)));
after(async () => await stopStack(stack));

/** Inserts `node` between Split Out and Mail Delivery. */
function before_(workflow, node) {
	workflow.nodes.push({ id: randomUUID(), position: [300, 0], ...node });
	workflow.connections['Split Out'] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
	workflow.connections[node.name] = { main: [[{ node: 'Mail Delivery', type: 'main', index: 0 }]] };
}

/** Every recipient with this prefix received the mail exactly once. */
async function eachOnce(prefix, count) {
	const counts = await on.acceptedCounts(prefix);
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	assert.equal(counts.size, count, `${counts.size} of ${count} recipients got the mail`);
}

/** The node's error in an execution that did not send, which must say why. */
function refusalOf(execution) {
	const error = execution.data.resultData.error;
	assert.match(error.message, /^Not sent: /);
	assert.ok(error.description.length > 40, error.description);
	return error;
}

/**
 * n8n 1.x carries no execution context into a retry: a retry whose data shows nothing of the node (its execution
 * never reached it, or crashed in it) has no lineage there, and refuses.
 */
function twoOnly(t) {
	if (line === '2') return false;
	t.skip('n8n 1.x carries no execution context into a retry: such a retry is refused there');
	return true;
}

/** The newest retry of `of`, once it ended. */
async function retryOf(id, of, loadWorkflow) {
	const before = (await stack.session.api('GET', `/executions?workflowId=${id}`)).data.length;
	await stack.session.rest('POST', `/executions/${of.id}/retry`, { loadWorkflow });
	return await on.until(async () => {
		const found = (
			await stack.session.api('GET', `/executions?workflowId=${id}&includeData=true`)
		).data.filter((execution) => String(execution.retryOf) === String(of.id));
		const all = (await stack.session.api('GET', `/executions?workflowId=${id}`)).data.length;
		const newest = found.sort((a, b) => Number(b.id) - Number(a.id))[0];
		return all > before && newest?.stoppedAt ? newest : false;
	}, 'the retry to end');
}

/** An upstream service of the workflow: it answers 500 as often as told, then 200. */
async function flakyUpstream() {
	let failures = 0;
	const server = http.createServer((request, response) => {
		request.resume();
		response.writeHead(failures > 0 ? 500 : 200, { 'Content-Type': 'application/json' });
		response.end(failures-- > 0 ? '{"error":"down"}' : '{"ok":true}');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}/status`,
		failNext: (times) => (failures = times),
		close: () => server.close(),
	};
}

/** Split Out → `node` (its output replaced by what Split Out gave) → Mail Delivery. */
function upstreamFirst(workflow, node) {
	before_(workflow, node);
	const people = {
		id: randomUUID(),
		name: 'People',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [350, 0],
		parameters: { jsCode: "return $('Split Out').all();" },
	};
	workflow.nodes.push(people);
	workflow.connections[node.name] = { main: [[{ node: 'People', type: 'main', index: 0 }]] };
	workflow.connections.People = { main: [[{ node: 'Mail Delivery', type: 'main', index: 0 }]] };
}

/** Workflow Settings → Save Execution Progress on: n8n keeps what an execution did before a crash. */
const savesProgress = (workflow) =>
	(workflow.settings = { ...workflow.settings, saveExecutionProgress: true });

/**
 * Webhook → Resume URL → Wait (until its resume URL is called) → People → Split Out → Mail Delivery: the Wait node
 * passes on the resume request, so People takes the recipients from the webhook again.
 */
function waitsFirst(workflow) {
	const set = (name, field, value, type) => ({
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [100, 100],
		parameters: {
			mode: 'manual',
			assignments: { assignments: [{ id: randomUUID(), name: field, value, type }] },
			includeOtherFields: true,
			options: {},
		},
	});
	workflow.nodes.push(
		set('Resume URL', 'resumeUrl', '={{ $execution.resumeUrl }}', 'string'),
		{
			id: randomUUID(),
			name: 'Wait',
			type: 'n8n-nodes-base.wait',
			typeVersion: 1.1,
			position: [200, 100],
			webhookId: randomUUID(),
			parameters: { resume: 'webhook', options: {} },
		},
		set('People', 'people', "={{ $('Webhook').first().json.body.people }}", 'array'),
	);
	workflow.nodes.find((node) => node.name === 'Split Out').parameters.fieldToSplitOut = 'people';
	const to = (node) => ({ main: [[{ node, type: 'main', index: 0 }]] });
	Object.assign(workflow.connections, {
		Webhook: to('Resume URL'),
		'Resume URL': to('Wait'),
		Wait: to('People'),
		People: to('Split Out'),
	});
}

/**
 * Posts 100 recipients to a workflow that waits first; returns the waiting execution, its Retry ended. With
 * `warmUp`, one execution of the workflow runs the node first: a retry of an execution that
 * never reached the node sends only if the node ran in this process before that execution began (a node pasted
 * again since has a new ID, under which the execution would not look).
 */
async function retryWhileWaiting(prefix, name, shape, { warmUp = false } = {}) {
	const { id, hookPath } = await on.publishAnswering(name, sendParameters(), credential, {
		shape: (workflow) => {
			waitsFirst(workflow);
			shape(workflow);
		},
	});
	if (warmUp) {
		await on.post(hookPath, { people: people(1, `warm-${prefix}`) });
		const first = await on.finishedExecution(
			id,
			(execution) => execution.status === 'waiting',
			'the first execution to wait',
		);
		const ran = await resume(id, first);
		assert.equal(ran.status, 'success');
	}
	await on.post(hookPath, { people: people(100, prefix) });
	const waiting = await on.finishedExecution(
		id,
		(execution) => execution.status === 'waiting',
		'the execution to wait',
	);
	await stack.session.rest('POST', `/executions/${waiting.id}/retry`, { loadWorkflow: false });
	const retried = await on.finishedExecution(
		id,
		(execution) => String(execution.retryOf) === String(waiting.id),
		'the retry to end',
	);
	return { id, waiting, retried };
}

/** The wait ends: n8n resumes the execution itself, which goes on to the node; returns it once it ended. */
async function resume(id, waiting) {
	const resumeUrl = waiting.data.resultData.runData['Resume URL'][0].data.main[0][0].json.resumeUrl;
	const answer = await fetch(resumeUrl);
	await answer.text();
	return await on.finishedExecution(
		id,
		(execution) => execution.id === waiting.id && execution.status !== 'waiting',
		'the resumed execution to end',
	);
}

test("Retry of an execution waiting in a Wait node sends (n8n's one process: the retry is alone with it); n8n is killed and started again, then the wait ends: the execution refuses, saying the retry sends it; each recipient once", async (t) => {
	if (twoOnly(t)) return;
	const prefix = 'waited';
	const { id, waiting, retried } = await retryWhileWaiting(prefix, 'retries: waiting', () => {}, {
		warmUp: true,
	});
	assert.equal(retried.status, 'success');
	await eachOnce(prefix, 100);
	// The new process has no memory of the retry: its claim is in n8n's store, where the execution looks.
	await on.crashAndRestart();
	const resumed = await resume(id, waiting);
	assert.equal(resumed.status, 'error');
	assert.equal(
		refusalOf(resumed).message,
		'Not sent: a retry of this execution took this step over',
		resumed.data.resultData.error.description,
	);
	await eachOnce(prefix, 100);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

/**
 * Runs 100 recipients through a 20 s Wait before the node; Retry while it waits, with the saved workflow's 1 s.
 * `warmUp` as for retryWhileWaiting: one execution runs the node first.
 */
async function retryWhileRunning(prefix, name, shape, { warmUp = false } = {}) {
	const { id, hookPath } = await on.publishAnswering(name, sendParameters(), credential, {
		shape: (workflow) => {
			before_(workflow, {
				name: 'Slow',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				webhookId: randomUUID(),
				parameters: { amount: 20, unit: 'seconds' },
			});
			shape(workflow);
		},
	});
	if (warmUp) {
		await on.post(hookPath, { people: people(1, `warm-${prefix}`) });
		const [first] = await on.finishedExecutions(id, 1);
		assert.equal(first.status, 'success');
	}
	await on.post(hookPath, { people: people(100, prefix) });
	const running = await on.runningExecution(id);
	// The wait shortened and saved, then Retry with the saved workflow: the retry reaches the node first.
	await saveWorkflow(
		id,
		(nodes) => (nodes.find((node) => node.name === 'Slow').parameters.amount = 1),
	);
	await stack.session.rest('POST', `/executions/${running.id}/retry`, { loadWorkflow: true });
	const executions = await on.finishedExecutions(id, warmUp ? 3 : 2);
	await eachOnce(prefix, 100);
	const original = executions.find((execution) => String(execution.id) === String(running.id));
	const retried = executions.find((execution) => String(execution.retryOf) === String(running.id));
	return { id, original, retried };
}

test('Retry of an execution still running (in a 20 s Wait before the node), with the workflow saved since with a 1 s Wait: the retry reaches the node first and sends, the execution refuses saying so, each recipient once', async (t) => {
	if (twoOnly(t)) return;
	const { id, original, retried } = await retryWhileRunning(
		'runningone',
		'retries: running',
		() => {},
		{ warmUp: true },
	);
	assert.equal(retried.status, 'success');
	assert.equal(original.status, 'error');
	assert.equal(
		refusalOf(original).message,
		'Not sent: a retry of this execution took this step over',
	);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

/** The saved workflow changed by `change` (its nodes), as the editor saves it. */
async function saveWorkflow(id, change) {
	const saved = await stack.session.api('GET', `/workflows/${id}`);
	change(saved.nodes);
	await stack.session.api('PUT', `/workflows/${id}`, {
		name: saved.name,
		nodes: saved.nodes,
		connections: saved.connections,
		settings: saved.settings,
	});
}

/** The workflow saved with the Mail Delivery node pasted again: the same node, a new node ID. */
const pasteNodeAgain = async (id) =>
	await saveWorkflow(
		id,
		(nodes) => (nodes.find((node) => node.name === 'Mail Delivery').id = randomUUID()),
	);

test('the node pasted again after a Send of 300 failed half-way (request 2 answered 500): Retry with the saved workflow sends what was left (the execution failed in this node, in this process), then Retry with the original one refuses, saying a later try ran this step; each recipient at most once', async () => {
	await stack.emulator.control('POST', 'settings', { latencyMs: 0, credits: 1_000_000 });
	const prefix = 'pasted';
	const { id, hookPath, requests } = await on.publishAnswering(
		'retries: pasted again',
		sendParameters({ options: { parallelRequests: 1 } }),
		credential,
	);
	// The second request is processed, then answered 500; under Stop Workflow the third does not start.
	await stack.emulator.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 1 });
	await on.post(hookPath, { people: people(300, prefix) });
	const failed = await on.finishedExecution(id, () => true, 'the send to fail');
	assert.equal(failed.status, 'error');
	assert.equal(await requests(), 2);
	await pasteNodeAgain(id);
	const saved = await retryOf(id, failed, true);
	assert.doesNotMatch(saved.data.resultData.error?.message ?? '', /^Not sent: /);
	const original = await retryOf(id, failed, false);
	assert.equal(
		original.data.resultData.error?.message,
		'Not sent: a later try of this execution ran this step already',
	);
	const counts = await on.acceptedCounts(prefix);
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	assert.equal(counts.size, 300);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test("a Code node before the send failed; the workflow fixed and saved, Retry with the saved workflow sends every recipient once (the retry runs in n8n's main process: n8n's regular mode)", async (t) => {
	if (twoOnly(t)) return;
	await stack.emulator.control('POST', 'settings', { latencyMs: 0 });
	const prefix = 'codefix';
	const { id, hookPath } = await on.publishAnswering(
		'retries: a Code node fails first',
		sendParameters(),
		credential,
		{
			shape: (workflow) => {
				upstreamFirst(workflow, {
					name: 'Check',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: { jsCode: "throw new Error('the check is broken');" },
				});
			},
		},
	);
	await on.post(hookPath, { people: people(100, prefix) });
	const failed = await on.finishedExecution(id, () => true, 'the check to fail');
	assert.equal(failed.status, 'error');
	assert.equal(failed.data.resultData.lastNodeExecuted, 'Check');
	await saveWorkflow(id, (nodes) => {
		nodes.find((node) => node.name === 'Check').parameters.jsCode = 'return $input.all();';
	});
	const retried = await retryOf(id, failed, true);
	assert.equal(retried.status, 'success', JSON.stringify(retried.data.resultData.error));
	await eachOnce(prefix, 100);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test('an upstream HTTP Request before the send got a 500; Retry with the original workflow sends every recipient once, also with n8n restarted between the failure and the retry', async (t) => {
	if (twoOnly(t)) return;
	const upstream = await flakyUpstream();
	try {
		const { id, hookPath } = await on.publishAnswering(
			'retries: upstream 500',
			sendParameters(),
			credential,
			{
				shape: (workflow) => {
					upstreamFirst(workflow, {
						name: 'Upstream',
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						executeOnce: true,
						parameters: { url: upstream.url, options: {} },
					});
				},
			},
		);
		// The node runs once first: after a restart, n8n's store shows the node ran before the failed execution began.
		await on.post(hookPath, { people: people(1, 'upwarm') });
		await on.finishedExecution(id, () => true, 'the first run');
		await new Promise((resolve) => setTimeout(resolve, 16_000));
		for (const [prefix, restart] of [
			['upstream', false],
			['upstreamrestart', true],
		]) {
			upstream.failNext(1);
			await on.post(hookPath, { people: people(100, prefix) });
			const failed = await on.finishedExecution(
				id,
				(execution) => execution.status === 'error' && !execution.retryOf,
				'the upstream call to fail',
			);
			if (restart) await on.crashAndRestart();
			const retried = await retryOf(id, failed, false);
			assert.equal(retried.status, 'success', JSON.stringify(retried.data.resultData.error));
			await eachOnce(prefix, 100);
			await stack.session.api('DELETE', `/executions/${failed.id}`);
		}
		await stack.session.api('POST', `/workflows/${id}/deactivate`);
	} finally {
		upstream.close();
	}
});

test('the platform refused the send (403: too few mail credits, nothing processed): credits added, n8n restarted, Retry sends every recipient once', async () => {
	await stack.emulator.control('POST', 'settings', { latencyMs: 0, credits: 0 });
	const prefix = 'credits';
	const { id, hookPath } = await on.publishAnswering(
		'retries: refused for credits',
		sendParameters(),
		credential,
	);
	await on.post(hookPath, { people: people(100, prefix) });
	const failed = await on.finishedExecution(id, () => true, 'the send to be refused');
	assert.equal(failed.status, 'error');
	assert.match(failed.data.resultData.error.message, /credit|403/i);
	await stack.emulator.control('POST', 'settings', { credits: 1_000_000 });
	await on.crashAndRestart();
	const retried = await retryOf(id, failed, false);
	assert.equal(retried.status, 'success', JSON.stringify(retried.data.resultData.error));
	await eachOnce(prefix, 100);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test('a 502 on request 2 of 3: Retry sends request 3, and says request 2 may have been sent by the execution it goes on from, naming it; nobody twice', async () => {
	await stack.emulator.control('POST', 'settings', { latencyMs: 0, credits: 1_000_000 });
	const prefix = 'gateway';
	const { id, hookPath, requests } = await on.publishAnswering(
		'retries: 502',
		sendParameters({ options: { parallelRequests: 1 } }),
		credential,
	);
	await stack.emulator.control('POST', 'fault', { path: TX, fault: 'badGateway', skip: 1 });
	await on.post(hookPath, { people: people(300, prefix) });
	const failed = await on.finishedExecution(id, () => true, 'the send to fail');
	assert.equal(failed.status, 'error');
	// The emulator's log holds what reached the platform: not the request a proxy answered 502.
	assert.equal(await requests(), 1);
	const retried = await retryOf(id, failed, false);
	assert.equal(await requests(), 2);
	const error = retried.data.resultData.error;
	assert.ok(error, 'the retry names the items of the request answered 502');
	assert.match(
		error.description,
		new RegExp(`execution ${failed.id}, which this retry goes on from`),
	);
	assert.doesNotMatch(error.description, /Retry On Fail/);
	const counts = await on.acceptedCounts(prefix);
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	// Request 2 was not processed (a proxy's 502): its 100 stay "may have been sent", never sent twice.
	assert.equal(counts.size, 200);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test('n8n killed mid-send (Save Execution Progress on): Retry keeps what the platform accepted, sends what never left, and refuses only the requests in flight, each naming its UniqueMsgID, address and reason; nobody twice', async (t) => {
	if (twoOnly(t)) return;
	await stack.emulator.control('POST', 'settings', { latencyMs: 600, credits: 1_000_000 });
	const prefix = 'killed';
	const { id, hookPath, requests } = await on.publishAnswering(
		'retries: killed mid-send',
		sendParameters({ options: { parallelRequests: 2 } }),
		credential,
		{
			shape: (workflow) => {
				savesProgress(workflow);
				workflow.nodes.find((node) => node.name === 'Mail Delivery').onError =
					'continueErrorOutput';
			},
		},
	);
	await on.post(hookPath, { people: people(2_000, prefix) });
	await on.until(async () => (await requests()) >= 6, 'six requests of the send');
	await on.crashAndRestart();
	await stack.emulator.control('POST', 'settings', { latencyMs: 0 });
	const acceptedBefore = (await on.acceptedCounts(prefix)).size;
	const crashed = await on.crashedExecution(id);
	const retried = await retryOf(id, crashed, false);
	const run = retried.data.resultData.runData['Mail Delivery'].at(-1);
	const refused = run.data.main[1] ?? [];
	const counts = await on.acceptedCounts(prefix);
	const reasons = [...new Set(refused.map((item) => item.json.details.reason))].join(', ');
	console.log(
		`  killed mid-send: ${acceptedBefore} accepted before the kill, ${refused.length} refused (${reasons}), ${counts.size - acceptedBefore} sent by the retry`,
	);
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	// At most the two requests under way at the kill are in doubt.
	assert.ok(refused.length <= 200, `${refused.length} refused`);
	for (const item of refused) {
		assert.equal(item.json.details.reason, 'inFlight');
		assert.match(item.json.details.uniqueMsgID, /^[0-9a-f]{32}$/);
		assert.deepEqual(item.json.details.email, [item.json.email]);
	}
	assert.equal(counts.size + refused.filter((item) => !counts.has(item.json.email)).length, 2_000);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test('the node pasted again after n8n was killed mid-send: Retry with the saved workflow refuses (its new row cannot show what the killed try sent), with the original one takes the run over; nobody twice', async (t) => {
	if (twoOnly(t)) return;
	await stack.emulator.control('POST', 'settings', { latencyMs: 300 });
	const prefix = 'pastedcrash';
	const { id, hookPath, requests } = await on.publishAnswering(
		'retries: pasted again after a crash',
		sendParameters({ options: { parallelRequests: 1 } }),
		credential,
		{ shape: savesProgress },
	);
	await on.post(hookPath, { people: people(3_000, prefix) });
	await on.until(async () => (await requests()) >= 6, 'six requests of the send');
	await on.crashAndRestart();
	const crashed = await on.crashedExecution(id);
	await stack.emulator.control('POST', 'settings', { latencyMs: 0 });
	await pasteNodeAgain(id);
	const sentBefore = await requests();
	const saved = await retryOf(id, crashed, true);
	console.log(
		`  the retry with the pasted node: ${saved.status}: ${saved.data.resultData.error?.message}`,
	);
	assert.equal(saved.status, 'error');
	assert.equal(refusalOf(saved).message, 'Not sent: whether an earlier try sent it cannot be told');
	assert.equal(await requests(), sentBefore, 'the retry with the pasted node sent');
	const original = await retryOf(id, crashed, false);
	console.log(
		`  the retry with the original node: ${original.status}: ${original.data.resultData.error?.message}`,
	);
	const counts = await on.acceptedCounts(prefix);
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	assert.ok(counts.size >= 3_000 - 100, `${counts.size} of 3,000 got the mail`);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});
