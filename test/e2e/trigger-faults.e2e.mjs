// End-to-end under faults: real n8n (line N8N_LINE) with the built package, against the emulator failing a
// chosen request in a chosen way (POST /__control/fault). What is checked is what a user keeps: the
// account's webhook configuration as it was before a trigger came, the trigger's secret out of every
// execution, and a refusal that names the workflow in the user's words, fast.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { exampleWorkflows } from '../../scripts/examples.mjs';
import { freePort, setupOwner, startN8n } from '../../scripts/n8n-runtime.mjs';
import {
	activate,
	activateExpectingRefusal,
	createCredential,
	credentialData,
	eventually,
	n8nFaults,
	pushBody,
	runAction,
	startEmulatorProcess,
	startStack,
	TRIGGER,
	triggerWorkflow,
} from './env.mjs';

const line = process.env.N8N_LINE ?? '2';
let stack;
let credential;

/** Faults in n8n's saving of executions, for workflows named here (n8n-faults.cjs). */
const faultsFile = path.join(
	mkdtempSync(path.join(tmpdir(), 'mail-delivery-faults-')),
	'faults.json',
);
const n8nSaving = (faults) => writeFileSync(faultsFile, JSON.stringify(faults));

before(async () => {
	n8nSaving({});
	stack = await startStack(line, { faults: faultsFile });
	credential = await createCredential(
		stack.session,
		'mailDeliverySignatureApi',
		credentialData(stack.emulator, 'mailDeliverySignatureApi'),
	);
});

after(async () => {
	await stack?.n8n.stop();
	await stack?.emulator.stop();
});

/** The platform's own view of the configuration (Webhook → Get masks a trigger's secret). */
const platform = async () => (await stack.emulator.control('GET', 'state')).webhook;
const fault = (route, kind, skip = 0) =>
	stack.emulator.control('POST', 'fault', { path: route, fault: kind, skip });
const webhookUrlEnv = (address) =>
	line === '1' ? { WEBHOOK_URL: `${address}/` } : { N8N_WEBHOOK_URL: `${address}/` };
const requestsTo = async (route) =>
	(await stack.emulator.control('GET', 'requests')).requests.filter(
		(request) => request.path === route,
	).length;

/** The user's own receivers and switches, saved through n8n with Webhook → Save, no workflow published. */
async function userConfiguration() {
	const published = (await stack.session.api('GET', '/workflows?active=true&limit=250')).data ?? [];
	for (const workflow of published)
		await stack.session.api('POST', `/workflows/${workflow.id}/deactivate`).catch(() => undefined);
	const { status, data } = await runAction(stack, {
		name: 'faults: the user configuration',
		parameters: {
			resource: 'webhook',
			operation: 'save',
			updateFields: {
				transCallbackUrl: 'https://receiver.example/hook?key=users-own',
				transEvent: ['Bounced'],
				transEnable: false,
				transCallbackUrlExtra: {
					entries: [
						{ sender: 'second@example.com', url: 'https://second.example/hook' },
						{ sender: 'news@example.com', url: 'https://news.example/hook' },
					],
				},
				transCallbackUrlExtraUpdateMode: 'replace',
			},
			// Each test starts from the user's configuration, whatever an earlier one left.
			options: { replaceTriggerSettings: true },
		},
		credential,
	});
	assert.equal(status, 200, JSON.stringify(data));
	return await platform();
}

/**
 * Publishes a trigger workflow (n8n 1.x answers a failed activation at once: the user tries once more);
 * returns its id and the path of its webhook, by which its URL is found on the platform.
 */
async function publish(name, parameters = {}) {
	const workflow = triggerWorkflow({ name, credential, parameters });
	const created = await stack.session.api('POST', '/workflows', workflow);
	try {
		await stack.session.api('POST', `/workflows/${created.id}/activate`);
	} catch (error) {
		if (line !== '1') throw error;
		await stack.session.api('POST', `/workflows/${created.id}/activate`);
	}
	if (line === '2')
		// n8n 2.x publishes in the background, retries included: wait for its verdict.
		await eventually(
			async () =>
				(await stack.session.rest('GET', `/workflows/${created.id}/publication-status`)).status ===
				'published',
			`workflow "${name}" to be published`,
			60_000,
		);
	return { id: created.id, path: `/${workflow.nodes[0].webhookId}/events` };
}

/** The record a trigger's URL keeps in its fragment, which no push carries. */
const recordOf = (url) => new URLSearchParams(new URL(url).hash.slice(1));

const urlsOf = (config) => [
	config.transCallbackUrl,
	...(config.transCallbackUrlExtra ?? []).map((entry) => entry.url),
];

async function registered({ path }) {
	return await eventually(
		async () => {
			const config = await platform();
			return urlsOf(config).some((url) => String(url).includes(path)) ? config : false;
		},
		`the trigger at ${path} to register`,
		120_000,
	);
}

async function unpublishRestores(id, expected) {
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
	await eventually(
		async () => JSON.stringify(await platform()) === JSON.stringify(expected),
		'the user configuration to be back',
		120_000,
	).catch(async (error) => {
		assert.deepEqual(await platform(), expected, error.message);
	});
}

/** A push straight to the trigger's registered URL is accepted (its secret is the one n8n saved). */
async function receives(url) {
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify([{ EventCode: 'Bounced', Email: 'x@example.org', Reason: '100' }]),
	});
	assert.equal(answer.status, 200, await answer.text());
}

for (const [what, path, kind] of [
	['a 502 HTML page on webhook/get', '/v5/webhook/get', 'badGateway'],
	['a connection reset on webhook/get', '/v5/webhook/get', 'network'],
	['webhook/save answered 500 after it went through', '/v5/webhook/save', 'internalError'],
])
	test(`the activation record: ${what} → published → unpublished → the user configuration exactly back`, async () => {
		const before = await userConfiguration();
		await fault(path, kind);
		const trigger = await publish(`faults: ${kind} on ${path}`);
		const during = await registered(trigger);
		await receives(during.transCallbackUrl);
		await unpublishRestores(trigger.id, before);
	});

test("the trigger's secret is in no Webhook → Get output and no execution data", async () => {
	const before = await userConfiguration();
	const trigger = await publish('faults: secret', {
		registerFor: 'senders',
		senders: ['news@example.com'],
	});
	const during = await registered(trigger);
	const url = during.transCallbackUrlExtra.find((entry) => entry.sender === 'news@example.com').url;
	const secret = new URL(url).searchParams.get('token');
	assert.match(secret, /^mdt1[0-9a-f]{48}$/);
	await receives(url);
	const { data } = await runAction(stack, {
		name: 'faults: Webhook → Get',
		parameters: { resource: 'webhook', operation: 'get' },
		credential,
	});
	const item = Array.isArray(data) ? data[0] : data;
	const shown = item.transCallbackUrlExtra.find((entry) => entry.sender === 'news@example.com');
	assert.match(shown.url, /\?token=\*\*\*#/);
	const executions = await eventually(async () => {
		const page = await stack.session.api('GET', '/executions?includeData=true&limit=250');
		return page.data?.length > 0 ? page.data : false;
	}, 'executions');
	assert.ok(
		executions.some((execution) => execution.workflowId === trigger.id),
		'the push started an execution',
	);
	assert.doesNotMatch(JSON.stringify(executions), new RegExp(secret));
	await unpublishRestores(trigger.id, before);
});

test('a second trigger on a taken address is refused at once (n8n does not retry it), naming the first workflow', async () => {
	const before = await userConfiguration();
	const first = await publish('faults: Order events');
	await registered(first);
	const started = Date.now();
	const reads = await requestsTo('/v5/webhook/get');
	const refused = await activateExpectingRefusal(
		stack.session,
		triggerWorkflow({
			name: 'faults: second',
			credential,
			parameters: { outputMode: 'perKind' },
		}),
	);
	const seconds = (Date.now() - started) / 1000;
	const read = (await requestsTo('/v5/webhook/get')) - reads;
	console.log(
		`  refusal after ${seconds.toFixed(1)} s, ${read} reads: ${refused.message.slice(0, 400)}`,
	);
	// Not how fast, but how often: one try of the trigger's hooks reads the account's configuration three times;
	// n8n's five retries of an error it retries would read it fifteen times.
	assert.ok(read <= 3, `n8n tried the trigger's hooks more than once (${read} reads)`);
	assert.match(refused.message, /used by workflow \\?"faults: Order events\\?"/);
	assert.match(refused.message, /Unpublish \\?"faults: Order events\\?" first/);
	assert.doesNotMatch(refused.message, /One Output per Event Kind|token=/);
	await stack.session.api('POST', `/workflows/${refused.id}/deactivate`).catch(() => undefined);
	await unpublishRestores(first.id, before);
});

test('test listening stopped while the platform fails: n8n keeps listening to tests, and publishing takes the URL left behind back', async (t) => {
	// The editor's own REST calls ("Execute step" on the trigger, then "Stop listening") are n8n 2.x's.
	if (line !== '2') return t.skip('the test-listening REST calls used here are n8n 2.x');
	const before = await userConfiguration();
	const workflow = triggerWorkflow({ name: 'faults: listening', credential });
	const { id } = await stack.session.api('POST', '/workflows', workflow);
	const path = `/webhook-test/${workflow.nodes[0].webhookId}/events`;
	const listen = async () =>
		await stack.session.rest('POST', `/workflows/${id}/run`, {
			triggerToStartFrom: { name: 'Mail Delivery Trigger' },
		});
	const heldByTest = async () => String((await platform()).transCallbackUrl).includes(path);
	assert.equal((await listen()).waitingForWebhook, true);
	assert.ok(await heldByTest(), 'the test URL is registered');
	// Stopping: the delete hook's read of the configuration fails, so the test URL stays behind.
	await fault('/v5/webhook/get', 'internalError');
	await stack.session.rest('DELETE', `/test-webhook/${id}`);
	await eventually(
		async () =>
			(await stack.emulator.control('GET', 'requests')).requests.some(
				(request) => request.path === '/v5/webhook/get' && request.code === 500,
			),
		'the failed read at the end of test listening',
	);
	assert.ok(await heldByTest(), 'the test URL is left behind');
	// n8n still listens to tests: this workflow's again (taking its own URL back), then stopped cleanly.
	assert.equal((await listen()).waitingForWebhook, true);
	await stack.session.rest('DELETE', `/test-webhook/${id}`);
	await eventually(
		async () => JSON.stringify(await platform()) === JSON.stringify(before),
		'the user configuration back after the second test listen',
	);
	// A URL left behind once more: publishing takes it back, unpublishing restores the user's.
	assert.equal((await listen()).waitingForWebhook, true);
	await fault('/v5/webhook/save', 'badGateway');
	await stack.session.rest('DELETE', `/test-webhook/${id}`);
	await eventually(
		async () =>
			(await stack.emulator.control('GET', 'requests')).requests.filter(
				(request) => request.path === '/v5/webhook/get',
			).length > 0 && (await heldByTest()),
		'the test URL left behind again',
	);
	await stack.session.api('POST', `/workflows/${id}/activate`);
	await eventually(
		async () =>
			(await stack.session.rest('GET', `/workflows/${id}/publication-status`)).status ===
			'published',
		'the workflow to be published',
	);
	const during = await platform();
	assert.ok(during.transCallbackUrl.includes(`/webhook/${workflow.nodes[0].webhookId}/events`));
	assert.equal(recordOf(during.transCallbackUrl).get('prev'), before.transCallbackUrl);
	await unpublishRestores(id, before);
});

test('a test listen beside the published example: when it ends (an event came, or Stop), the example holds the address again (issue 54.3)', async (t) => {
	if (line !== '2') return t.skip('the test-listening REST calls used here are n8n 2.x');
	const before = await userConfiguration();
	// The example as npm start publishes it: Options → Give Way to Others on.
	const { active: _active, ...example } = exampleWorkflows(credential).find((workflow) =>
		workflow.nodes.some((node) => node.type === TRIGGER),
	);
	const exampleId = (await stack.session.api('POST', '/workflows', example)).id;
	await stack.session.api('POST', `/workflows/${exampleId}/activate`);
	await eventually(
		async () =>
			(await stack.session.rest('GET', `/workflows/${exampleId}/publication-status`)).status ===
			'published',
		'the example to be published',
		60_000,
	);
	const published = await platform();
	const exampleHook = example.nodes.find((node) => node.type === TRIGGER).webhookId;
	assert.ok(published.transCallbackUrl.includes(`/webhook/${exampleHook}/events`));

	const workflow = triggerWorkflow({ name: 'faults: my own trigger', credential });
	const { id } = await stack.session.api('POST', '/workflows', workflow);
	const testPath = `/webhook-test/${workflow.nodes[0].webhookId}/events`;
	const listen = async () =>
		await stack.session.rest('POST', `/workflows/${id}/run`, {
			triggerToStartFrom: { name: 'Mail Delivery Trigger' },
		});
	const exampleHoldsIt = async (what) =>
		await eventually(
			async () => JSON.stringify(await platform()) === JSON.stringify(published),
			`the example to hold the address again after ${what}`,
			60_000,
		).catch(async (error) => assert.deepEqual(await platform(), published, error.message));

	// Ended by an event: n8n ends the test listen once the test URL took a push.
	assert.equal((await listen()).waitingForWebhook, true);
	const held = (await platform()).transCallbackUrl;
	assert.ok(held.includes(testPath), 'the test listen holds the address');
	await receives(held);
	await exampleHoldsIt('the test event');
	// Ended by Stop listening.
	assert.equal((await listen()).waitingForWebhook, true);
	assert.ok((await platform()).transCallbackUrl.includes(testPath));
	await stack.session.rest('DELETE', `/test-webhook/${id}`);
	await exampleHoldsIt('Stop listening');
	// The example receives the account's pushes again, and unpublished gives back the user's receiver.
	await receives(published.transCallbackUrl);
	await eventually(
		async () =>
			(await stack.session.api('GET', `/executions?workflowId=${exampleId}`)).data.length > 0,
		'an execution of the example',
	);
	await unpublishRestores(exampleId, before);
});

test("the workflow's static data saved over while it stays published: the next push reads its secret back from the platform", async () => {
	const before = await userConfiguration();
	const trigger = await publish('faults: static data lost');
	const during = await registered(trigger);
	await receives(during.transCallbackUrl);
	// A copy of the workflow from before publication put back (a file from version control, say) through
	// n8n's public API: n8n 2.x keeps it published and runs no hook, with its static data gone.
	const workflow = await stack.session.api('GET', `/workflows/${trigger.id}`);
	await stack.session.api('PUT', `/workflows/${trigger.id}`, {
		name: workflow.name,
		nodes: workflow.nodes,
		connections: workflow.connections,
		settings: { executionOrder: 'v1' },
		staticData: null,
	});
	const now = await eventually(async () => (await platform()).transCallbackUrl, 'the URL');
	await receives(now);
	await unpublishRestores(trigger.id, before);
});

/** A push as the platform sends it, straight to a trigger's URL: its status and answer. */
async function pushTo(url, body) {
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body,
	});
	return { status: answer.status, body: await answer.json().catch(() => undefined) };
}

/** A workflow's executions once n8n has finished each, with the events its trigger passed on. */
async function finishedExecutions(id, atLeast = 0) {
	return await eventually(
		async () => {
			const page = await stack.session.api(
				'GET',
				`/executions?workflowId=${id}&includeData=true&limit=250`,
			);
			const list = page.data ?? [];
			return list.length >= atLeast && list.every((execution) => execution.finished)
				? list.map((execution) => ({
						id: execution.id,
						events: Object.values(execution.data.resultData.runData)[0][0]
							.data.main.flat()
							.map((item) => item.json),
					}))
				: false;
		},
		`${atLeast} finished executions of workflow ${id}`,
		120_000,
	);
}

/** Whether n8n starts no further execution of a workflow within a second. */
const settledAt = async (id, count) => {
	await new Promise((resolve) => setTimeout(resolve, 1000));
	assert.equal((await finishedExecutions(id)).length, count, 'executions');
};

/** A trigger with Manual registration: its URL takes pushes with ?token=<secret>, nothing is registered. */
async function publishManual(name, options) {
	const workflow = triggerWorkflow({
		name,
		credential,
		parameters: { registration: 'manual', secret: 'e2e-secret', options },
	});
	const id = await activate(stack.session, workflow);
	const url = `${stack.n8n.baseUrl}/webhook/${workflow.nodes[0].webhookId}/events?token=e2e-secret`;
	// n8n 2.x publishes in the background: until then the URL answers 404.
	await eventually(
		async () => (await fetch(url, { method: 'POST', body: '[]' })).status === 200,
		`workflow "${name}" to answer`,
		60_000,
	);
	return { id, url };
}

test('each pushed event once: the same push twice at the same moment, again later, and retried by a platform that did not wait for the answer start one execution; events differing in any field all come out; Ignore Repeated Events off, every copy does', async () => {
	const before = await userConfiguration();
	const trigger = await publish('repeats: once');
	const { transCallbackUrl: url } = await registered(trigger);
	const push = pushBody(3, 500);
	// n8n takes 300 ms to save each execution of this workflow, and so to answer its pushes.
	n8nSaving({ slowSavingMs: { 'repeats: once': 300 } });

	const [one, two] = await Promise.all([pushTo(url, push), pushTo(url, push)]);
	console.log(`  the same push twice at once: ${JSON.stringify([one, two])}`);
	assert.deepEqual([one.status, two.status], [200, 200]);
	assert.deepEqual([one.body.kept, two.body.kept].sort(), [0, 3], JSON.stringify([one, two]));
	assert.deepEqual(await pushTo(url, push), {
		status: 200,
		body: { received: 3, kept: 0, repeated: 3 },
	});
	// The first event again, and a copy of it opened a second later: only the latter comes out.
	const [first] = JSON.parse(push.replace(/"MailSeqId":(\d+)/g, '"MailSeqId":"$1"'));
	const later = { ...first, TriggeredDateTimeV2: '2026-11-20 12:00:01' };
	assert.deepEqual((await pushTo(url, JSON.stringify([first, later]))).body, {
		received: 2,
		kept: 1,
		repeated: 1,
	});

	// A platform that waits 100 ms for an answer, then sends the push again 500 ms later: n8n, 300 ms to
	// save, answers the first try after the platform gave up on it (on a loaded machine, later tries too).
	await stack.emulator.control('POST', 'settings', { pushTimeoutMs: 100, retryDelayMs: 500 });
	try {
		await runAction(stack, {
			name: 'repeats: a send',
			parameters: {
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
				to: 'impatient@example.org',
				contentSource: 'html',
				subject: 'Hello',
				content: '<p>Hi</p>',
			},
			credential,
		});
		const record = await eventually(async () => {
			const { pushes } = await stack.emulator.control('GET', 'pushes');
			const found = pushes.find((entry) => entry.eventCodes.Delivered);
			return found && (found.ok || found.attempts === 3) ? found : false;
		}, "the platform's push of the send's event");
		// How many tries the platform made depends on how fast n8n answered (n8n 1.x answers before it saves); what
		// the user sees does not: the event comes out once (below). n8n 2.x saves before answering, 300 ms here, so
		// the platform never had its answer within 100 ms: it tried again.
		console.log(`  the platform tried the push ${record.attempts} times (answered: ${record.ok})`);
		if (line === '2') assert.ok(record.attempts >= 2, JSON.stringify(record));
	} finally {
		await stack.emulator.control('POST', 'settings', { pushTimeoutMs: 30_000, retryDelayMs: 200 });
		n8nSaving({});
	}
	const executions = await finishedExecutions(trigger.id, 3);
	await settledAt(trigger.id, 3);
	const emails = executions.flatMap((execution) => execution.events.map((event) => event.Email));
	assert.deepEqual(
		emails.sort(),
		[
			'impatient@example.org',
			'r0@example.org',
			'r0@example.org',
			'r1@example.org',
			'r2@example.org',
		].sort(),
	);
	await unpublishRestores(trigger.id, before);

	// Off: every copy comes out.
	const everyCopy = await publishManual('repeats: every copy', { ignoreRepeatedEvents: false });
	for (let copy = 0; copy < 2; copy++)
		assert.deepEqual(await pushTo(everyCopy.url, push), {
			status: 200,
			body: { received: 3, kept: 3 },
		});
	await finishedExecutions(everyCopy.id, 2);
	await stack.session.api('POST', `/workflows/${everyCopy.id}/deactivate`);
});

// Last: these restart n8n.
test('each pushed event once across a restart: a push that comes again after n8n restarted starts nothing; one n8n was killed before saving comes out after the restart, never lost', async () => {
	const repeated = await publishManual('repeats: across a restart');
	const push = pushBody(3, 700);
	assert.equal((await pushTo(repeated.url, push)).body.kept, 3);
	await finishedExecutions(repeated.id, 1);
	// n8n killed as it saves an execution of this workflow: after the trigger passed the push on.
	const crashing = await publishManual('repeats: crash before saving');
	const lost = pushBody(2, 800);
	const port = Number(new URL(stack.n8n.baseUrl).port);
	n8nSaving({ crashBeforeSaving: ['repeats: crash before saving'] });
	const exited = new Promise((resolve) => stack.n8n.child.once('exit', resolve));
	const attempt = await pushTo(crashing.url, lost).catch((error) => ({ error: error.message }));
	console.log(`  the push n8n died on: ${JSON.stringify(attempt)}`);
	await exited;
	n8nSaving({});

	stack.n8n = await startN8n({
		editor: false,
		line,
		userFolder: stack.userFolder,
		port,
		...n8nFaults(faultsFile),
	});
	stack.session = await setupOwner(stack.n8n.baseUrl);
	await eventually(
		async () => (await fetch(repeated.url, { method: 'POST', body: '[]' })).status === 200,
		'the workflows to answer after the restart',
		60_000,
	);
	assert.deepEqual(await pushTo(repeated.url, push), {
		status: 200,
		body: { received: 3, kept: 0, repeated: 3 },
	});
	await settledAt(repeated.id, 1);
	// The platform sends the push n8n died on again: it comes out.
	assert.deepEqual(await pushTo(crashing.url, lost), {
		status: 200,
		body: { received: 2, kept: 2 },
	});
	const executions = await finishedExecutions(crashing.id, 1);
	assert.deepEqual(
		executions.flatMap((execution) => execution.events.map((event) => event.Email)),
		['r0@example.org', 'r1@example.org'],
	);
	for (const id of [repeated.id, crashing.id])
		await stack.session.api('POST', `/workflows/${id}/deactivate`);
});

test("n8n started while the platform cannot be reached: the trigger stays published and receives pushes, and n8n's log says its address could not be checked", async () => {
	await userConfiguration();
	const trigger = await publish('faults: platform down as n8n starts');
	const during = await registered(trigger);
	const port = Number(new URL(stack.n8n.baseUrl).port);
	const emulatorPort = Number(new URL(stack.emulator.url).port);
	await stack.n8n.stop();
	await stack.emulator.stop();
	const log = [];
	stack.n8n = await startN8n({
		editor: false,
		line,
		userFolder: stack.userFolder,
		port,
		...n8nFaults(faultsFile),
		log: (text) => log.push(text),
	});
	stack.session = await setupOwner(stack.n8n.baseUrl);
	await inLog(
		log,
		/workflow "faults: platform down as n8n starts" \(ID \w+\) could not check its push address as n8n started \(/,
		60_000,
	);
	// n8n 2.x gives a failing publication up after about 15 s of retries, n8n 1.x retries it later: past
	// that, the trigger still answers at its URL.
	await new Promise((resolve) => setTimeout(resolve, 20_000));
	// The platform back (the emulator starts afresh: it keeps its state in memory).
	stack.emulator = await startEmulatorProcess(emulatorPort);
	await receives(during.transCallbackUrl);
	if (line === '2')
		assert.equal(
			(await stack.session.rest('GET', `/workflows/${trigger.id}/publication-status`)).status,
			'published',
		);
	await stack.session.api('POST', `/workflows/${trigger.id}/deactivate`);
});

test('n8n restarted with another public address: the trigger takes over its own older URL as n8n starts, restores the user configuration, and says so in the log', async () => {
	const before = await userConfiguration();
	const trigger = await publish('faults: moved');
	const old = await registered(trigger);
	assert.ok(old.transCallbackUrl.startsWith(`${stack.n8n.baseUrl}/webhook/`));
	await stack.n8n.stop();
	const port = Number(new URL(stack.n8n.baseUrl).port);
	const moved = `http://localhost:${port}`;
	const log = [];
	stack.n8n = await startN8n({
		editor: false,
		line,
		userFolder: stack.userFolder,
		port,
		extraEnv: webhookUrlEnv(moved),
		log: (text) => log.push(text),
	});
	stack.session = await setupOwner(stack.n8n.baseUrl);
	// Both lines run the trigger's hooks as n8n starts (n8n 2.x since the trigger has a trigger function).
	const during = await eventually(
		async () => {
			const config = await platform();
			return String(config.transCallbackUrl).startsWith(`${moved}/webhook/`) ? config : false;
		},
		'the URL at the new address',
		60_000,
	);
	assert.equal(recordOf(during.transCallbackUrl).get('prev'), before.transCallbackUrl);
	const took = new RegExp(
		`workflow "faults: moved" \\(ID \\w+\\) took over the account's default push address from its URL at ${escaped(new URL(old.transCallbackUrl).origin)},`,
	);
	await inLog(log, took);
	await receives(during.transCallbackUrl);
	await unpublishRestores(trigger.id, before);
});

test('a published trigger that comes back takes its address back: production stopped, a copy of its user folder started elsewhere takes the address at start-up; the copy stopped, production started again takes it back and says so; a copy started while production answers is refused, naming production', async () => {
	const before = await userConfiguration();
	const trigger = await publish('faults: comes back');
	const during = await registered(trigger);
	const production = new URL(during.transCallbackUrl).origin;
	const port = Number(new URL(stack.n8n.baseUrl).port);
	await stack.n8n.stop();
	const copyFolder = mkdtempSync(path.join(tmpdir(), `mail-delivery-e2e-${line}-comes-back-`));
	cpSync(stack.userFolder, copyFolder, { recursive: true });
	const copyPort = await freePort();
	const copyLog = [];
	const startCopy = async () =>
		await startN8n({
			editor: false,
			line,
			userFolder: copyFolder,
			port: copyPort,
			log: (text) => copyLog.push(text),
		});
	const heldBy = async (origin, what) =>
		await eventually(
			async () => {
				const config = await platform();
				return String(config.transCallbackUrl).startsWith(`${origin}/webhook/`) ? config : false;
			},
			what,
			90_000,
		);
	let copy = await startCopy();
	const productionLog = [];
	try {
		// Nothing answers at production's address: the copy takes the address over as n8n starts.
		const taken = await heldBy(copy.baseUrl, "the copy to take production's address at start-up");
		assert.equal(recordOf(taken.transCallbackUrl).get('prev'), before.transCallbackUrl);
		await receives(taken.transCallbackUrl);
		await inLog(copyLog, tookFrom(production));
		await copy.stop();

		// Production comes back at its own address: it takes the address back as it starts, and says so.
		stack.n8n = await startN8n({
			editor: false,
			line,
			userFolder: stack.userFolder,
			port,
			extraEnv: webhookUrlEnv(production),
			log: (text) => productionLog.push(text),
		});
		stack.session = await setupOwner(stack.n8n.baseUrl);
		const back = await heldBy(production, 'production to take its address back at start-up');
		assert.equal(recordOf(back.transCallbackUrl).get('prev'), before.transCallbackUrl);
		await receives(back.transCallbackUrl);
		await inLog(productionLog, tookFrom(copy.baseUrl));

		// The copy started again while production answers: refused as it starts, naming production's
		// address in its log; the platform keeps production's URL.
		copyLog.length = 0;
		copy = await startCopy();
		await inLog(copyLog, refusedNaming(production), 90_000);
		assert.deepEqual(await platform(), back);
		await receives(back.transCallbackUrl);
	} catch (error) {
		console.log(`copy's log:\n${copyLog.join('').slice(-6000)}`);
		console.log(`production's log:\n${productionLog.join('').slice(-6000)}`);
		throw error;
	} finally {
		await copy.stop();
	}
	await unpublishRestores(trigger.id, before);
});

/** n8n's log line of a trigger that took its address from its own URL at a public address where none answers. */
const tookFrom = (origin) =>
	new RegExp(
		`Mail Delivery Trigger: workflow "faults: comes back" \\(ID \\w+\\) took over the account's default push address from its URL at ${escaped(origin)},`,
	);
/** n8n's log line of a trigger refused at start-up because a live copy answers at `origin`. */
const refusedNaming = (origin) =>
	new RegExp(
		`Mail Delivery Trigger: workflow "faults: comes back" \\(ID \\w+\\) is not receiving pushes: [^\\n]*on another n8n at ${escaped(origin)},`,
	);
/** Waits for n8n to write a line matching `pattern` (it logs after the platform shows the change). */
const inLog = async (log, pattern, timeoutMs = 120_000) =>
	await eventually(
		async () => pattern.test(log.join('')),
		`n8n's log to match ${pattern}`,
		timeoutMs,
	);
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

test("a copy of this n8n made from its user folder neither takes nor gives back production's address while production answers; once production is gone, it takes it over", async () => {
	const before = await userConfiguration();
	const trigger = await publish('faults: copied');
	const during = await registered(trigger);
	const production = new URL(during.transCallbackUrl).origin;
	const port = Number(new URL(stack.n8n.baseUrl).port);
	// The copy: production stopped, its user folder copied, production started again as it was.
	await stack.n8n.stop();
	const copyFolder = mkdtempSync(path.join(tmpdir(), `mail-delivery-e2e-${line}-copy-`));
	cpSync(stack.userFolder, copyFolder, { recursive: true });
	stack.n8n = await startN8n({
		editor: false,
		line,
		userFolder: stack.userFolder,
		port,
		extraEnv: webhookUrlEnv(production),
	});
	stack.session = await setupOwner(stack.n8n.baseUrl);
	await eventually(
		async () =>
			(await fetch(during.transCallbackUrl, { method: 'POST', body: '[]' })).status === 200,
		'production to answer at its URL again',
		60_000,
	);
	const copyLog = [];
	const copy = await startN8n({
		editor: false,
		line,
		userFolder: copyFolder,
		log: (text) => copyLog.push(text),
	});
	try {
		// n8n 1.x may answer 503 ("Database is not ready") for a moment after its readiness check.
		const copySession = await eventually(
			async () => await setupOwner(copy.baseUrl).catch(() => false),
			'the copy to let the owner in',
			60_000,
		);
		// As it starts, the copy runs the trigger's hooks (both lines) and is refused: production keeps its
		// address.
		await new Promise((resolve) => setTimeout(resolve, 3000));
		assert.deepEqual(await platform(), during);
		await receives(during.transCallbackUrl);

		// Unpublished on the copy: its delete hook leaves production's URL where it is.
		const reads = await requestsTo('/v5/webhook/get');
		const saves = await requestsTo('/v5/webhook/save');
		await copySession.api('POST', `/workflows/${trigger.id}/deactivate`);
		await eventually(
			async () => (await requestsTo('/v5/webhook/get')) > reads,
			'the delete hook on the copy',
			120_000,
		);
		await new Promise((resolve) => setTimeout(resolve, 2000));
		assert.equal(await requestsTo('/v5/webhook/save'), saves);
		assert.deepEqual(await platform(), during);

		// Published on the copy: refused, naming production's address.
		const refused = await copyPublication(copySession, trigger.id, 'failed');
		assert.match(refused, new RegExp(`on another n8n at ${production.replace(/[.]/g, '\\.')}`));
		assert.deepEqual(await platform(), during);
		await receives(during.transCallbackUrl);

		// Production gone: the copy takes the address over, and gives the user's back when unpublished.
		await stack.n8n.stop();
		await copyPublication(copySession, trigger.id, 'published');
		const taken = await eventually(
			async () => {
				const config = await platform();
				return String(config.transCallbackUrl).startsWith(`${copy.baseUrl}/webhook/`)
					? config
					: false;
			},
			'the copy to take the address',
			60_000,
		);
		await receives(taken.transCallbackUrl);
		stack.session = copySession;
		await unpublishRestores(trigger.id, before);
	} catch (error) {
		console.log(copyLog.join('').slice(-6000));
		throw error;
	} finally {
		if (stack.n8n !== copy) await stack.n8n.stop();
		stack.n8n = copy;
	}
});

/** Publishes on the copy and returns n8n's verdict: its error text when refused. */
async function copyPublication(session, id, expected) {
	try {
		await session.api('POST', `/workflows/${id}/activate`);
	} catch (error) {
		// n8n 1.x runs the hooks in the call and answers their error.
		if (expected === 'failed') return error.message;
		throw error;
	}
	if (line === '1') {
		assert.equal(expected, 'published', 'n8n 1.x activated what should have been refused');
		return '';
	}
	// The verdict: right after the call, the status may still be the last attempt's.
	let last;
	const status = await eventually(
		async () => {
			last = await session.rest('GET', `/workflows/${id}/publication-status`);
			return last.status === expected ? last : false;
		},
		`the copy's publication to end ${expected}`,
		60_000,
	).catch((error) => assert.fail(`${error.message}: ${JSON.stringify(last)}`));
	return JSON.stringify(status);
}
