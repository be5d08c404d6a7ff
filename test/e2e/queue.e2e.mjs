// End-to-end in n8n's queue mode (n8n 2.41): PostgreSQL, Redis, one main, two workers and two webhook
// processors, with the emulator. Pushes land on the webhook processor, the trigger's secret was stored by main,
// executions run on workers, and OAuth tokens are refreshed by whichever worker runs. Never twice with two workers
// (issue 51): sends at once, a double click on Retry, Retry of running executions, kill -9 of a worker mid-send.
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
import { executionsOf as executionHelpers, people, sendParameters, TX } from './executions.mjs';
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

// Never twice with two workers (issue 51). A retry sends only where it can show it is alone: on the worker whose
// run of the node ended the execution it retries (the node threw, or the execution was stopped); everywhere else it
// refuses, saying why. An execution that is not a retry always sends. What the platform accepted is read from the
// emulator's mail log; which worker ran what, from the workers' own log lines.

/** test/e2e/executions.mjs's helpers over this stack: production webhooks are served by the webhook processor. */
const sends = () => executionHelpers({ n8n: stack.webhook, session, emulator }, '2');

/** The workflow's executions once at least `count` of them have ended (none running or waiting), with data. */
async function endedExecutions(workflowId, count, what) {
	return await eventually(
		async () => {
			const found = await executionsOf(workflowId);
			return found.length >= count && found.every((execution) => execution.stoppedAt)
				? found
				: false;
		},
		what,
		600_000,
	);
}

/** The worker that ran each execution (waits until the workers have logged them all). */
async function workersOf(executions) {
	await eventually(
		async () => executions.every((execution) => ranOn.has(String(execution.id))),
		'the workers to log the executions',
	);
	return new Map(
		executions.map((execution) => [String(execution.id), ranOn.get(String(execution.id))]),
	);
}

/** The address prefix of an execution's recipients (people(count, prefix)), from its Split Out output. */
const prefixOf = (execution) =>
	execution.data.resultData.runData['Split Out'][0].data.main[0][0].json.email.replace(
		/\d+@example\.org$/,
		'',
	);

/**
 * Why an execution's node did not send, from its error (neverTwice/verdicts.ts and notSent.ts: each verdict's message,
 * and the reason its description begins with); undefined when nothing was refused.
 */
function refusalOf(execution) {
	const error = execution.data?.resultData?.error;
	if (!/^Not sent/.test(error?.message ?? '')) return undefined;
	// The error says why as a field (neverTwice/notSent.ts), beside its words.
	return error.context?.reason ?? `unknown (${error.message}: ${error.description})`;
}

/** What an execution came to, for the test's report: its refusal, or its status and error. */
const outcomeOf = (execution) =>
	refusalOf(execution) ??
	[execution.status, execution.data?.resultData?.error?.message].filter(Boolean).join(': ');

/** Every recipient with this prefix accepted exactly `count` recipients, none twice. */
async function acceptedOnce(prefix, count) {
	const counts = await sends().acceptedCounts(prefix);
	const twice = [...counts].filter(([, times]) => times > 1);
	assert.deepEqual(twice, [], 'recipients accepted more than once');
	assert.equal(counts.size, count, `recipients of ${prefix} accepted`);
}

test('never twice, ordinary sends on two workers: 24 executions of a new Send node at once, then 24 more: every execution succeeds, every recipient is accepted once, nothing is refused', async (t) => {
	if (unavailable) return t.skip(unavailable);
	const on = sends();
	await emulator.control('POST', 'settings', { latencyMs: 0 });
	const AT_ONCE = 24;
	const EACH = 20;
	const { id, hookPath } = await on.publishAnswering(
		'queue: sends at once',
		sendParameters(),
		credentials.signature,
	);
	for (const round of [1, 2])
		await timed(`never twice: ${AT_ONCE} sends at once, round ${round}`, async () => {
			await Promise.all(
				Array.from({ length: AT_ONCE }, (_, index) =>
					on.post(hookPath, { people: people(EACH, `qsend${round}x${index}-`) }),
				),
			);
			await endedExecutions(id, round * AT_ONCE, `round ${round}'s executions to end`);
		});
	const executions = await executionsOf(id);
	assert.equal(executions.length, 2 * AT_ONCE);
	assert.deepEqual(
		executions
			.filter((execution) => execution.status !== 'success')
			.map(
				(execution) =>
					`${execution.id} ${execution.status}: ${execution.data?.resultData?.error?.message}`,
			),
		[],
		'executions that did not succeed',
	);
	await acceptedOnce('qsend', 2 * AT_ONCE * EACH);
	const perWorker = {};
	for (const name of (await workersOf(executions)).values())
		perWorker[name] = (perWorker[name] ?? 0) + 1;
	console.log(`  ${2 * AT_ONCE} sends, executions per worker: ${JSON.stringify(perWorker)}`);
	assert.deepEqual(Object.keys(perWorker).sort(), workerNames().sort());
	await session.api('POST', `/workflows/${id}/deactivate`);
});

test('never twice, a double click on Retry: 8 executions failed in the node (request 1 answered 500), each retried twice at once: nobody twice, a retry on the worker where its execution failed sends the rest, every refusal true', async (t) => {
	if (unavailable) return t.skip(unavailable);
	const on = sends();
	await emulator.control('POST', 'settings', { latencyMs: 0 });
	const PAIRS = 8;
	const EACH = 300;
	const { id, hookPath } = await on.publishAnswering(
		'queue: double click on Retry',
		sendParameters({ options: { parallelRequests: 1 } }),
		credentials.signature,
	);
	// One fault per execution: an execution whose request is answered 500 stops (Stop Workflow) after it, so each
	// of the eight takes one, at its first request (processed, then answered 500: 100 recipients have the mail).
	for (let pair = 0; pair < PAIRS; pair++)
		await emulator.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 0 });
	await Promise.all(
		Array.from({ length: PAIRS }, (_, pair) =>
			on.post(hookPath, { people: people(EACH, `qdc${pair}-`) }),
		),
	);
	const failed = await endedExecutions(id, PAIRS, 'the executions to fail');
	for (const execution of failed) {
		assert.equal(execution.status, 'error');
		assert.match(
			execution.data.resultData.error.message,
			/not confirmed as sent: the platform failed to process the request \(code 500\)$/,
		);
	}
	// What each first try sent: its first request, processed before it was answered 500.
	const acceptedBefore = new Map();
	for (const execution of failed) {
		const counts = await on.acceptedCounts(prefixOf(execution));
		acceptedBefore.set(String(execution.id), counts.size);
		assert.ok(counts.size > 0 && counts.size < EACH, `${counts.size} accepted before the retries`);
	}
	const answers = await timed('never twice: 8 double clicks on Retry', async () => {
		const answers = await Promise.all(
			failed.flatMap((execution, pair) =>
				[1, 2].map(() =>
					session
						.rest('POST', `/executions/${execution.id}/retry`, { loadWorkflow: pair % 2 === 1 })
						.catch((error) => ({ refusedByN8n: error.message })),
				),
			),
		);
		await endedExecutions(id, 3 * PAIRS, 'the retries to end');
		return answers;
	});
	assert.deepEqual(
		answers.filter((answer) => answer.refusedByN8n),
		[],
		'Retry calls n8n refused',
	);
	const executions = await executionsOf(id);
	const worker = await workersOf(executions);
	const seen = [];
	for (const original of failed) {
		const failedOn = worker.get(String(original.id));
		const retries = executions.filter(
			(execution) => String(execution.retryOf) === String(original.id),
		);
		assert.equal(retries.length, 2, `retries of ${original.id}`);
		const verdicts = retries.map((retry) => ({
			id: String(retry.id),
			on: worker.get(String(retry.id)),
			refusal: refusalOf(retry),
			outcome: outcomeOf(retry),
		}));
		seen.push(
			`${original.id} failed on ${failedOn}; ${verdicts.map((v) => `${v.id} on ${v.on}: ${v.outcome}`).join(', ')}`,
		);
		const sent = verdicts.filter((verdict) => verdict.refusal === undefined);
		assert.ok(sent.length <= 1, `both retries of ${original.id} sent`);
		// A retry shows it is alone only on the worker where its execution failed, and there one of the two sends.
		assert.equal(
			sent.length,
			verdicts.some((verdict) => verdict.on === failedOn) ? 1 : 0,
			seen.at(-1),
		);
		// The one that sent ran where the execution failed (what it sent is counted below: the rest, once).
		for (const verdict of sent) assert.equal(verdict.on, failedOn, seen.at(-1));
		// Every refusal's reason is true.
		for (const verdict of verdicts.filter((v) => v.refusal !== undefined)) {
			const other = verdicts.find((v) => v !== verdict);
			// The other retry sends here now (retrySends), or already did (ranSince: it ran this step since).
			if (verdict.refusal === 'retrySends' || verdict.refusal === 'ranSince')
				assert.ok(other.refusal === undefined && other.on === verdict.on, seen.at(-1));
			else if (verdict.refusal === 'otherWorker')
				assert.notEqual(verdict.on, failedOn, seen.at(-1));
			else assert.fail(`a refusal this double click does not call for: ${seen.at(-1)}`);
		}
		await acceptedOnce(
			prefixOf(original),
			sent.length === 1 ? EACH : acceptedBefore.get(String(original.id)),
		);
	}
	console.log(`  double clicks:\n    ${seen.join('\n    ')}`);
	await session.api('POST', `/workflows/${id}/deactivate`);
});

test("Redo After a Crash pressed twice, measured: 20 sends answered 500 (processed), each retried twice at once: two redos on one worker never both send; on two workers they may (n8n's store has no atomic write across processes), and the suite prints how often", async (t) => {
	if (unavailable) return t.skip(unavailable);
	const on = sends();
	await emulator.control('POST', 'settings', { latencyMs: 0 });
	const PAIRS = 20;
	const EACH = 5;
	await emulator.control('DELETE', 'faults');
	const { id, hookPath } = await on.publishAnswering(
		'queue: Redo After a Crash pressed twice',
		sendParameters({ options: { parallelRequests: 1, repeatOnRetry: true } }),
		credentials.signature,
	);
	for (let pair = 0; pair < PAIRS; pair++)
		await emulator.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 0 });
	for (let pair = 0; pair < PAIRS; pair++)
		await on.post(hookPath, { people: people(EACH, `qredo${pair}-`) });
	const failed = await endedExecutions(id, PAIRS, 'the executions to fail');
	// Each original sent its one request and was answered 500: that request is the one in doubt.
	for (const execution of failed)
		assert.match(outcomeOf(execution), /^error: .*\(code 500\)$/, `original ${execution.id}`);
	await Promise.all(
		failed.flatMap((execution) =>
			[1, 2].map(() =>
				session.rest('POST', `/executions/${execution.id}/retry`, { loadWorkflow: false }),
			),
		),
	);
	await endedExecutions(id, 3 * PAIRS, 'the redos to end');
	const executions = await executionsOf(id);
	const worker = await workersOf(executions);
	const tally = { sameWorker: 0, sameWorkerBoth: 0, twoWorkers: 0, twoWorkersBoth: 0 };
	const { requests } = await emulator.control('GET', 'requests');
	for (const original of failed) {
		const redos = executions.filter(
			(execution) => String(execution.retryOf) === String(original.id),
		);
		assert.equal(redos.length, 2, `redos of ${original.id}`);
		const sent = redos.filter((redo) => redo.status === 'success');
		const prefix = prefixOf(original);
		const codes = requests
			.filter((request) => request.path === TX && JSON.stringify(request.body).includes(prefix))
			.map((request) => request.code);
		const report = `${original.id} (${prefix}, requests answered ${codes.join(', ')}): ${redos.map((redo) => `${redo.id} on ${worker.get(String(redo.id))}: ${outcomeOf(redo)}`).join(', ')}`;
		// A redo sends the request in doubt again, as asked; the other refuses, saying another redoes it now
		// (`retrySends`, on the worker where it runs) or redid it.
		for (const redo of redos.filter((one) => one.status !== 'success'))
			assert.ok(['redone', 'retrySends'].includes(refusalOf(redo)), report);
		assert.ok(sent.length >= 1, `neither redo sent: ${report}`);
		const counts = await on.acceptedCounts(prefix);
		for (const times of counts.values()) assert.equal(times, 1 + sent.length);
		const where = new Set(redos.map((redo) => worker.get(String(redo.id))));
		const kind = where.size === 1 ? 'sameWorker' : 'twoWorkers';
		tally[kind]++;
		if (sent.length === 2) tally[`${kind}Both`]++;
	}
	console.log(
		`  Redo pressed twice, ${PAIRS} pairs: on one worker ${tally.sameWorkerBoth} of ${tally.sameWorker} pairs sent twice; on two workers ${tally.twoWorkersBoth} of ${tally.twoWorkers}`,
	);
	assert.equal(tally.sameWorkerBoth, 0, 'two redos on one worker both sent');
	await session.api('POST', `/workflows/${id}/deactivate`);
});

test('never twice, Retry of running executions: 4 sends slowed by the platform, each retried while it sends: every retry refuses saying why, every original goes on and sends, nobody twice', async (t) => {
	if (unavailable) return t.skip(unavailable);
	const on = sends();
	const AT_ONCE = 4;
	const EACH = 800;
	const { id, hookPath } = await on.publishAnswering(
		'queue: Retry of a running execution',
		sendParameters({ options: { parallelRequests: 1 } }),
		credentials.signature,
	);
	// Each request answered 2 s after it came: eight requests each, sixteen seconds at least.
	await emulator.control('POST', 'settings', { latencyMs: 2000 });
	try {
		await Promise.all(
			Array.from({ length: AT_ONCE }, (_, index) =>
				on.post(hookPath, { people: people(EACH, `qrun${index}-`) }),
			),
		);
		// Every execution has had a request accepted: each is in the node, sending.
		await eventually(
			async () => {
				const counts = await on.acceptedCounts('qrun');
				const started = new Set([...counts.keys()].map((email) => email.split('-')[0]));
				return started.size === AT_ONCE;
			},
			'each execution to send its first request',
			300_000,
		);
		const filter = encodeURIComponent(JSON.stringify({ workflowId: id, status: ['running'] }));
		const { results: running = [] } = await session.rest('GET', `/executions?filter=${filter}`);
		assert.equal(running.length, AT_ONCE, 'running executions');
		await timed('never twice: Retry of 4 running executions', async () => {
			await Promise.all(
				running.map((execution) =>
					session.rest('POST', `/executions/${execution.id}/retry`, { loadWorkflow: false }),
				),
			);
			await endedExecutions(id, 2 * AT_ONCE, 'the executions and their retries to end');
		});
	} finally {
		await emulator.control('POST', 'settings', { latencyMs: 0 });
	}
	const executions = await executionsOf(id);
	const worker = await workersOf(executions);
	const seen = [];
	for (const original of executions.filter((execution) => !execution.retryOf)) {
		const [retry, ...more] = executions.filter(
			(execution) => String(execution.retryOf) === String(original.id),
		);
		assert.deepEqual(more, []);
		const verdict = { on: worker.get(String(retry.id)), refusal: refusalOf(retry) };
		seen.push(
			`${original.id} on ${worker.get(String(original.id))}: ${original.status}; its retry ${retry.id} on ${verdict.on}: ${outcomeOf(retry)}`,
		);
		assert.equal(original.status, 'success', seen.at(-1));
		assert.equal(retry.status, 'error', seen.at(-1));
		// On the original's worker, the retry finds the execution sending; elsewhere nothing shows it is alone.
		if (verdict.refusal === 'executionSends')
			assert.equal(verdict.on, worker.get(String(original.id)), seen.at(-1));
		else assert.equal(verdict.refusal, 'otherWorker', seen.at(-1));
		await acceptedOnce(prefixOf(original), EACH);
	}
	console.log(`  retries of running executions:\n    ${seen.join('\n    ')}`);
	await session.api('POST', `/workflows/${id}/deactivate`);
});

test('never twice, kill -9 of a worker mid-send, then a double click on Retry: both retries refuse saying why, nothing goes out again', async (t) => {
	if (unavailable) return t.skip(unavailable);
	const on = sends();
	const EACH = 600;
	const { id, hookPath } = await on.publishAnswering(
		'queue: worker killed mid-send',
		sendParameters({ options: { parallelRequests: 1 } }),
		credentials.signature,
	);
	await emulator.control('POST', 'settings', { latencyMs: 2000 });
	let killed;
	let index;
	let retries;
	try {
		await on.post(hookPath, { people: people(EACH, 'qkill-') });
		await eventually(
			async () => (await on.acceptedCounts('qkill-')).size >= 100,
			'the first request to be accepted',
			300_000,
		);
		const filter = encodeURIComponent(JSON.stringify({ workflowId: id, status: ['running'] }));
		[killed] = (await session.rest('GET', `/executions?filter=${filter}`)).results;
		assert.ok(killed, 'the execution ended before the kill');
		const name = (await workersOf([killed])).get(String(killed.id));
		index = stack.workers.findIndex((candidate) => candidate.name === name);
		await stack.killWorker(index);
		await emulator.control('POST', 'settings', { latencyMs: 0 });
		// Retry at once, while n8n still lists the execution as running: once the queue finds the killed worker's job
		// stalled, n8n fails the execution with its own error, and a retry of it then ends without running a node.
		await Promise.all(
			[false, true].map((loadWorkflow) =>
				session.rest('POST', `/executions/${killed.id}/retry`, { loadWorkflow }),
			),
		);
		retries = await eventually(
			async () => {
				const found = (await executionsOf(id)).filter(
					(execution) => String(execution.retryOf) === String(killed.id),
				);
				return found.length === 2 && found.every((execution) => execution.stoppedAt)
					? found
					: false;
			},
			'the retries to end',
			300_000,
		);
	} finally {
		await emulator.control('POST', 'settings', { latencyMs: 0 });
		if (index !== undefined)
			await timed('never twice: the killed worker started again', () =>
				stack.startWorkerAgain(index),
			);
	}
	const worker = await workersOf(retries);
	const verdicts = retries.map(
		(retry) => `${retry.id} on ${worker.get(String(retry.id))}: ${outcomeOf(retry)}`,
	);
	console.log(
		`  execution ${killed.id} killed with ${ranOn.get(String(killed.id))}; its retries: ${verdicts.join(', ')}`,
	);
	// The retries ran on the other worker, which never saw the execution: nothing shows that no try sends.
	assert.deepEqual(
		retries.map((retry) => [retry.status, refusalOf(retry)]),
		[
			['error', 'otherWorker'],
			['error', 'otherWorker'],
		],
		verdicts.join(', '),
	);
	// A retry that sent would have gone on from the saved data, which knows nothing of the node: from item 0 again.
	const accepted = await on.acceptedCounts('qkill-');
	assert.ok(accepted.size < EACH, `all ${EACH} were sent`);
	await acceptedOnce('qkill-', accepted.size);
	console.log(`  accepted: ${accepted.size} of ${EACH}, each once`);
	await session.api('POST', `/workflows/${id}/deactivate`);
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
