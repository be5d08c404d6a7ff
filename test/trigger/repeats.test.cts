/**
 * Options → Ignore Repeated Events (on by default): each pushed event once. The trigger runs as n8n runs it
 * (test/harness/n8n/trigger.cts): n8n saves a push's execution, answers, then runs it through its engine, and
 * saves the static data the run changed. A host started with another workflow id on the same static data
 * plays another n8n process (or n8n after a restart): it shares only what n8n saved.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { call, expectCode } from '../harness/client.cts';
import { startTriggerHost, type TriggerHost, type TriggerHostOptions } from '../harness/n8n.cts';

const env = useEmulator();
const hosts: TriggerHost[] = [];
afterEach(async () => {
	jest.restoreAllMocks();
	await Promise.all(hosts.splice(0).map(async (host) => await host.close()));
});

let ids = 0;
/** A trigger workflow with Manual registration and no secret: pushes go straight to its URL. */
async function workflow(
	options: IDataObject = {},
	staticData: IDataObject = {},
	hostOptions: TriggerHostOptions = {},
) {
	const host = await startTriggerHost(
		{ registration: 'manual', requireSecret: false, options },
		env.credentials(),
		staticData,
		{ webhookId: `repeats-${++ids}`, ...hostOptions },
	);
	hosts.push(host);
	return host;
}

const post = async (host: TriggerHost, events: IDataObject[]) => {
	const answer = await axios.post(host.webhookUrl(), events, { validateStatus: () => true });
	return { status: answer.status, body: answer.data as IDataObject };
};
const items = (host: TriggerHost) =>
	host.executions.flatMap((execution) => execution.flat()).map((item) => item.json);
/** Until n8n has run every execution it saved (the harness runs them after answering). */
const ran = async (host: TriggerHost) => {
	for (let wait = 0; host.runOutputs.length < host.executions.length && wait < 200; wait++)
		await new Promise((resolve) => setTimeout(resolve, 10));
	expect(host.runOutputs).toHaveLength(host.executions.length);
};

const opened = (email: string, at = '2026-11-20 12:00:00') => ({
	EventCode: 'Opened',
	Email: email,
	EventType: '3',
	TriggeredDateTimeV2: at,
	MailSeqId: '2505070900222412710',
});
const push = [opened('a@example.org'), opened('b@example.org'), opened('c@example.org')];

test('a push that comes again starts no execution and is answered 200 with the counts; the execution passes the events on as they are', async () => {
	const host = await workflow();
	expect(await post(host, push)).toEqual({ status: 200, body: { received: 3, kept: 3 } });
	await ran(host);
	expect(await post(host, push)).toEqual({
		status: 200,
		body: { received: 3, kept: 0, repeated: 3 },
	});
	expect(host.executions).toHaveLength(1);
	expect(items(host)).toEqual(push.map((event) => ({ ...event, EventTypeText: 'Transactional' })));
	const jsonOf = (executions: TriggerHost['executions']) =>
		executions.map((outputs) => outputs.map((output) => output.map((item) => item.json)));
	expect(jsonOf(host.runOutputs)).toEqual(jsonOf(host.executions));
});

test('events differing in any field all come out, each once: a second open a second later, EventType as a number, a field more', async () => {
	const host = await workflow();
	await post(host, push);
	const differing = [
		opened('a@example.org', '2026-11-20 12:00:01'),
		{ ...opened('b@example.org'), EventType: 3 },
		{ ...opened('c@example.org'), Url: 'https://example.org' },
	];
	expect((await post(host, [...push, ...differing])).body).toEqual({
		received: 6,
		kept: 3,
		repeated: 3,
	});
	expect(items(host).slice(3)).toEqual([
		{ ...differing[0], EventTypeText: 'Transactional' },
		{ ...differing[1], EventTypeText: 'Transactional' },
		{ ...differing[2], EventTypeText: 'Transactional' },
	]);
	// Field order, and MailSeqId written as a bare integer or as a string, change nothing.
	const reordered = Object.fromEntries(Object.entries(push[0]).reverse());
	const bare = `[{"EventCode":"Opened","Email":"b@example.org","EventType":"3","TriggeredDateTimeV2":"2026-11-20 12:00:00","MailSeqId":2505070900222412710}]`;
	expect((await post(host, [reordered])).body).toMatchObject({ kept: 0, repeated: 1 });
	const answer = await axios.post(host.webhookUrl(), bare, {
		headers: { 'Content-Type': 'application/json' },
	});
	expect(answer.data).toMatchObject({ kept: 0, repeated: 1 });
	expect(host.executions).toHaveLength(2);
});

test('the same event twice in one push comes out once', async () => {
	const host = await workflow();
	expect((await post(host, [push[0], push[1], push[0]])).body).toEqual({
		received: 3,
		kept: 2,
		repeated: 1,
	});
});

test('the same push twice at the same moment, while n8n is still saving the first: one execution; the second waits for the first answer', async () => {
	const host = await workflow({}, {}, { execution: { savingMs: 300 } });
	const answers = await Promise.all([post(host, push), post(host, push)]);
	expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
	expect(answers.map((answer) => answer.body.kept).sort()).toEqual([0, 3]);
	expect(host.executions).toHaveLength(1);
	await ran(host);
	expect(await post(host, push)).toMatchObject({ body: { kept: 0, repeated: 3 } });
});

test('a push n8n failed to save (answered 500) passed nothing on: the same push again comes out, once', async () => {
	let failing = true;
	const host = await workflow({}, {}, { execution: { savingFails: () => failing } });
	expect((await post(host, push)).status).toBe(500);
	expect(host.executions).toEqual([]);
	failing = false;
	expect(await post(host, push)).toMatchObject({ status: 200, body: { kept: 3 } });
	expect(await post(host, push)).toMatchObject({ status: 200, body: { kept: 0, repeated: 3 } });
	expect(host.executions).toHaveLength(1);
});

test('a repeat racing a first push n8n does not answer is answered 503 after 20 s and starts nothing; once the first is given up (5 min), the repeat comes out (twice at worst)', async () => {
	const saving = { savingMs: 3_000 };
	const host = await workflow({}, {}, { execution: saving });
	const first = post(host, push);
	await new Promise((resolve) => setTimeout(resolve, 100));
	let now = Date.now();
	jest.spyOn(Date, 'now').mockImplementation(() => (now += 1_000));
	const repeat = await post(host, push);
	expect(repeat.status).toBe(503);
	expect(repeat.body).toMatchObject({ code: 503, received: 3 });
	expect(host.executions).toEqual([]);
	now += 5 * 60_000;
	saving.savingMs = 0;
	expect(await post(host, push)).toMatchObject({ status: 200, body: { kept: 3 } });
	expect((await first).body).toMatchObject({ kept: 3 });
	expect(host.executions).toHaveLength(2);
});

describe('what n8n saved is what counts', () => {
	test('after a restart or in another process (nothing in memory), the record n8n saved with the execution leaves the repeat out', async () => {
		const host = await workflow();
		await post(host, push);
		await ran(host);
		const record = (host.staticData['node:Mail Delivery Trigger'] as IDataObject).passedEvents;
		expect(record).toMatch(/^\d+:[A-Za-z0-9+/=]+$/);
		const restarted = await workflow({}, host.staticData);
		expect(await post(restarted, push)).toMatchObject({ body: { kept: 0, repeated: 3 } });
		expect(restarted.executions).toEqual([]);
		expect(await post(restarted, [opened('d@example.org')])).toMatchObject({ body: { kept: 1 } });
	});

	test('n8n stopped after answering but before running the execution: nothing was recorded, so the retry after the restart comes out (twice at worst, never lost)', async () => {
		const host = await workflow({}, {}, { execution: { crashesBeforeRunning: () => true } });
		expect(await post(host, push)).toMatchObject({ status: 200, body: { kept: 3 } });
		expect(host.staticData['node:Mail Delivery Trigger']).toEqual({ passedEvents: '' });
		const restarted = await workflow({}, host.staticData);
		expect(await post(restarted, push)).toMatchObject({ status: 200, body: { kept: 3 } });
		expect(restarted.executions).toHaveLength(1);
	});
});

describe('queue mode (n8n 2.x): executions run on workers with empty static data', () => {
	test("the worker's execution saves nothing over the trigger's static data; the webhook process's next push records what it passed on, for the other processes", async () => {
		const host = await startTriggerHost(
			{},
			env.credentials(),
			{},
			{
				webhookId: 'repeats-queue',
				execution: { onWorker: true },
			},
		);
		hosts.push(host);
		await host.activate();
		const registration = host.staticData['node:Mail Delivery Trigger'] as IDataObject;
		expect(registration).toMatchObject({ secretDigest: expect.any(String), passedEvents: '' });
		const url = String((await call(env.emulator, '/v5/webhook/get')).body.transCallbackUrl);
		const send = async (events: IDataObject[]) =>
			(await axios.post(url, events, { validateStatus: () => true })).data as IDataObject;
		expect(await send(push)).toMatchObject({ kept: 3 });
		await ran(host);
		// The worker wrote nothing: the registration is intact, and the record not yet written.
		expect(host.staticData['node:Mail Delivery Trigger']).toEqual(registration);
		// The same push again on this process: left out, and its push saves the record.
		expect(await send(push)).toMatchObject({ kept: 0, repeated: 3 });
		const saved = host.staticData['node:Mail Delivery Trigger'] as IDataObject;
		expect(saved).toMatchObject({ secretDigest: registration.secretDigest });
		expect(saved.passedEvents).not.toBe('');
		// Another webhook process (nothing in its memory) reads it.
		const other = await workflow({}, host.staticData);
		expect(await post(other, push)).toMatchObject({ body: { kept: 0, repeated: 3 } });
	});
});

test('Ignore Repeated Events off: every copy comes out, and nothing is recorded', async () => {
	const host = await workflow({ ignoreRepeatedEvents: false });
	await post(host, push);
	await post(host, push);
	await ran(host);
	expect(host.executions).toHaveLength(2);
	expect(host.staticData).toEqual({});
});

test('listening for test events shows every push', async () => {
	const host = await startTriggerHost({}, env.credentials(), {}, { webhookId: 'repeats-test' });
	hosts.push(host);
	await host.listen();
	const url = String((await call(env.emulator, '/v5/webhook/get')).body.transCallbackUrl);
	await axios.post(url, push);
	await axios.post(url, push);
	expect(host.executions).toHaveLength(2);
	await host.stopListening();
});

describe('bounded', () => {
	test('the record in static data keeps the last 1,000 events (about 11 KB); the process remembers more', async () => {
		const host = await workflow();
		const many = (from: number) =>
			Array.from({ length: 1_000 }, (_, i) => opened(`r${from + i}@example.org`));
		await post(host, many(0));
		await post(host, many(1_000));
		await ran(host);
		const record = String(
			(host.staticData['node:Mail Delivery Trigger'] as IDataObject).passedEvents,
		);
		expect(record.length).toBeLessThan(11_500);
		// This process remembers both pushes; the record (another process) only the last one.
		expect((await post(host, many(0))).body).toMatchObject({ kept: 0, repeated: 1_000 });
		const other = await workflow({}, host.staticData);
		expect((await post(other, many(1_000))).body).toMatchObject({ kept: 0, repeated: 1_000 });
		expect((await post(other, many(0).slice(0, 5))).body).toMatchObject({ kept: 5 });
	});

	test('an event passed on more than 24 hours ago comes out again', async () => {
		const host = await workflow();
		await post(host, push);
		await ran(host);
		const later = Date.now() + 24 * 60 * 60_000 + 1_000;
		jest.spyOn(Date, 'now').mockImplementation(() => later);
		expect((await post(host, push)).body).toMatchObject({ kept: 3 });
		// Passed on again, it is remembered again.
		await ran(host);
		const other = await workflow({}, host.staticData);
		expect((await post(other, [push[0]])).body).toMatchObject({ kept: 0, repeated: 1 });
	});
});

test('the platform retrying a push whose answer it did not wait for (pushTimeoutMs): one execution', async () => {
	// n8n saves the first push's execution only after the platform gave up on all three (however slow the machine).
	let saved = () => {};
	const savedWhen = new Promise<void>((resolve) => (saved = resolve));
	const host = await startTriggerHost(
		{},
		env.credentials(),
		{},
		{
			webhookId: 'repeats-platform',
			execution: { savedWhen },
		},
	);
	hosts.push(host);
	await host.activate();
	await env.control('POST', 'settings', {
		autoPush: false,
		retryDelayMs: 0,
		pushRetries: 2,
		pushTimeoutMs: 20,
	});
	await expectCode(
		env.emulator,
		'/v5/transactional/mail/sends_customised',
		{
			senderMail: 'sender@example.com',
			subject: 's',
			content: 'c',
			messageVersions: [{ to: [{ email: 'a@example.org' }, { email: 'b@example.org' }] }],
		},
		200,
	);
	await env.control('POST', 'flush');
	const [record] = (await env.control('GET', 'pushes')).pushes;
	expect(record).toMatchObject({ ok: false, attempts: 3 });
	expect(host.requestLines).toHaveLength(3);
	saved();
	// n8n answers each once it has saved the first one's execution.
	for (const deadline = Date.now() + 60_000; host.responses.length < 3 && Date.now() < deadline;)
		await new Promise((resolve) => setTimeout(resolve, 10));
	await ran(host);
	expect(items(host).map((event) => event.Email)).toEqual(['a@example.org', 'b@example.org']);
});
