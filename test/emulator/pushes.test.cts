import { useEmulator } from '../harness/emulator.cts';
import { expectCode, startReceiver, type Receiver } from '../harness/client.cts';

const env = useEmulator();
const TX = '/v5/transactional/mail/sends_customised';
let receiver: Receiver;

beforeAll(async () => {
	receiver = await startReceiver();
});
afterAll(async () => {
	await receiver.close();
});
beforeEach(() => {
	receiver.pushes = [];
	receiver.failNext = 0;
	receiver.answerDelayMs = 0;
});

const allOn = {
	dropped: true,
	bounced: true,
	delivered: true,
	spamReport: true,
	opened: true,
	clicked: true,
	unsubscribed: true,
};

/** One request of 100 versions, each 20 to + 5 cc: 2,500 recipients. */
/** One mail to `email`, accepted by the platform. */
const sendOneTo = async (email: string, senderMail = 'sender@example.com') =>
	await expectCode(
		env.emulator,
		TX,
		{ senderMail, subject: 's', content: 'c', messageVersions: [{ to: [{ email }] }] },
		200,
	);

/** The account pushes every kind of event to the test's receiver. */
const pushEverythingToReceiver = async () =>
	await expectCode(
		env.emulator,
		'/v5/webhook/save',
		{ transCallbackUrl: receiver.url, transEvent: allOn, transEnable: true },
		200,
	);

const bigSend = () => ({
	senderMail: 'sender@example.com',
	subject: 'Hi {{n}}',
	content: '<p>{{n}}</p>',
	messageVersions: Array.from({ length: 100 }, (_, v) => ({
		to: Array.from({ length: 20 }, (_, r) => ({ email: `v${v}r${r}@example.org` })),
		cc: Array.from({ length: 5 }, (_, r) => ({ email: `v${v}c${r}@example.org` })),
		params: { n: String(v) },
	})),
});

test('a 2,500-recipient send is pushed as 1000/1000/500 with every event once', async () => {
	await expectCode(
		env.emulator,
		'/v5/webhook/save',
		{ transCallbackUrl: `${receiver.url}/hook`, transEvent: allOn, transEnable: true },
		200,
	);
	await env.control('POST', 'settings', { autoPush: false });
	await expectCode(env.emulator, TX, bigSend(), 200);
	await env.control('POST', 'flush');
	expect(receiver.pushes.map((p) => p.events.length)).toEqual([1000, 1000, 500]);
	const emails = receiver.pushes.flatMap((p) =>
		p.events.map((e) => (e as { Email: string }).Email),
	);
	expect(new Set(emails).size).toBe(2500);
});

test('pushes are JSON arrays whose MailSeqId is a bare integer above 2^53, with every 6.2/6.3 field', async () => {
	await pushEverythingToReceiver();
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail: 'sender@example.com',
			subject: 's',
			content: 'c',
			category: 'news',
			campaign: 'spring',
			uniqueMsgID: 'u-1',
			messageVersions: [{ to: [{ email: 'bounce@example.org' }] }],
		},
		200,
	);
	await env.control('POST', 'flush');
	const raw = receiver.pushes[0].raw;
	expect(raw).toMatch(/"MailSeqId":\d{19}[,}]/);
	expect(receiver.pushes[0].events[0]).toMatchObject({
		EventCode: 'Bounced',
		Email: 'bounce@example.org',
		EventType: '3',
		SentMailListName: 'news||spring',
		UniqueMsgID: 'u-1',
		Reason: '100',
		SenderEmail: 'sender@example.com',
		TriggeredDateTimeV2: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
		SubmitDateTimeV2: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
		Guid: expect.any(String),
		MailName: 'spring',
	});
	const cause = (receiver.pushes[0].events[0] as { FailedCause: string }).FailedCause;
	expect(Buffer.from(cause, 'base64').toString()).toContain('user unknown');
});

test('a sender listed in transCallbackUrlExtra gets its own address', async () => {
	await expectCode(
		env.emulator,
		'/v5/webhook/save',
		{
			transCallbackUrl: `${receiver.url}/default`,
			transCallbackUrlExtra: [{ sender: 'news@example.com', url: `${receiver.url}/news` }],
			transEvent: allOn,
			transEnable: true,
		},
		200,
	);
	await sendOneTo('a@example.org');
	await sendOneTo('b@example.org', 'news@example.com');
	await env.control('POST', 'flush');
	const byPath = Object.fromEntries(
		receiver.pushes.map((p) => [p.path, p.events.map((e) => (e as { Email: string }).Email)]),
	);
	expect(byPath).toEqual({ '/default': ['a@example.org'], '/news': ['b@example.org'] });
});

test('only kinds switched on are pushed, TaskStatus always, and nothing while transEnable is off', async () => {
	await expectCode(
		env.emulator,
		'/v5/webhook/save',
		{ transCallbackUrl: receiver.url, transEvent: { bounced: true }, transEnable: false },
		200,
	);
	const send = {
		senderMail: 'sender@example.com',
		subject: 's',
		content: 'c',
		messageVersions: [{ to: [{ email: 'a@example.org' }, { email: 'bounce@example.org' }] }],
	};
	await expectCode(env.emulator, TX, send, 200);
	await env.control('POST', 'flush');
	expect(receiver.pushes).toHaveLength(0);
	await expectCode(env.emulator, '/v5/webhook/save', { transEnable: true }, 200);
	await expectCode(
		env.emulator,
		TX,
		{
			...send,
			messageVersions: [{ to: [{ email: 'c@example.org' }, { email: 'bounce@example.net' }] }],
		},
		200,
	);
	await expectCode(
		env.emulator,
		'/v5/campaign/mail/sends',
		{ mailName: 'c1', senderMail: 'news@example.com', sendListNames: ['newsletter'] },
		200,
	);
	await env.control('POST', 'flush');
	const codes = receiver.pushes.flatMap((p) =>
		p.events.map(
			(e) =>
				(e as { EventCode: string; StatusCode?: string }).EventCode +
				((e as { StatusCode?: string }).StatusCode
					? `:${(e as { StatusCode: string }).StatusCode}`
					: ''),
		),
	);
	expect(codes.sort()).toEqual(['Bounced', 'TaskStatus:Completed', 'TaskStatus:Created']);
	const discarded = (await env.control('GET', 'pushes')).discarded.map(
		(d: { reason: string }) => d.reason,
	);
	expect(discarded).toContain('push disabled');
	expect(discarded).toContain('kind switched off');
});

test('opens, clicks, unsubscribes and spam reports are caused through the control interface', async () => {
	await pushEverythingToReceiver();
	await sendOneTo('ada@example.org');
	for (const kind of ['Opened', 'Clicked', 'SpamReport', 'Unsubscribed'])
		await env.control('POST', 'events', { kind, email: 'ada@example.org' });
	await env.control('POST', 'flush');
	const events = receiver.pushes.flatMap((p) => p.events) as Array<Record<string, string>>;
	expect(events.map((e) => e.EventCode)).toEqual([
		'Delivered',
		'Opened',
		'Clicked',
		'SpamReport',
		'Unsubscribed',
	]);
	expect(events[2]).toMatchObject({
		Link: 'https://example.org/offer',
		IP: expect.any(String),
		UA: expect.any(String),
		DeliveredTimeV2: expect.any(String),
	});
	await sendOneTo('ada@example.org');
	expect(env.view().events.at(-1)).toMatchObject({ EventCode: 'Dropped', Reason: '210' });
});

test('a failing receiver is retried, then recorded as failed', async () => {
	await pushEverythingToReceiver();
	await env.control('POST', 'settings', { autoPush: false, retryDelayMs: 10, pushRetries: 2 });
	receiver.failNext = 1;
	await sendOneTo('a@example.org');
	await env.control('POST', 'flush');
	expect(receiver.pushes).toHaveLength(1);
	receiver.failNext = 5;
	await sendOneTo('b@example.org');
	await env.control('POST', 'flush');
	const pushes = (await env.control('GET', 'pushes')).pushes;
	expect(pushes.map((p: { ok: boolean; attempts: number }) => [p.ok, p.attempts])).toEqual([
		[true, 2],
		[false, 3],
	]);
	expect(pushes[1].error).toBe('receiver answered HTTP 503');
});

test('pushTimeoutMs: a receiver slower than the platform waits gets the same push again while it is still answering the first', async () => {
	await pushEverythingToReceiver();
	await env.control('POST', 'settings', {
		autoPush: false,
		retryDelayMs: 10,
		pushRetries: 2,
		pushTimeoutMs: 50,
	});
	receiver.answerDelayMs = 200;
	await sendOneTo('slow@example.org');
	await env.control('POST', 'flush');
	// Three attempts, each taken by the receiver, none answered in time: the same body three times.
	expect(receiver.pushes).toHaveLength(3);
	expect(new Set(receiver.pushes.map((push) => push.raw)).size).toBe(1);
	const [record] = (await env.control('GET', 'pushes')).pushes;
	expect(record).toMatchObject({
		ok: false,
		attempts: 3,
		error: 'receiver did not answer within 50 ms',
	});
	// A reset puts the platform's patience back.
	env.emulator.reset();
	expect(env.emulator.pushes.answerTimeoutMs).toBe(30_000);
});
