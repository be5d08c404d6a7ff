import axios from 'axios';

import { useEmulator } from '../harness/emulator.cts';
import { call, expectCode } from '../harness/client.cts';
import { startTriggerHost, type TriggerHost } from '../harness/n8n.cts';

const env = useEmulator();
const TX = '/v5/transactional/mail/sends_customised';
let host: TriggerHost | undefined;

afterEach(async () => {
	await host?.close();
	host = undefined;
});

const webhookConfig = async () => (await call(env.emulator, '/v5/webhook/get')).body;
const events = (h: TriggerHost, output = 0) =>
	h.executions.flatMap((execution) => execution[output] ?? []).map((item) => item.json);
const sendTo = (emails: string[], senderMail = 'sender@example.com') =>
	expectCode(
		env.emulator,
		TX,
		{
			senderMail,
			subject: 's',
			content: 'c',
			messageVersions: [{ to: emails.map((email) => ({ email })) }],
		},
		200,
	);

test('activation registers the URL with a secret; a 2,500-event send arrives as 1000/1000/500 and yields 2,500 items', async () => {
	host = await startTriggerHost({}, env.credentials());
	expect(await host.checkExists()).toBe(false);
	await host.create();
	const config = await webhookConfig();
	expect(config.transCallbackUrl).toMatch(
		// The secret in the query; in the fragment, which no push carries: this n8n, the workflow, the key
		// of its probe, the switches before it, and no prev (nothing was there).
		new RegExp(
			`^${host.webhookUrl()}\\?token=mdt1[0-9a-f]{48}#n8n=[0-9a-f]{12}&workflow=wf-hook-id&name=Workflow\\+hook-id&key=[0-9a-f]{32}&prior=n-n-n$`,
		),
	);
	expect(config.transEnable).toBe(true);
	expect(Object.values(config.transEvent)).toEqual(Array(7).fill(true));
	expect(await host.checkExists()).toBe(true);

	await env.control('POST', 'settings', { autoPush: false });
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail: 'sender@example.com',
			subject: 's',
			content: 'c',
			messageVersions: Array.from({ length: 100 }, (_, v) => ({
				to: Array.from({ length: 20 }, (_, r) => ({ email: `v${v}r${r}@example.org` })),
				cc: Array.from({ length: 5 }, (_, r) => ({ email: `v${v}c${r}@example.org` })),
			})),
		},
		200,
	);
	const flushed = await env.control('POST', 'flush');
	expect(flushed.pushes.map((p: { count: number; status: number }) => [p.count, p.status])).toEqual(
		[
			[1000, 200],
			[1000, 200],
			[500, 200],
		],
	);
	expect(host.executions.map((execution) => execution[0].length)).toEqual([1000, 1000, 500]);
	const received = events(host);
	expect(received).toHaveLength(2500);
	// MailSeqId: every digit, exactly as the emulator wrote it.
	expect(received.map((e) => e.MailSeqId)).toEqual(env.view().events.map((e) => e.MailSeqId));
	expect(received[0].MailSeqId).toMatch(/^\d{19}$/);
});

test('one output per kind, in a fixed order, with FailedCause decoded and ISO times', async () => {
	host = await startTriggerHost(
		{ outputMode: 'perKind', options: { addIsoTimes: true, eventTimeZone: 'UTC' } },
		env.credentials(),
	);
	await host.create();
	await sendTo([
		'ok@example.org',
		'bounce@example.org',
		'soft@example.org',
		'filtered@example.org',
	]);
	await env.control('POST', 'events', { kind: 'Opened', email: 'ok@example.org' });
	await env.control('POST', 'flush');
	// The send's events and the open may come in one push or two: each output across the executions.
	const execution = host.executions[0].map((_, index) =>
		host!.executions.flatMap((run) => run[index]),
	);
	const counts = execution.map((output) => output.map((item) => item.json.EventCode));
	// Delivered, Bounced, Dropped, Opened, Clicked, Unsubscribed, SpamReport, TaskStatus, Other
	expect(counts).toEqual([
		['Delivered'],
		['Bounced', 'Bounced'],
		['Dropped'],
		['Opened'],
		[],
		[],
		[],
		[],
		[],
	]);
	const hard = execution[1][0].json;
	expect(hard.FailedCauseText).toBe('550 5.1.1 <bounce@example.org>: user unknown');
	expect(hard.FailedCause).toBe(
		Buffer.from('550 5.1.1 <bounce@example.org>: user unknown').toString('base64'),
	);
	expect(hard.TriggeredDateTimeV2Iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
});

test('kinds not chosen are left out, and a push of only those starts nothing', async () => {
	host = await startTriggerHost({ events: ['Bounced'] }, env.credentials());
	await host.create();
	expect((await webhookConfig()).transEvent).toMatchObject({ bounced: true, delivered: false });
	await sendTo(['ok@example.org', 'bounce@example.org']);
	await env.control('POST', 'flush');
	expect(events(host).map((e) => e.Email)).toEqual(['bounce@example.org']);
	const url = (await webhookConfig()).transCallbackUrl;
	await axios.post(url, [{ EventCode: 'Delivered' }, { Email: 'no-code@example.org' }]);
	expect(host.executions).toHaveLength(1);
});

test('an event without EventCode is kept when all kinds are chosen, in the Other output per kind', async () => {
	host = await startTriggerHost({ outputMode: 'perKind' }, env.credentials());
	await host.create();
	await axios.post((await webhookConfig()).transCallbackUrl, { Email: 'x@example.org' });
	expect(host.executions[0][8].map((item) => item.json)).toEqual([{ Email: 'x@example.org' }]);
});

test('Events → Any Event (the node creator\'s "On any event"): every switch on, every kind kept, unknown kinds to Other', async () => {
	host = await startTriggerHost({ events: ['*'], outputMode: 'perKind' }, env.credentials());
	await host.create();
	expect(Object.values((await webhookConfig()).transEvent)).toEqual(Array(7).fill(true));
	await axios.post((await webhookConfig()).transCallbackUrl, [
		{ EventCode: 'Unsubscribed', Email: 'u@example.org' },
		{ EventCode: 'Archived', Email: 'new-kind@example.org' },
	]);
	const [execution] = host.executions;
	expect(execution).toHaveLength(9);
	expect(execution[5].map((item) => item.json.Email)).toEqual(['u@example.org']);
	expect(execution[8].map((item) => item.json.Email)).toEqual(['new-kind@example.org']);
});

test('a push without the secret is answered 401 and starts no execution', async () => {
	host = await startTriggerHost({}, env.credentials());
	await host.create();
	const answer = await axios.post(host.webhookUrl(), [{ EventCode: 'Delivered' }], {
		validateStatus: () => true,
	});
	expect(answer.status).toBe(401);
	const wrong = await axios.post(`${host.webhookUrl()}?token=nope`, [{ EventCode: 'Delivered' }], {
		validateStatus: () => true,
	});
	expect(wrong.status).toBe(401);
	expect(host.executions).toHaveLength(0);
});

test.each([
	['not JSON', 'nope', 'The body is not valid JSON'],
	[
		'not an object or array',
		'"text"',
		'The body must be a JSON array of event objects, or one event object',
	],
	[
		'a non-object entry',
		'[{"EventCode":"Opened"},1]',
		'Entry 1 of the body is not an event object',
	],
])(
	'a body that is %s is answered 400 with a clear message and starts nothing',
	async (_name, body, message) => {
		host = await startTriggerHost({}, env.credentials());
		await host.create();
		const answer = await axios.post((await webhookConfig()).transCallbackUrl, body, {
			headers: { 'Content-Type': 'text/plain' },
			validateStatus: () => true,
		});
		expect([answer.status, answer.data]).toEqual([400, { code: 400, message }]);
		expect(host.executions).toHaveLength(0);
	},
);

test('manual registration: the secret check can be turned off or set by the user; nothing is registered', async () => {
	host = await startTriggerHost(
		{ registration: 'manual', requireSecret: true, secret: 'my-secret' },
		env.credentials(),
	);
	await host.create();
	expect((await webhookConfig()).transCallbackUrl).toBeNull();
	expect(
		(await axios.post(host.webhookUrl(), [{ EventCode: 'Opened' }], { validateStatus: () => true }))
			.status,
	).toBe(401);
	expect(
		(await axios.post(`${host.webhookUrl()}?token=my-secret`, [{ EventCode: 'Opened' }])).status,
	).toBe(200);
	await host.close();
	host = await startTriggerHost(
		{ registration: 'manual', requireSecret: false },
		env.credentials(),
	);
	// Another event: the same workflow left out the first one's repeat (Ignore Repeated Events).
	expect(
		(await axios.post(host.webhookUrl(), [{ EventCode: 'Opened', Email: 'b@example.org' }])).status,
	).toBe(200);
	expect(host.executions).toHaveLength(1);
});

describe('good neighbour registration', () => {
	const prior = {
		transCallbackUrl: 'https://someone-else.example/hook',
		transEvent: {
			dropped: false,
			bounced: true,
			delivered: false,
			spamReport: false,
			opened: false,
			clicked: false,
			unsubscribed: false,
		},
		transEnable: false,
		transCallbackUrlExtra: [
			{ sender: 'news@example.com', url: 'https://news.example/hook' },
			{ sender: 'sender@example.com', url: 'https://old.example/hook' },
		],
	};

	test('default address: create → delete restores the prior configuration exactly', async () => {
		await expectCode(env.emulator, '/v5/webhook/save', prior, 200);
		const before = await webhookConfig();
		host = await startTriggerHost({}, env.credentials());
		await host.create();
		expect((await webhookConfig()).transCallbackUrl).toContain(host.webhookUrl());
		await host.remove();
		expect(await webhookConfig()).toEqual(before);
	});

	test('per-sender addresses: only the chosen senders change, and delete puts them back', async () => {
		await expectCode(env.emulator, '/v5/webhook/save', prior, 200);
		const before = await webhookConfig();
		host = await startTriggerHost(
			{ registerFor: 'senders', senders: ['sender@example.com', 'extra@example.com'] },
			env.credentials(),
		);
		await host.create();
		const during = await webhookConfig();
		expect(during.transCallbackUrl).toBe(prior.transCallbackUrl);
		expect(during.transCallbackUrlExtra).toEqual([
			{ sender: 'news@example.com', url: 'https://news.example/hook' },
			{ sender: 'sender@example.com', url: expect.stringContaining(host.webhookUrl()) },
			{ sender: 'extra@example.com', url: expect.stringContaining(host.webhookUrl()) },
		]);
		await sendTo(['a@example.org'], 'sender@example.com');
		await sendTo(['b@example.org'], 'news@example.com');
		await env.control('POST', 'flush');
		expect(events(host).map((e) => e.Email)).toEqual(['a@example.org']);
		await host.remove();
		expect(await webhookConfig()).toEqual(before);
	});

	test('nothing configured before: delete brings back all-null', async () => {
		host = await startTriggerHost({}, env.credentials());
		await host.create();
		await host.remove();
		expect(await webhookConfig()).toEqual({
			code: 200,
			message: 'success',
			transEvent: null,
			transCallbackUrl: null,
			transCallbackUrlExtra: null,
			transEnable: null,
		});
	});

	test('registering twice keeps the first prior state, and a setting someone else changed is never taken back', async () => {
		await expectCode(env.emulator, '/v5/webhook/save', prior, 200);
		host = await startTriggerHost({}, env.credentials());
		await host.create();
		await host.create();
		await expectCode(
			env.emulator,
			'/v5/webhook/save',
			{ transCallbackUrl: 'https://user-changed.example/hook', transEvent: { clicked: false } },
			200,
		);
		await host.remove();
		const after = await webhookConfig();
		expect(after.transCallbackUrl).toBe('https://user-changed.example/hook');
		expect(after.transEvent.clicked).toBe(false);
		expect(after.transEnable).toBe(true);
	});

	test('a test listener registers its own URL and restores what was there; production then registers alone', async () => {
		const before = await webhookConfig();
		host = await startTriggerHost({}, env.credentials());
		await host.create('manual');
		expect((await webhookConfig()).transCallbackUrl).toContain(
			`${host.webhookUrl('manual')}?token=mdt1`,
		);
		await sendTo(['t@example.org']);
		await env.control('POST', 'flush');
		expect(events(host).map((e) => e.Email)).toEqual(['t@example.org']);
		await host.remove('manual');
		expect(await webhookConfig()).toEqual(before);
		await host.create('trigger');
		expect((await webhookConfig()).transCallbackUrl).toContain(
			`${host.webhookUrl('trigger')}?token=mdt1`,
		);
		await host.remove('trigger');
		expect(await webhookConfig()).toEqual(before);
	});
});

test('the codes the API documents come as words beside them, from real bounce and drop events', async () => {
	host = await startTriggerHost({}, env.credentials());
	await host.create();
	await sendTo(['bounce@example.org', 'soft@example.org', 'filtered@example.org']);
	await env.control('POST', 'flush');
	const byEmail = Object.fromEntries(events(host).map((event) => [event.Email, event]));
	expect(byEmail['bounce@example.org']).toMatchObject({
		Reason: '100',
		ReasonText: 'Hard bounce',
		EventType: '3',
		EventTypeText: 'Transactional',
	});
	expect(byEmail['soft@example.org']).toMatchObject({ Reason: '101', ReasonText: 'Soft bounce' });
	expect(byEmail['filtered@example.org']).toMatchObject({
		Reason: '111',
		ReasonText: 'Send policy',
	});
});

describe('a push in another charset', () => {
	const event = { EventCode: 'Delivered', Email: 'm@example.org', MailName: 'Müller Grüße' };
	test.each(['application/json', 'text/plain'])(
		'latin1 as %s: the same text whether n8n parsed the body or the node reads it',
		async (type) => {
			// A workflow of its own for each: the same event twice to one workflow is a repeat.
			host = await startTriggerHost(
				{},
				env.credentials(),
				{},
				{ webhookId: `hook-${type.replace('/', '-')}` },
			);
			await host.create();
			const url = (await webhookConfig()).transCallbackUrl;
			const answer = await axios.post(url, Buffer.from(JSON.stringify([event]), 'latin1'), {
				headers: { 'Content-Type': `${type}; charset=latin1` },
				validateStatus: () => true,
			});
			expect(answer.status).toBe(200);
			expect(events(host)).toEqual([{ ...event }]);
		},
	);

	test('a charset that cannot be read is refused with 415 and starts nothing', async () => {
		host = await startTriggerHost({}, env.credentials());
		await host.create();
		const url = (await webhookConfig()).transCallbackUrl;
		const answer = await axios.post(url, Buffer.from(JSON.stringify([event])), {
			headers: { 'Content-Type': 'application/octet-stream; charset=gbk' },
			validateStatus: () => true,
		});
		expect([answer.status, answer.data.message]).toEqual([
			415,
			'The body is in charset gbk; pushes are read in UTF-8 (or another charset Node.js reads: latin1, utf-16le, ascii)',
		]);
		expect(host.executions).toHaveLength(0);
	});
});
