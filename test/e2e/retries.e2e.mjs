// End to end, "never twice" around n8n's Retry (line N8N_LINE), where n8n's own behaviour decides: Retry of an
// execution that has not finished (n8n accepts it while the execution still runs or waits, and the execution goes
// on too), by default (the retry cannot show it is alone, and refuses) and with Options → One Process (Regular
// Mode) (the retry takes the run and sends; the execution, coming to the node later, also after n8n was killed and
// started again, refuses), and Retry after the Mail Delivery node was pasted again (same name, a new node ID: n8n
// keeps the node's store row by ID and its saved data by name). What each recipient received is read from the
// emulator.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
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

/** The refusal of a retry that cannot show that no other try of its execution sends (neverTwice/retries.ts). */
function assertNotShownAlone(execution) {
	const error = refusalOf(execution);
	assert.equal(error.message, 'Not sent: the execution this one retries may have sent it already');
	assert.match(error.description, /^That execution did not fail in this node in this n8n process/);
}

/** The node's Options → One Process (Regular Mode) turned on in the workflow. */
const oneProcess = (workflow) => {
	const node = workflow.nodes.find((candidate) => candidate.name === 'Mail Delivery');
	node.parameters.options = { ...node.parameters.options, oneN8nProcess: true };
};

/** n8n 1.x carries no execution context into a retry: a retry of an unfinished or crashed execution has no lineage there. */
function twoOnly(t) {
	if (line === '2') return false;
	t.skip('n8n 1.x carries no execution context into a retry: such a retry is refused there');
	return true;
}

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

/** Posts 100 recipients to a workflow that waits first; returns the waiting execution, its Retry ended. */
async function retryWhileWaiting(prefix, name, shape) {
	const { id, hookPath } = await on.publishAnswering(name, sendParameters(), credential, {
		shape: (workflow) => {
			waitsFirst(workflow);
			shape(workflow);
		},
	});
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

test('Retry of an execution waiting in a Wait node, then the wait ends: the retry cannot show it is alone and refuses, saying why; the execution sends, each recipient once', async (t) => {
	if (twoOnly(t)) return;
	const prefix = 'waited';
	const { id, waiting, retried } = await retryWhileWaiting(prefix, 'retries: waiting', () => {});
	const resumed = await resume(id, waiting);
	await eachOnce(prefix, 100);
	assertNotShownAlone(retried);
	assert.equal(resumed.status, 'success');
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test('One Process on: Retry of an execution waiting in a Wait node sends; n8n is killed and started again, then the wait ends: the execution refuses, saying the retry sends it; each recipient once', async (t) => {
	if (twoOnly(t)) return;
	const prefix = 'waitedone';
	const { id, waiting, retried } = await retryWhileWaiting(
		prefix,
		'retries: waiting, one process',
		oneProcess,
	);
	// The execution began after n8n started, and the node has not run in it: all of it was seen here.
	assert.equal(retried.status, 'success');
	await eachOnce(prefix, 100);
	// The new process has no record of the retry: what it took is in n8n's store, where the execution looks.
	await on.crashAndRestart();
	const resumed = await resume(id, waiting);
	assert.equal(resumed.status, 'error');
	assert.equal(
		refusalOf(resumed).message,
		'Not sent: a retry of this execution sends it',
		resumed.data.resultData.error.description,
	);
	await eachOnce(prefix, 100);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

/** Runs 100 recipients through a 20 s Wait before the node; Retry while it waits, with the saved workflow's 1 s. */
async function retryWhileRunning(prefix, name, shape) {
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
	await on.post(hookPath, { people: people(100, prefix) });
	const running = await on.runningExecution(id);
	// The wait shortened and saved, then Retry with the saved workflow: the retry reaches the node first.
	await saveWorkflow(
		id,
		(nodes) => (nodes.find((node) => node.name === 'Slow').parameters.amount = 1),
	);
	await stack.session.rest('POST', `/executions/${running.id}/retry`, { loadWorkflow: true });
	const executions = await on.finishedExecutions(id, 2);
	await eachOnce(prefix, 100);
	const original = executions.find((execution) => String(execution.id) === String(running.id));
	const retried = executions.find((execution) => String(execution.retryOf) === String(running.id));
	return { id, original, retried };
}

test('Retry of an execution still running (in a 20 s Wait before the node), with the workflow saved since with a 1 s Wait: the retry refuses, saying why; the execution sends, each recipient once', async (t) => {
	if (twoOnly(t)) return;
	const { id, original, retried } = await retryWhileRunning(
		'running',
		'retries: running',
		() => {},
	);
	assertNotShownAlone(retried);
	assert.equal(original.status, 'success');
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test('One Process on: Retry of an execution still running (in a 20 s Wait before the node), with the workflow saved since with a 1 s Wait: the retry sends, the execution refuses saying so, each recipient once', async (t) => {
	if (twoOnly(t)) return;
	const { id, original, retried } = await retryWhileRunning(
		'runningone',
		'retries: running, one process',
		oneProcess,
	);
	assert.equal(retried.status, 'success');
	assert.equal(original.status, 'error');
	assert.equal(refusalOf(original).message, 'Not sent: a retry of this execution sends it');
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

test('the node pasted again after a Send of 300 failed half-way (request 2 answered 500): Retry with the saved, then the original workflow sends what was left, once', async () => {
	await stack.emulator.control('POST', 'settings', { latencyMs: 0 });
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
	const outcomes = [];
	for (const [retries, loadWorkflow] of [
		[1, true],
		[2, false],
	]) {
		await stack.session.rest('POST', `/executions/${failed.id}/retry`, { loadWorkflow });
		const newest = (await on.finishedExecutions(id, 1 + retries))
			.filter((execution) => String(execution.retryOf) === String(failed.id))
			.sort((a, b) => Number(b.id) - Number(a.id))[0];
		outcomes.push(newest.data.resultData.error?.message ?? newest.status);
	}
	// The pasted node is another node to n8n's store: nothing shows it that the failed try ended here. The
	// original workflow's node failed in this process: its retry is alone, and sends the rest (its error names the
	// request answered 500, whose items may have been sent and are not sent again).
	assert.equal(outcomes[0], 'Not sent: the execution this one retries may have sent it already');
	assert.doesNotMatch(outcomes[1], /^Not sent: /);
	const counts = await on.acceptedCounts(prefix);
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	// Items 200–299 went out once, by the retry with the workflow the execution ran.
	assert.equal(counts.size, 300);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test('One Process on, the node pasted again after n8n was killed mid-send: Retry with the saved, then with the original workflow sends nothing again, and says why', async (t) => {
	if (twoOnly(t)) return;
	await stack.emulator.control('POST', 'settings', { latencyMs: 300 });
	const prefix = 'pastedcrash';
	const { id, hookPath, requests } = await on.publishAnswering(
		'retries: pasted again after a crash',
		sendParameters({ options: { parallelRequests: 1 } }),
		credential,
		{ shape: oneProcess },
	);
	await on.post(hookPath, { people: people(3_000, prefix) });
	await on.until(async () => (await requests()) >= 6, 'six requests of the send');
	await on.crashAndRestart();
	const sentBefore = await requests();
	const crashed = await on.crashedExecution(id);
	await stack.emulator.control('POST', 'settings', { latencyMs: 0 });
	await pasteNodeAgain(id);
	// What the killed process sent was never saved: even on one process, nothing shows what it sent.
	for (const loadWorkflow of [true, false]) {
		await stack.session.rest('POST', `/executions/${crashed.id}/retry`, { loadWorkflow });
		const [retried] = await on.until(async () => {
			const found = (
				await stack.session.api('GET', `/executions?workflowId=${id}&includeData=true`)
			).data.filter((execution) => String(execution.retryOf) === String(crashed.id));
			return found.length === (loadWorkflow ? 1 : 2) && found.every((e) => e.stoppedAt)
				? found.sort((a, b) => Number(b.id) - Number(a.id))
				: false;
		}, 'the retry to end');
		assert.equal(retried.status, 'error');
		assertNotShownAlone(retried);
		assert.equal(await requests(), sentBefore, 'the retry sent again');
	}
	const counts = await on.acceptedCounts(prefix);
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});
