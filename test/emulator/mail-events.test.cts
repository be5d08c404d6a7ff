/**
 * Events from the demo, by clicking (issue 46.4): the mail page (/mails/<n>) has a button for each event kind a
 * recipient causes (open, click a link, unsubscribe, mark as spam) and for a bounce; a button's event is about
 * that very mail (its UniqueMsgID, Guid), pushed at once, and the page says where it went.
 */
import axios from 'axios';

import { expectCode, startReceiver, type Receiver } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';

const env = useEmulator({ messages: 'en' });
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
const pushToReceiver = async (transEvent = allOn) =>
	await expectCode(
		env.emulator,
		'/v5/webhook/save',
		{ transCallbackUrl: `${receiver.url}/hook?token=secret`, transEvent, transEnable: true },
		200,
	);
const sendTo = async (email: string, uniqueMsgID: string, extra: object = {}) =>
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail: 'sender@example.com',
			subject: `Order ${uniqueMsgID}`,
			content: '<p>Hi</p><a href="https://shop.example/track">Track</a>',
			uniqueMsgID,
			trackClick: 1,
			messageVersions: [{ to: [{ email }] }],
			...extra,
		},
		200,
	);
const get = async (path: string) =>
	await axios.get<string>(`${env.emulator.url}${path}`, { validateStatus: () => true });
/** A click on a button of the mail page: a form POST, as the browser sends it. */
const click = async (mail: number, kind: string) =>
	await axios.post<string>(`${env.emulator.url}/mails/${mail}/events`, `kind=${kind}`, {
		headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		maxRedirects: 0,
		validateStatus: () => true,
	});
const pushedEvents = () =>
	receiver.pushes.flatMap((push) => push.events as Array<Record<string, unknown>>);

test('the mail page offers a button for each event kind', async () => {
	await sendTo('ada@example.org', 'order-1');
	const page = await get('/mails/0');
	for (const kind of ['Opened', 'Clicked', 'Unsubscribed', 'SpamReport', 'Bounced'])
		expect(page.data).toMatch(new RegExp(`<button[^>]*name="kind"[^>]*value="${kind}"`));
	expect(page.data).toContain('action="/mails/0/events"');
});

test.each([
	['Opened', {}],
	['Clicked', { Link: 'https://shop.example/track' }],
	['Unsubscribed', {}],
	['SpamReport', { SenderEmail: 'sender@example.com' }],
	['Bounced', { Reason: '100' }],
])(
	'%s: the event is about that mail, pushed at once, and the page says where it went',
	async (kind, fields) => {
		await pushToReceiver();
		await sendTo('ada@example.org', 'order-1');
		await sendTo('ada@example.org', 'order-2');
		await env.control('POST', 'flush');
		receiver.pushes = [];
		// The first of two mails to the same address: the event names it, not the last one.
		const answer = await click(0, kind);
		expect(answer.status).toBe(303);
		expect(pushedEvents()).toEqual([
			expect.objectContaining({
				EventCode: kind,
				Email: 'ada@example.org',
				UniqueMsgID: 'order-1',
				...fields,
			}),
		]);
		const shown = await get(answer.headers.location as string);
		expect(shown.data).toContain(`${kind} pushed to ${receiver.url}/hook: answered 200`);
		expect(shown.data).not.toContain('token=secret');
	},
);

test('with no push address the page says the event was not pushed, and why', async () => {
	await sendTo('ada@example.org', 'order-1');
	const answer = await click(0, 'Opened');
	const shown = await get(answer.headers.location as string);
	expect(shown.data).toContain(
		'Opened not pushed: the account has no push address (publish a workflow with a Mail Delivery Trigger)',
	);
});

test('a kind switched off is not pushed, and the page says so', async () => {
	await pushToReceiver({ ...allOn, opened: false });
	await sendTo('ada@example.org', 'order-1');
	const shown = await get((await click(0, 'Opened')).headers.location as string);
	expect(shown.data).toContain('Opened not pushed: the account does not push Opened events');
});

test('a mail not delivered yet (sent later) has nothing to open', async () => {
	await pushToReceiver();
	const later = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19) + 'Z';
	await sendTo('ada@example.org', 'order-1', { sendDate: later });
	const answer = await click(0, 'Opened');
	expect(answer.status).toBe(409);
	expect(answer.data).toContain('not delivered');
	expect(pushedEvents()).toEqual([]);
});

test('an unknown kind or mail is refused', async () => {
	await sendTo('ada@example.org', 'order-1');
	expect((await click(0, 'Delivered')).status).toBe(400);
	expect((await click(5, 'Opened')).status).toBe(404);
});
