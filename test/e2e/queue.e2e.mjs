// End-to-end in n8n's queue mode (n8n 2.41.1): PostgreSQL, Redis, one main, two workers and one webhook
// processor, with the emulator. Pushes land on the webhook processor, the trigger's secret was stored by main,
// executions run on workers, and OAuth tokens are refreshed by whichever worker runs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { setupOwner } from '../../scripts/n8n-runtime.mjs';
import { residentMiB, StackUnavailable, startQueueStack } from '../../scripts/queue-stack.mjs';
import {
	actionWorkflow,
	activate,
	createCredential,
	credentialData,
	eventually,
	pushBody,
	startEmulatorProcess,
	triggerWorkflow,
} from './env.mjs';
import {
	askParameters,
	executionOf,
	executionsOf as listedExecutions,
	mailLinks,
	openLink,
	outputOf,
	startAsking,
	waitingWorkflow,
} from './waiting.mjs';

const FIRST_SEQ_ID = 2505070900222412710n;
let stack;
let emulator;
let session;
let unavailable;
const credentials = {};
const trigger = {};
/** Which worker ran each execution, from the workers' own log lines ("Worker started execution 12 (job 3)"). */
const ranOn = new Map();
/** Every worker that ran (or resumed) each execution, in order. */
const runsOf = new Map();
/** What the trigger wrote in n8n's logs, by process. */
const triggerLog = [];

const timings = {};
let memory;
async function timed(name, work) {
	const started = Date.now();
	try {
		return await work();
	} finally {
		timings[name] = Date.now() - started;
		console.log(`${name}: ${timings[name]} ms`);
	}
}

before(async () => {
	try {
		stack = await timed(
			'stack start (PostgreSQL, Redis, main, 2 workers, 2 webhook processors)',
			() =>
				startQueueStack({
					workers: 2,
					webhooks: 2,
					log: (name, text) => {
						for (const match of text.matchAll(/Worker started execution (\d+)/g)) {
							ranOn.set(match[1], name);
							runsOf.set(match[1], [...(runsOf.get(match[1]) ?? []), name]);
						}
						for (const line of text.split('\n'))
							if (line.includes('Mail Delivery Trigger:')) triggerLog.push(`[${name}] ${line}`);
					},
				}),
		);
	} catch (error) {
		if (!(error instanceof StackUnavailable) || process.env.MAIL_DELIVERY_REQUIRE_QUEUE === '1')
			throw error;
		unavailable = error.message;
		console.log(`SKIPPED the queue-mode suite: ${unavailable}`);
		return;
	}
	console.log('start-up per process (ms):', JSON.stringify(stack.timings));
	emulator = await startEmulatorProcess();
	session = await setupOwner(stack.main.baseUrl);
	credentials.signature = await createCredential(
		session,
		'mailDeliverySignatureApi',
		credentialData(emulator, 'mailDeliverySignatureApi'),
	);
	credentials.oauth = await createCredential(
		session,
		'mailDeliveryClientCredentialsOAuth2Api',
		credentialData(emulator, 'mailDeliveryClientCredentialsOAuth2Api'),
	);
});

after(async () => {
	if (memory)
		console.log(
			'resident memory per process after the two-worker load (MiB):',
			JSON.stringify(memory),
		);
	await emulator?.stop();
	await stack?.stop();
});

const webhookConfig = async () => (await emulator.control('GET', 'state')).webhook;
const workerNames = () => stack.workers.map((worker) => worker.name);

/** Executions of a workflow, with data, all of them (the public API pages by cursor). */
async function executionsOf(workflowId) {
	const all = [];
	let cursor;
	do {
		const page = await session.api(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		);
		all.push(...(page.data ?? []));
		cursor = page.nextCursor;
	} while (cursor);
	return all;
}

const triggerItems = (execution) =>
	Object.values(execution.data.resultData.runData['Mail Delivery Trigger'][0].data.main).flat();

/** Calls a production webhook on the webhook processor (404 until the workflow is published there). */
async function callWebhook(hookPath, body = {}) {
	return await eventually(
		async () => {
			const answer = await fetch(`${stack.webhookUrl}/webhook/${hookPath}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
			const text = await answer.text();
			return answer.status === 404
				? false
				: { status: answer.status, data: text ? JSON.parse(text) : text };
		},
		`the webhook ${hookPath} on the webhook processor`,
		120_000,
	);
}

test("the trigger, activated on main, registers the webhook processor's URL", async (t) => {
	if (unavailable) return t.skip(unavailable);
	trigger.prior = await webhookConfig();
	trigger.id = await activate(
		session,
		triggerWorkflow({ name: 'queue trigger', credential: credentials.signature }),
	);
	await timed('trigger registration', () =>
		eventually(
			async () =>
				String((await webhookConfig()).transCallbackUrl).startsWith(`${stack.webhookUrl}/webhook/`),
			'the trigger to register',
			120_000,
		),
	);
	trigger.url = (await webhookConfig()).transCallbackUrl;
	assert.match(trigger.url, /\/events\?token=mdt1[0-9a-f]{48}#n8n=[0-9a-f]{12}&/);
});

test('pushes reach the webhook processor and run on workers; the secret main stored is checked there', async (t) => {
	if (unavailable) return t.skip(unavailable);
	assert.ok(trigger.url, 'the trigger did not register');
	const body = pushBody(3);
	const withoutToken = trigger.url.replace(/token=[^&#]+/, 'token=mdt1' + '0'.repeat(48));
	const refused = await fetch(withoutToken, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body,
	});
	assert.equal(refused.status, 401);
	await refused.text();
	const accepted = await timed('push answered by the webhook processor', () =>
		fetch(trigger.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }),
	);
	assert.equal(accepted.status, 200);
	assert.deepEqual(await accepted.json(), { received: 3, kept: 3 });
	const [execution] = await timed('push to finished execution', () =>
		eventually(
			async () => {
				const found = await executionsOf(trigger.id);
				return found.length === 1 && found[0].status === 'success' ? found : false;
			},
			'the push execution',
			120_000,
		),
	);
	assert.deepEqual(
		triggerItems(execution).map((item) => item.json.MailSeqId),
		[0n, 1n, 2n].map((i) => String(FIRST_SEQ_ID + i)),
	);
	await eventually(async () => ranOn.has(String(execution.id)), 'a worker to log the execution');
	assert.ok(
		workerNames().includes(ranOn.get(String(execution.id))),
		`execution ${execution.id} ran on ${ranOn.get(String(execution.id))}`,
	);
});

test('each pushed event once: the same push twice at once on one webhook processor starts one execution; again on the other webhook processor, once that execution ended, it starts none', async (t) => {
	if (unavailable) return t.skip(unavailable);
	assert.ok(trigger.url, 'the trigger did not register');
	const body = pushBody(4, 9_000_000);
	const post = async (url) => {
		const answer = await fetch(url, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body,
		});
		return { status: answer.status, body: await answer.json() };
	};
	const before = (await executionsOf(trigger.id)).length;
	const answers = await Promise.all([post(trigger.url), post(trigger.url)]);
	console.log(`the same push twice at once: ${JSON.stringify(answers)}`);
	assert.deepEqual(answers.map((answer) => [answer.status, answer.body.kept]).sort(), [
		[200, 0],
		[200, 4],
	]);
	const executions = await eventually(
		async () => {
			const found = await executionsOf(trigger.id);
			return found.length === before + 1 && found.every((execution) => execution.finished)
				? found
				: false;
		},
		'the execution of the push',
		120_000,
	);
	// The record the worker saved with the execution is what the other webhook processor reads.
	const other = trigger.url.replace(stack.webhookUrl, stack.webhooks[1].baseUrl);
	assert.notEqual(other, trigger.url);
	assert.deepEqual(await post(other), {
		status: 200,
		body: { received: 4, kept: 0, repeated: 4 },
	});
	await new Promise((resolve) => setTimeout(resolve, 1000));
	assert.equal((await executionsOf(trigger.id)).length, executions.length);
	// The workers, which run executions with empty static data in n8n 2.x, saved nothing over the trigger's.
	assert.deepEqual(
		triggerLog.filter((line) => /lost its secret/.test(line)),
		[],
	);
});

test('an action workflow called through the webhook processor runs on a worker', async (t) => {
	if (unavailable) return t.skip(unavailable);
	const { workflow, hookPath } = actionWorkflow({
		name: 'queue action',
		credential: credentials.signature,
		parameters: { resource: 'contact', operation: 'upsert', email: 'queue@example.org' },
	});
	const id = await activate(session, workflow);
	const answer = await timed('action workflow through the webhook processor', () =>
		callWebhook(hookPath),
	);
	assert.equal(answer.status, 200, JSON.stringify(answer.data).slice(0, 300));
	assert.equal((Array.isArray(answer.data) ? answer.data[0] : answer.data).success, true);
	const [execution] = await executionsOf(id);
	await eventually(async () => ranOn.has(String(execution.id)), 'a worker to log the execution');
	assert.ok(workerNames().includes(ranOn.get(String(execution.id))));
	await session.api('POST', `/workflows/${id}/deactivate`);
});

test('Send and Wait for Response: the run waits on a worker, its link is answered on the webhook processor, and the resumed run goes on on a worker', async (t) => {
	if (unavailable) return t.skip(unavailable);
	await emulator.control('POST', 'settings', { clickTrackingByDefault: true });
	const { workflow, hookPath } = waitingWorkflow({
		name: 'queue approval',
		credential: credentials.signature,
		parameters: askParameters({ sendTo: 'queue-approver@example.org' }),
	});
	const id = await startAsking({ session, webhookBase: stack.webhookUrl, workflow, hookPath });
	const waiting = await executionOf(session, id, 'waiting');
	await eventually(async () => ranOn.has(String(waiting.id)), 'a worker to log the execution');
	const { links } = await mailLinks(emulator, 'queue-approver@example.org');
	assert.equal(new URL(links[0]).origin, stack.webhookUrl);
	const page = await openLink(links[0]);
	assert.match(page.text, /<form method="POST">/);
	assert.equal((await listedExecutions(session, id))[0].status, 'waiting');
	const answered = await openLink(links[0], { method: 'POST' });
	assert.match(answered.text, /Got it, thanks/);
	const done = await executionOf(session, id, 'success', 60_000);
	assert.equal(outputOf(done, 'After')[0].data.approved, true);
	// Two jobs on the workers: the run until it waited, then the resumed run.
	await eventually(
		async () => runsOf.get(String(waiting.id))?.length === 2,
		'a worker to log the resumed run',
	);
	assert.ok(runsOf.get(String(waiting.id)).every((name) => workerNames().includes(name)));
	await session.api('POST', `/workflows/${id}/deactivate`);
});

test('the client-credentials token is fetched once across both workers, and refreshed once after it expires', async (t) => {
	if (unavailable) return t.skip(unavailable);
	const grants = async () => (await emulator.control('GET', 'state')).tokenRequests;
	const { workflow, hookPath } = actionWorkflow({
		name: 'queue oauth',
		credential: credentials.oauth,
		parameters: { resource: 'webhook', operation: 'get' },
	});
	const id = await activate(session, workflow);
	/** Runs the workflow until both workers have run it since `since`; returns how many runs that took. */
	const runOnBothWorkers = async (since) => {
		for (let round = 0; round < 10; round++) {
			const answers = await Promise.all(Array.from({ length: 6 }, () => callWebhook(hookPath)));
			assert.ok(
				answers.every((answer) => answer.status === 200),
				JSON.stringify(answers.map((answer) => answer.data)).slice(0, 300),
			);
			const executions = await executionsOf(id);
			await eventually(
				async () => executions.every((execution) => ranOn.has(String(execution.id))),
				'the workers to log their executions',
			);
			const workersUsed = new Set(
				executions
					.filter((execution) => Number(execution.id) > since)
					.map((execution) => ranOn.get(String(execution.id))),
			);
			if (workerNames().every((name) => workersUsed.has(name))) return;
		}
		assert.fail('the queue never gave both workers a run');
	};
	const start = await grants();
	// First use alone: no token stored yet, so whichever worker runs it fetches one and n8n saves it.
	const first = await callWebhook(hookPath);
	assert.equal(first.status, 200, JSON.stringify(first.data));
	const [firstExecution] = await executionsOf(id);
	await runOnBothWorkers(Number(firstExecution.id));
	assert.equal(await grants(), start + 1, 'token requests across both workers');

	await emulator.control('POST', 'clock', { advanceSeconds: 2 * 3600 + 60 });
	try {
		// The expired token is answered 401 once; that worker fetches a new one, the other uses the saved one.
		const refreshed = await callWebhook(hookPath);
		assert.equal(refreshed.status, 200, JSON.stringify(refreshed.data));
		const latest = Math.max(...(await executionsOf(id)).map((execution) => Number(execution.id)));
		await runOnBothWorkers(latest);
		assert.equal(await grants(), start + 2, 'token requests after expiry');
	} finally {
		await emulator.control('POST', 'clock', { advanceSeconds: -(2 * 3600 + 60) });
		await session.api('POST', `/workflows/${id}/deactivate`);
	}
});

/** Fires 20 pushes of 1,000 events at once and checks every event became exactly one item. */
async function loadCheck(label, offset) {
	const before = new Set((await executionsOf(trigger.id)).map((execution) => String(execution.id)));
	const started = Date.now();
	const answers = await Promise.all(
		Array.from({ length: 20 }, (_, push) =>
			fetch(trigger.url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: pushBody(1000, offset + push * 1000),
			}).then(async (answer) => ({ status: answer.status, body: await answer.json() })),
		),
	);
	const answered = Date.now() - started;
	assert.ok(
		answers.every((answer) => answer.status === 200 && answer.body.kept === 1000),
		JSON.stringify(answers.slice(0, 3)),
	);
	const executions = await eventually(
		async () => {
			const found = (await executionsOf(trigger.id)).filter(
				(execution) => !before.has(String(execution.id)),
			);
			return found.length >= 20 && found.every((execution) => execution.status === 'success')
				? found
				: false;
		},
		`20 executions (${label})`,
		180_000,
	);
	const ended = Math.max(...executions.map((execution) => Date.parse(execution.stoppedAt)));
	const seqIds = executions.flatMap((execution) =>
		triggerItems(execution).map((item) => item.json.MailSeqId),
	);
	assert.equal(executions.length, 20);
	assert.equal(seqIds.length, 20_000, 'items');
	assert.equal(new Set(seqIds).size, 20_000, 'distinct MailSeqIds (none doubled)');
	const expected = Array.from({ length: 20_000 }, (_, i) =>
		String(FIRST_SEQ_ID + BigInt(offset + i)),
	);
	assert.deepEqual([...seqIds].sort(), expected.sort(), 'every MailSeqId exactly as pushed');
	await eventually(
		async () => executions.every((execution) => ranOn.has(String(execution.id))),
		'the workers to log the executions',
	);
	const perWorker = {};
	for (const execution of executions)
		perWorker[ranOn.get(String(execution.id))] =
			(perWorker[ranOn.get(String(execution.id))] ?? 0) + 1;
	const seconds = (ended - started) / 1000;
	console.log(
		`load, ${label}: 20 pushes answered in ${answered} ms; 20,000 items in ${seconds.toFixed(2)} s = ${Math.round(20_000 / seconds)} events/s; executions per worker ${JSON.stringify(perWorker)}`,
	);
	return perWorker;
}

test('under load, 20 pushes of 1,000 events at once become exactly 20,000 items across the workers, MailSeqId exact', async (t) => {
	if (unavailable) return t.skip(unavailable);
	assert.ok(trigger.url, 'the trigger did not register');
	// A first round warms the processes up (JIT, connection pools); the second one is the figure.
	await loadCheck('two workers, warm-up', 1_000_000);
	const perWorker = await timed('load check, two workers', () =>
		loadCheck('two workers', 3_000_000),
	);
	assert.ok(
		Object.keys(perWorker).every((name) => workerNames().includes(name)),
		JSON.stringify(perWorker),
	);
	memory = Object.fromEntries(
		[stack.main, ...stack.workers, stack.webhook].map((instance) => [
			instance.name,
			residentMiB(instance.pid),
		]),
	);
	// The same with one worker, for the closing figures: worker 2 stops, its queue share goes to worker 1.
	await stack.workers[1].stop();
	const alone = await timed('load check, one worker', () => loadCheck('one worker', 2_000_000));
	assert.deepEqual(Object.keys(alone), [stack.workers[0].name]);
});

test('deactivation on main restores the configuration', async (t) => {
	if (unavailable) return t.skip(unavailable);
	assert.ok(trigger.id, 'the trigger was not activated');
	await session.api('POST', `/workflows/${trigger.id}/deactivate`);
	await timed('deactivation', () =>
		eventually(
			async () => JSON.stringify(await webhookConfig()) === JSON.stringify(trigger.prior),
			'the configuration to be restored',
			120_000,
		),
	);
	assert.deepEqual(await webhookConfig(), trigger.prior);
});
