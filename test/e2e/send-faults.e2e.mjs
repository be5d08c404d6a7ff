// End-to-end, faults around a send in real n8n (line N8N_LINE): n8n's own Retry On Fail after a request
// answered 500, a platform that never answers, Sandbox Mode given by an expression, and n8n killed mid-send
// then the execution retried from the executions list. The emulator
// fails the chosen request (POST /__control/fault); what each recipient received is read from its log.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';

import { actionWorkflow, activate, eventually } from './env.mjs';
import { people, sendParameters, startSendStack, stopStack, TX } from './executions.mjs';

const line = process.env.N8N_LINE ?? '2';
let stack;
let credential;
let on;

before(async () => ({ stack, credential, on } = await startSendStack(line)));
after(async () => await stopStack(stack));

const requestsSince = async (from) => await on.requestsSince(from);
const acceptedCounts = async (prefix) => await on.acceptedCounts(prefix);

/**
 * Publishes Webhook → Split Out → Mail Delivery (with the given node settings), posts the people,
 * and returns the webhook's answer and the finished execution.
 */
async function runSend({ name, parameters, settings = {}, body }) {
	const { workflow, hookPath } = actionWorkflow({
		name,
		parameters,
		credential,
		splitField: 'body.people',
	});
	Object.assign(
		workflow.nodes.find((node) => node.name === 'Mail Delivery'),
		settings,
	);
	const id = await activate(stack.session, workflow);
	try {
		let answer;
		// n8n 2 publishes in the background: until the webhook is registered it answers 404.
		for (let attempt = 0; attempt < 100; attempt++) {
			answer = await fetch(`${stack.n8n.baseUrl}/webhook/${hookPath}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
			if (answer.status !== 404) break;
			await answer.text();
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		const status = answer.status;
		await answer.text();
		const [execution] = await eventually(async () => {
			const found =
				(await stack.session.api('GET', `/executions?workflowId=${id}&includeData=true`)).data ??
				[];
			return found.length > 0 && found.every((e) => e.stoppedAt) ? found : false;
		}, 'the execution to finish');
		return { status, execution };
	} finally {
		await stack.session.api('POST', `/workflows/${id}/deactivate`);
	}
}

test('Retry On Fail after one request of a 1,000-item send was answered 500: every recipient gets the mail at most once, and the error says what was sent', async () => {
	const from = (await stack.emulator.control('GET', 'requests')).requests.length;
	// The fifth request to the send path is processed, then answered 500 (its mail went out).
	await stack.emulator.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 4 });
	const { execution } = await runSend({
		name: 'e2e retry on fail',
		parameters: sendParameters(),
		settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 100 },
		body: { people: people(1000, 'retry') },
	});
	const counts = await acceptedCounts('retry');
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	// The failed request was processed; the retry sent the requests the first try had not started.
	assert.equal(counts.size, 1000);
	const sends = (await requestsSince(from)).filter((r) => r.path === TX);
	assert.equal(sends.length, 10, `requests: ${sends.map((r) => r.code).join(', ')}`);
	const failed = sends
		.find((r) => r.code === 500)
		.body.messageVersions.map((v) => Number(/^retry(\d+)@/.exec(v.to[0].email)[1]));
	const [first, last] = [failed[0], failed[failed.length - 1]];
	assert.equal(execution.status, 'error');
	const error = execution.data.resultData.error;
	assert.equal(
		error.message,
		'100 of 1000 items not confirmed as sent: the platform failed to process the request (code 500)',
	);
	const sentRanges =
		first === 0
			? `Items ${last + 1}–999 were sent`
			: last === 999
				? `Items 0–${first - 1} were sent`
				: `Items 0–${first - 1} and ${last + 1}–999 were sent`;
	assert.ok(
		error.description.includes(`${sentRanges}; items ${first}–${last} may have been sent.`),
		error.description,
	);
	assert.match(
		error.description,
		/sent by an earlier try of this execution \(n8n's Retry On Fail\) and were not sent again/,
	);
	assert.match(error.description, /mail may have gone out/);
});

test('a send whose request is never answered fails after the Timeout set in Options, saying mail may have gone out', async () => {
	await stack.emulator.control('POST', 'fault', { path: TX, fault: 'hang' });
	const started = Date.now();
	const { execution } = await runSend({
		name: 'e2e timeout',
		parameters: sendParameters({ options: { timeoutSeconds: 3 } }),
		body: { people: people(3, 'hang') },
	});
	const elapsed = Date.now() - started;
	assert.ok(elapsed >= 3000, `failed after ${elapsed} ms`);
	assert.ok(elapsed < 60_000, `failed after ${elapsed} ms`);
	const error = execution.data.resultData.error;
	assert.equal(
		error.message,
		'3 of 3 items not confirmed as sent: the platform did not answer within 3 s (Timeout)',
	);
	assert.doesNotMatch(error.message, /retry the request immediately|perhaps/);
	assert.doesNotMatch(error.description, /no item was sent/i);
	assert.match(error.description, /Items 0–2 may have been sent\./);
	assert.match(error.description, /mail may have gone out/);
	// The platform processed it: the three messages went out, once.
	assert.equal((await acceptedCounts('hang')).size, 3);
});

test('Sandbox Mode given by the expression {{ "true" }} sends nothing', async () => {
	const from = (await stack.emulator.control('GET', 'requests')).requests.length;
	const { status, execution } = await runSend({
		name: 'e2e sandbox expression',
		parameters: sendParameters({ sandboxMode: '={{ "true" }}' }),
		body: { people: people(3, 'sandbox') },
	});
	assert.equal(status, 200);
	assert.equal(execution.status, 'success');
	const sends = (await requestsSince(from)).filter((r) => r.path === TX);
	assert.equal(sends.length, 1);
	assert.equal(sends[0].body.sandboxMode, true);
	assert.equal((await acceptedCounts('sandbox')).size, 0);
	const items = execution.data.resultData.runData['Mail Delivery'][0].data.main[0];
	assert.ok(items.every((item) => item.json.sandboxMode === true));
});

const crashAndRestart = async () => await on.crashAndRestart();
const finishedExecution = async (id, which, what, timeoutMs) =>
	await on.finishedExecution(id, which, what, timeoutMs);
const crashedExecution = async (id) => await on.crashedExecution(id);

/**
 * Retries the execution from the executions list (as its Retry menu does: with the original or the currently
 * saved workflow), again and again on the retry before it, and checks each is refused without sending.
 */
async function retryChain(id, first, { times, requestsOf }) {
	const before = await requestsOf();
	let retried = first;
	for (let chain = 0; chain < times; chain++) {
		const of = retried.id;
		await stack.session.rest('POST', `/executions/${of}/retry`, { loadWorkflow: chain % 2 === 1 });
		retried = await finishedExecution(
			id,
			(execution) => String(execution.retryOf) === String(of),
			`retry ${chain + 1} to finish`,
		);
		if (line === '1') {
			// n8n 1.x carries no execution context into a retry: one whose data shows nothing of the node refuses.
			assert.equal(retried.status, 'error', `retry ${chain + 1} of the crash succeeded`);
			assert.match(retried.data.resultData.error.message, /may have sent it already/);
			assert.equal(await requestsOf(), before, `retry ${chain + 1} sent again`);
		} else if (chain > 0)
			// The first retry took the run over from its journal and sent what never left: later ones send nothing more.
			assert.equal(await requestsOf(), afterFirst, `retry ${chain + 1} sent again`);
		if (chain === 0) afterFirst = await requestsOf();
	}
}

let afterFirst = 0;

const publishAnswering = async (name, parameters, path = TX) =>
	await on.publishAnswering(name, parameters, credential, { path });

test('n8n killed mid-send, then Retry from the executions list, and Retry of each retry: n8n 2.x takes the run over from its journal (the rest is sent), 1.x refuses; no recipient gets the mail twice', async () => {
	await stack.emulator.control('POST', 'settings', { latencyMs: 600, credits: 1_000_000 });
	const {
		id,
		hookPath,
		requests: sends,
	} = await publishAnswering(
		'e2e crash retry',
		sendParameters({ options: { parallelRequests: 1 } }),
	);
	await post(hookPath, { people: people(3_000, 'crash') });
	await eventually(async () => (await sends()) >= 3, 'three requests of the send', 60_000);
	await crashAndRestart();
	const sentByFirstTry = await sends();
	assert.ok(sentByFirstTry < 30, `the first try sent all ${sentByFirstTry} requests`);
	const crashed = await crashedExecution(id);
	await retryChain(id, crashed, { times: 3, requestsOf: sends });
	const counts = await acceptedCounts('crash');
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	// 2.x: every recipient but those of the one request in flight at the kill (refused, not sent again).
	if (line === '2') assert.ok(counts.size >= 2_900, `${counts.size} of 3,000 got the mail`);
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
	await stack.emulator.control('POST', 'settings', { latencyMs: 0 });
});

test('Contact → Create or Update at 16 at once, n8n killed mid-run, then 1,001 runs of the node in a loop: Retry takes the run over (n8n 2.x; 1.x refuses), Retry of the retry sends nothing more; each contact once', async () => {
	// 400 upserts, 16 at once, a second each: n8n is killed well before the run could end.
	await stack.emulator.control('POST', 'settings', { latencyMs: 1_000 });
	const upsert = actionWorkflow({
		name: 'e2e crash loop',
		parameters: {
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			options: { parallelRequests: 16 },
		},
		credential,
		splitField: 'body.people',
	});
	const { workflow, hookPath } = upsert;
	workflow.nodes.find((node) => node.name === 'Webhook').parameters.responseMode = 'onReceived';
	// Split Out → Loop Over Items (the batch size the push gives) → Mail Delivery → back to the loop.
	workflow.nodes.push({
		id: randomUUID(),
		name: 'Loop',
		type: 'n8n-nodes-base.splitInBatches',
		typeVersion: 3,
		position: [300, 0],
		parameters: { batchSize: "={{ $('Webhook').first().json.body.batch }}", options: {} },
	});
	workflow.connections['Split Out'] = { main: [[{ node: 'Loop', type: 'main', index: 0 }]] };
	workflow.connections.Loop = { main: [[], [{ node: 'Mail Delivery', type: 'main', index: 0 }]] };
	workflow.connections['Mail Delivery'] = { main: [[{ node: 'Loop', type: 'main', index: 0 }]] };
	const id = await activate(stack.session, workflow);
	const from = (await stack.emulator.control('GET', 'requests')).requests.length;
	const upserts = async () =>
		(await requestsSince(from)).filter((r) => r.path === '/v5/contacts/upsert').length;
	await post(hookPath, { people: people(400, 'loop'), batch: 400 });
	await eventually(async () => (await upserts()) >= 40, '40 upserts', 60_000);
	await crashAndRestart();
	const crashed = await crashedExecution(id);
	await stack.emulator.control('POST', 'settings', { latencyMs: 0 });
	const loopStarted = Date.now();
	await post(hookPath, { people: people(1_001, 'between'), batch: 1 });
	const between = await finishedExecution(
		id,
		(execution) => execution.id !== crashed.id && !execution.retryOf,
		'the 1,001 runs to finish',
		900_000,
	);
	console.log(`  1,001 runs of the node in a loop: ${Date.now() - loopStarted} ms`);
	assert.equal(between.status, 'success');
	assert.equal(between.data.resultData.runData['Mail Delivery'].length, 1_001);
	await retryChain(id, crashed, { times: 2, requestsOf: upserts });
	const counts = new Map();
	for (const request of await requestsSince(from))
		if (request.path === '/v5/contacts/upsert' && request.body.email.startsWith('loop'))
			counts.set(request.body.email, (counts.get(request.body.email) ?? 0) + 1);
	assert.equal(Math.max(...counts.values()), 1, 'a contact was upserted twice');
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

const post = async (hookPath, body) => await on.post(hookPath, body);

test('the same failed execution retried twice: the first retry sends exactly what was not sent, the second takes that run over from its journal and sends nothing', async () => {
	await stack.emulator.control('POST', 'settings', { latencyMs: 0 });
	const {
		id,
		hookPath,
		requests: sends,
	} = await publishAnswering(
		'e2e retry twice',
		sendParameters({ options: { parallelRequests: 1 } }),
	);
	// The fifth request is answered 500: under Stop Workflow nothing starts after it.
	await stack.emulator.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 4 });
	await post(hookPath, { people: people(1_000, 'twice') });
	const failed = await finishedExecution(id, () => true, 'the first try to fail');
	assert.equal(failed.status, 'error');
	assert.equal(await sends(), 5);
	await stack.session.rest('POST', `/executions/${failed.id}/retry`, { loadWorkflow: false });
	const first = await finishedExecution(
		id,
		(execution) => String(execution.retryOf) === String(failed.id),
		'the first retry to finish',
	);
	// The execution failed in the node in this n8n process: its retry shows it is alone, and sends what the first try
	// had not (its error names the items of the request answered 500, which may have been sent and are not sent again).
	assert.doesNotMatch(first.data.resultData.error?.message ?? '', /^Not sent: /);
	assert.equal(await sends(), 10, 'the first retry sends what the first try had not');
	const counts = await acceptedCounts('twice');
	assert.equal(counts.size, 1_000);
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	await stack.session.rest('POST', `/executions/${failed.id}/retry`, { loadWorkflow: true });
	const again = await finishedExecution(
		id,
		(execution) => String(execution.retryOf) === String(failed.id) && execution.id !== first.id,
		'the second retry to end',
	);
	assert.equal(again.status, 'error');
	// Its error is the first retry's: the items of the request answered 500 may have been sent.
	assert.equal(again.data.resultData.error.message, first.data.resultData.error.message);
	assert.equal(await sends(), 10, 'the second retry sent again');
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test('Stop pressed mid-send, then Retry: nothing goes out twice (n8n 2.x saves none of the node at the stop: the retry takes the run over from its journal, sends what never left and refuses what the stop cut off in flight; n8n 1.x leaves its retry nothing to run, or refuses)', async () => {
	// Answers slow enough that the send is still running when the stop comes (30 requests, 4 at once: about 12 s),
	// however slowly a loaded machine lists the running execution.
	await stack.emulator.control('POST', 'settings', { latencyMs: 1_500 });
	const {
		id,
		hookPath,
		requests: sends,
	} = await publishAnswering(
		'e2e stop retry',
		sendParameters({ options: { parallelRequests: 4 } }),
	);
	await post(hookPath, { people: people(3_000, 'stopped') });
	await eventually(async () => (await sends()) >= 6, 'six requests of the send', 60_000);
	// The executions list as the editor reads it (n8n's public API does not list running executions).
	const running = await eventually(async () => {
		const filter = encodeURIComponent(JSON.stringify({ workflowId: id, status: ['running'] }));
		const { results = [] } = await stack.session.rest('GET', `/executions?filter=${filter}`);
		return results[0] ?? false;
	}, 'the running execution');
	await stack.session.rest('POST', `/executions/${running.id}/stop`);
	const stopped = await finishedExecution(id, () => true, 'the stop');
	// The requests under way at the stop are answered, and the stopped run's node ends, before the retry.
	await new Promise((resolve) => setTimeout(resolve, 3_000));
	await stack.emulator.control('POST', 'settings', { latencyMs: 0 });
	await stack.session.rest('POST', `/executions/${stopped.id}/retry`, { loadWorkflow: false });
	const retried = await finishedExecution(
		id,
		(execution) => String(execution.retryOf) === String(stopped.id),
		'the retry to finish',
	);
	const error = retried.data.resultData.error;
	console.log(`  the retry: ${retried.status}: ${error?.message}`);
	const counts = await acceptedCounts('stopped');
	assert.equal(Math.max(...counts.values()), 1, 'a recipient got the mail twice');
	if (line === '1') {
		assert.ok(counts.size < 3_000, 'the retry sent');
		// n8n 1.123 saves the stopped execution as it stood when the stop came: with the node's run, and nothing
		// left to run (its retry runs no node and ends 'success'), or without it, while the node still sent (its
		// retry runs the node, which finds the run taken by the try this process saw start sending, and refuses).
		if (retried.data.resultData.runData['Mail Delivery'] === undefined)
			assert.equal(retried.status, 'success');
		else
			assert.equal(
				error?.message,
				'Not sent: the execution this one retries may have sent it already',
			);
	} else {
		// n8n 2.41 marks the execution canceled and saves none of the node's data (no run, no record): the retry
		// finds the run claimed by the try that was stopped, which is over, and takes it over from its journal. It
		// sends what never left; the requests the stop cut off (at most 4 of 100, the node's parallel requests) may
		// have reached the platform, so their items are refused, and said to be.
		assert.equal(stopped.status, 'canceled');
		const notConfirmed =
			/^(\d+) of 3000 items not confirmed as sent: not sent again: an earlier try may have sent it/.exec(
				error?.message ?? '',
			);
		if (retried.status === 'success') assert.equal(counts.size, 3_000);
		else {
			assert.ok(notConfirmed, `the retry's error: ${error?.message}`);
			const refused = Number(notConfirmed[1]);
			assert.ok(refused <= 400, `${refused} refused: more than the requests in flight`);
			assert.ok(
				counts.size >= 3_000 - refused,
				`${3_000 - counts.size} recipients neither sent nor refused`,
			);
		}
	}
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
});
