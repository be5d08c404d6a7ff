/** The emulator's settings for the platform's unfriendly parts, all off by default. */
import axios from 'axios';

import { signatureHeaders } from '../../credentials/common';
import { call, expectCode } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';

const env = useEmulator({ messages: 'en' });
const TX = '/v5/transactional/mail/sends_customised';
const IMPORT = '/v5/contacts/imports';

test('latency: every /v5 answer comes at least latencyMs later', async () => {
	await env.control('POST', 'settings', { latencyMs: 120 });
	const started = Date.now();
	await expectCode(env.emulator, '/v5/webhook/get', {}, 200);
	expect(Date.now() - started).toBeGreaterThanOrEqual(115);
});

test('workers: so many requests worked at a time, the others wait their turn; more at once take longer, none refused', async () => {
	await env.control('POST', 'settings', { latencyMs: 100, workersAtOnce: 2 });
	const started = Date.now();
	const finished = await Promise.all(
		Array.from({ length: 6 }, async () => {
			const answer = await call(env.emulator, '/v5/webhook/get', {});
			return { status: answer.status, ms: Date.now() - started };
		}),
	);
	expect(finished.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
	const times = finished.map((answer) => answer.ms).sort((a, b) => a - b);
	// Two at a time, 100 ms each: the third and fourth wait for the first two, the last two for those.
	expect(times[2]).toBeGreaterThanOrEqual(195);
	expect(times[5]).toBeGreaterThanOrEqual(295);
});

test('a request-rate limit answers HTTP 429 with Retry-After, and nothing is processed', async () => {
	await env.control('POST', 'settings', { rateLimitPerSecond: 2 });
	const answers = await Promise.all(
		Array.from({ length: 4 }, () =>
			call(env.emulator, '/v5/lists/add', { listName: `l${Math.random()}` }),
		),
	);
	const limited = answers.filter((answer) => answer.status === 429);
	expect(limited).toHaveLength(2);
	expect(limited[0].body.code).toBe(429);
	const raw = await axios.post(
		`${env.emulator.url}/v5/webhook/get`,
		{},
		{ validateStatus: () => true },
	);
	expect(raw.status).toBe(429);
	expect(Number(raw.headers['retry-after'])).toBeGreaterThanOrEqual(1);
	expect(env.view().state.lists.length).toBe(1 + 2);
});

test('every Nth request is answered 503 with Retry-After and not processed', async () => {
	await env.control('POST', 'settings', { unavailableEvery: 3 });
	const statuses = [];
	for (let i = 0; i < 6; i++)
		statuses.push((await call(env.emulator, '/v5/lists/add', { listName: `n${i}` })).status);
	expect(statuses).toEqual([200, 200, 503, 200, 200, 503]);
	expect(env.view().state.lists.map((list) => list.listName)).not.toContain('n2');
});

test('a capped page size answers fewer records per page but the true totalRecords', async () => {
	await env.control('POST', 'settings', { pageSizeCap: 1 });
	const page = await expectCode(
		env.emulator,
		'/v5/lists/get',
		{ pageSize: 100, pageIndex: 1 },
		200,
	);
	expect([page.lists.length, page.totalRecords]).toEqual([1, 1]);
});

test('webhook/save with null: accepted by default, refused with 400 when set', async () => {
	await expectCode(env.emulator, '/v5/webhook/save', { transCallbackUrl: null }, 200);
	await env.control('POST', 'settings', { webhookNull: 'refuse' });
	await expectCode(env.emulator, '/v5/webhook/save', { transCallbackUrl: null }, 400);
	await expectCode(env.emulator, '/v5/webhook/save', { transEnable: false }, 200);
});

test('webhook/save keeps every character of an address by default, only the first N when set', async () => {
	const long = `https://receiver.example/${'x'.repeat(300)}`;
	await expectCode(env.emulator, '/v5/webhook/save', { transCallbackUrl: long }, 200);
	expect(env.view().state.webhook.transCallbackUrl).toBe(long);
	await env.control('POST', 'settings', { webhookUrlMaxLength: 100 });
	await expectCode(
		env.emulator,
		'/v5/webhook/save',
		{ transCallbackUrl: long, transCallbackUrlExtra: [{ sender: 'a@example.com', url: long }] },
		200,
	);
	const { webhook } = env.view().state;
	expect([webhook.transCallbackUrl, webhook.transCallbackUrlExtra![0].url]).toEqual([
		long.slice(0, 100),
		long.slice(0, 100),
	]);
});

test('faults: network drops the next request unanswered; internalError processes it, then answers 500', async () => {
	await env.control('POST', 'fault', { path: '/v5/lists/add', fault: 'network' });
	await expect(call(env.emulator, '/v5/lists/add', { listName: 'dropped' })).rejects.toThrow();
	expect(env.view().state.lists.map((list) => list.listName)).not.toContain('dropped');
	await env.control('POST', 'fault', { path: '/v5/lists/add', fault: 'internalError' });
	const answer = await call(env.emulator, '/v5/lists/add', { listName: 'processed' });
	expect([answer.status, answer.body.code]).toEqual([500, 500]);
	expect(env.view().state.lists.map((list) => list.listName)).toContain('processed');
});

test('import: a bad row refuses the whole request and nothing is imported', async () => {
	const mapping = [
		{ columnNum: 0, propertyName: 'email' },
		{ columnNum: 1, propertyName: 'city' },
	];
	for (const rows of [
		[
			['a@example.org', 'x'],
			['not-an-address', 'y'],
		],
		[['a@example.org', null]],
		[['b@example.org', { nested: 1 }]],
		[['', '']],
	]) {
		await expectCode(
			env.emulator,
			IMPORT,
			{ contactData: rows, contactDataMapping: mapping, updateMode: 1 },
			400,
		);
	}
	await expectCode(
		env.emulator,
		IMPORT,
		{
			contactData: [['a@example.org']],
			contactDataMapping: [mapping[0], { columnNum: 1, propertyName: 'email' }],
			updateMode: 1,
		},
		400,
	);
	expect(env.view().state.contacts.length).toBe(2);
});

test('content precedence: the version templateName, then the top-level templateName, then version content, then top-level content', async () => {
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail: 'sender@example.com',
			templateName: 'welcome',
			subject: 's',
			messageVersions: [{ to: [{ email: 'a@example.org' }], content: '<p>own</p>' }],
		},
		200,
	);
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail: 'sender@example.com',
			content: '<p>top</p>',
			subject: 's',
			messageVersions: [
				{ to: [{ email: 'b@example.org' }], content: '<p>own</p>' },
				{ to: [{ email: 'c@example.org' }] },
			],
		},
		200,
	);
	expect(
		env.view().mails.map(({ email, templateName, content }) => [email, templateName ?? content]),
	).toEqual([
		['a@example.org', 'welcome'],
		['b@example.org', '<p>own</p>'],
		['c@example.org', '<p>top</p>'],
	]);
});

test("a version's templateName that matches no template refuses the whole request (7.2, 400)", async () => {
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail: 'sender@example.com',
			templateName: 'welcome',
			messageVersions: [
				{ to: [{ email: 'a@example.org' }] },
				{ to: [{ email: 'b@example.org' }], templateName: 'missing' },
			],
		},
		400,
	);
	expect(env.view().mails).toHaveLength(0);
});

test('a stricter platform: a request-level value set as refused is answered 400, whatever its messages', async () => {
	await env.control('POST', 'settings', { refusedValues: { category: ['promo'] } });
	const body = (category: string) => ({
		senderMail: 'sender@example.com',
		templateName: 'welcome',
		category,
		messageVersions: [{ to: [{ email: 'a@example.org' }] }],
	});
	const refused = await expectCode(env.emulator, TX, body('promo'), 400);
	expect(refused.message).toBe('field category is not accepted');
	await expectCode(env.emulator, TX, body('news'), 200);
	expect(env.view().mails).toHaveLength(1);
});

describe('transient faults planned for a chosen request to a path', () => {
	const lists = () => env.view().state.lists.map((list) => list.listName);
	const raw = async (listName: string, timeout?: number) =>
		await axios
			.post(
				`${env.emulator.url}/v5/lists/add`,
				{ listName },
				{ validateStatus: () => true, timeout, headers: signedHeaders() },
			)
			.then((answer) => ({ status: answer.status, body: answer.data as unknown }))
			.catch((error: Error & { code?: string }) => ({ status: 0, body: error.code }));
	const signedHeaders = () =>
		signatureHeaders(env.emulator.account.apiKey, env.emulator.account.apiSecret, new Date());

	test('badGateway: an HTML 502 page, the request not processed', async () => {
		await env.control('POST', 'fault', { path: '/v5/lists/add', fault: 'badGateway' });
		const answer = await raw('gw');
		expect(answer.status).toBe(502);
		expect(String(answer.body)).toContain('<h1>502 Bad Gateway</h1>');
		expect(lists()).not.toContain('gw');
	});

	test('resetAfter: processed, then the connection is dropped without an answer', async () => {
		await env.control('POST', 'fault', { path: '/v5/lists/add', fault: 'resetAfter' });
		expect((await raw('reset')).status).toBe(0);
		expect(lists()).toContain('reset');
	});

	test('tooManyRequests: HTTP 429 with Retry-After, the request not processed', async () => {
		await env.control('POST', 'fault', { path: '/v5/lists/add', fault: 'tooManyRequests' });
		const answer = await raw('busy');
		expect(answer).toEqual({ status: 429, body: { code: 429, message: 'too many requests' } });
		expect(lists()).not.toContain('busy');
		expect((await raw('later')).status).toBe(200);
	});

	test('hang: processed and never answered', async () => {
		await env.control('POST', 'fault', { path: '/v5/lists/add', fault: 'hang' });
		const answer = await raw('hung', 300);
		expect(answer).toEqual({ status: 0, body: 'ECONNABORTED' });
		expect(lists()).toContain('hung');
	});

	test('skip counts the same for faults after processing: internalError with skip 1 answers the 2nd request 500', async () => {
		await env.control('POST', 'fault', { path: '/v5/lists/add', fault: 'internalError', skip: 1 });
		const statuses = [];
		for (const name of ['i0', 'i1', 'i2']) statuses.push((await raw(name)).status);
		expect(statuses).toEqual([200, 500, 200]);
		expect(lists()).toEqual(expect.arrayContaining(['i0', 'i1', 'i2']));
	});

	test('skip: the fault waits for the chosen request; the ones before it go through', async () => {
		await env.control('POST', 'fault', { path: '/v5/lists/add', fault: 'network', skip: 2 });
		const statuses = [];
		for (const name of ['s0', 's1', 's2', 's3']) statuses.push((await raw(name)).status);
		expect(statuses).toEqual([200, 200, 0, 200]);
		expect(lists()).toEqual(expect.arrayContaining(['s0', 's1', 's3']));
		expect(lists()).not.toContain('s2');
	});
});
