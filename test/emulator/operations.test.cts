import { useEmulator } from '../harness/emulator.cts';
import { call, expectCode } from '../harness/client.cts';

const env = useEmulator({ messages: 'en' });
const SEND = '/v5/campaign/mail/sends';
const TX = '/v5/transactional/mail/sends_customised';
const version = (email = 'ada@example.org') => ({ to: [{ email, name: 'Ada' }] });
const tx = (extra: Record<string, unknown> = {}) => ({
	senderMail: 'sender@example.com',
	subject: 'Hi',
	content: '<p>x</p>',
	messageVersions: [version()],
	...extra,
});
const campaign = (extra: Record<string, unknown> = {}) => ({
	mailName: 'spring',
	senderMail: 'news@example.com',
	sendListNames: ['newsletter'],
	...extra,
});

/** Required fields of every operation, with a good value each, as section 4 of the API lists them. */
const REQUIRED: Record<string, Record<string, unknown>> = {
	'/v5/campaign/mail/sends': { mailName: 'm', senderMail: 'news@example.com' },
	'/v5/campaign/mail/cancel': { mailName: 'm' },
	'/v5/campaign/mail/delete': { mailName: 'm' },
	'/v5/campaign/mail/stats/get': { startDate: '2026-01-01', endDate: '2026-01-02' },
	'/v5/campaign/mail/template/add': {
		templateName: 't',
		templateContent: '<p/>',
		templateSubject: 's',
	},
	'/v5/campaign/mail/template/delete': { templateName: 'welcome' },
	'/v5/contacts/imports': {
		contactData: [['a@example.org']],
		contactDataMapping: [{ columnNum: 0, propertyName: 'email' }],
		updateMode: 1,
	},
	'/v5/contacts/get': { email: 'ada@example.org' },
	'/v5/contacts/delete': { email: 'ada@example.org' },
	'/v5/lists/add': { listName: 'l' },
	'/v5/lists/delete': { listName: 'newsletter' },
	'/v5/verified_senders/add': { senderEmail: 'a@shop.example', senderType: '1' },
	'/v5/verified_senders/verify': { fromDomain: 'example.com', selector: 'default' },
	'/v5/verified_senders/delete': { senderEmail: 'sender@example.com' },
	'/v5/transactional/mail/sends_customised': {
		senderMail: 'sender@example.com',
		messageVersions: [{ to: [{ email: 'a@example.org' }] }],
	},
	'/v5/transactional/mail/stats/get': { startDate: '2026-01-01', endDate: '2026-01-02' },
};

/** The twelve operations whose tables do not list sandboxMode. */
const WITHOUT_SANDBOX = [
	'/v5/campaign/mail/get',
	'/v5/campaign/mail/stats/get',
	'/v5/campaign/mail/template/add',
	'/v5/campaign/mail/template/get',
	'/v5/campaign/mail/template/delete',
	'/v5/contacts/get',
	'/v5/lists/get',
	'/v5/verified_senders/get',
	'/v5/verified_senders/verify',
	'/v5/transactional/mail/stats/get',
	'/v5/webhook/get',
	'/v5/webhook/save',
];

describe('every operation', () => {
	test.each(Object.entries(REQUIRED))(
		'%s answers 400 for each missing required field',
		async (path, required) => {
			for (const field of Object.keys(required)) {
				const { [field]: _missing, ...body } = required;
				const answer = await call(env.emulator, path, {
					...body,
					content: path.includes('sends') ? '<p/>' : undefined,
					subject: path.includes('transactional') ? 's' : undefined,
				});
				expect([field, answer.body.code]).toEqual([field, 400]);
			}
		},
	);

	test.each(WITHOUT_SANDBOX)('%s refuses sandboxMode as an unknown field', async (path) => {
		const answer = await call(env.emulator, path, { sandboxMode: true });
		expect(answer.body).toEqual({ code: 400, message: 'unknown field: sandboxMode' });
	});

	test('unknown paths are 404 and wrong types are 400', async () => {
		expect((await call(env.emulator, '/v5/nothing')).status).toBe(404);
		await expectCode(env.emulator, '/v5/lists/get', { pageSize: '10' }, 400);
	});
});

describe('7.1 create campaign task', () => {
	test('good input creates a task with id and guid, and it completes with stats', async () => {
		const body = await expectCode(env.emulator, SEND, campaign(), 200);
		expect(typeof body.id).toBe('number');
		expect(body.guid).toMatch(/^[0-9a-f-]{36}$/);
		await env.control('POST', 'flush');
		const search = await expectCode(
			env.emulator,
			'/v5/campaign/mail/get',
			{ mailName: 'spring' },
			200,
		);
		expect(search.mailList[0]).toMatchObject({
			mailName: 'spring',
			mailStatus: 2,
			senderName: 'news@example.com',
			mailStats: { sentCount: 2, deliveredCount: 2 },
		});
	});

	test.each([
		[
			'a required parameter is missing',
			{ senderMail: 'news@example.com', sendListNames: ['newsletter'] },
			400,
		],
		['mailName longer than allowed', campaign({ mailName: 'x'.repeat(201) }), 400],
		['sendDate has a wrong format', campaign({ sendDate: '2026-05-01 10:00:00' }), 400],
		['attachment without fileName', campaign({ attachment: { fileData: 'aGk=' } }), 400],
		['attachment without fileData', campaign({ attachment: { fileName: 'a.txt' } }), 400],
		['sendListNames not given', { mailName: 'spring', senderMail: 'news@example.com' }, 400],
		['no list found for sendListNames', campaign({ sendListNames: ['missing'] }), 403],
		['no list found for repelListNames', campaign({ repelListNames: ['missing'] }), 403],
	])('%s: code %s', async (_condition, body, code) => {
		await expectCode(env.emulator, SEND, body, code);
		expect(env.view().state.tasks.length).toBe(0);
	});

	test('task creation failed: 500 and no task', async () => {
		await env.control('POST', 'fault', { path: SEND, fault: 'createFailed' });
		await expectCode(env.emulator, SEND, campaign(), 500);
		expect(env.view().state.tasks.length).toBe(0);
	});

	test.each(['attachFailed', 'checkFailed'])(
		'%s: 500 and the created task is kept',
		async (fault) => {
			await env.control('POST', 'fault', { path: SEND, fault });
			await expectCode(env.emulator, SEND, campaign(), 500);
			expect(env.view().state.tasks.map((t) => t.mailName)).toEqual(['spring']);
		},
	);

	test('onlySave keeps a draft and needs no lists; scheduled tasks cancel; sent ones do not', async () => {
		await expectCode(
			env.emulator,
			SEND,
			{ mailName: 'draft', senderMail: 'news@example.com', onlySave: true },
			200,
		);
		const later = new Date(Date.now() + 86400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
		await expectCode(env.emulator, SEND, campaign({ mailName: 'later', sendDate: later }), 200);
		await expectCode(env.emulator, '/v5/campaign/mail/cancel', { mailName: 'later' }, 200);
		await expectCode(env.emulator, SEND, campaign({ mailName: 'now' }), 200);
		await env.control('POST', 'flush');
		await expectCode(env.emulator, '/v5/campaign/mail/cancel', { mailName: 'now' }, 403);
		const statuses = Object.fromEntries(
			env.view().state.tasks.map((t) => [t.mailName, t.mailStatus]),
		);
		expect(statuses).toEqual({ draft: -1, later: -1, now: 2 });
	});
});

describe('7.2 transactional send', () => {
	test('good input sends', async () => {
		await expectCode(env.emulator, TX, tx(), 200);
	});

	test.each([
		[
			'a required parameter is missing',
			{ subject: 'x', content: 'y', messageVersions: [version()] },
			400,
		],
		['sendDate has a wrong format', tx({ sendDate: 'tomorrow' }), 400],
		['category longer than allowed', tx({ category: 'a'.repeat(101) }), 400],
		['campaign not letters and digits', tx({ campaign: 'spring-sale' }), 400],
		['uniqueMsgID longer than allowed', tx({ uniqueMsgID: 'u'.repeat(51) }), 400],
		['senderName longer than allowed', tx({ senderName: 'n'.repeat(201) }), 400],
		["no recipient in a version's to", tx({ messageVersions: [{ to: [] }] }), 400],
		['a to item has no email', tx({ messageVersions: [{ to: [{ name: 'Ada' }] }] }), 400],
		[
			"a version's templateName matches no template",
			tx({ messageVersions: [{ ...version(), templateName: 'missing' }] }),
			400,
		],
		['replyTo fails the email format check', tx({ replyTo: 'nobody' }), 400],
		[
			'neither content nor templateName given',
			{ senderMail: 'sender@example.com', subject: 'x', messageVersions: [version()] },
			400,
		],
		[
			'more than 100 versions',
			tx({ messageVersions: Array.from({ length: 101 }, () => version()) }),
			400,
		],
		[
			'more than 20 to recipients',
			tx({
				messageVersions: [
					{ to: Array.from({ length: 21 }, (_, i) => ({ email: `r${i}@example.org` })) },
				],
			}),
			400,
		],
		[
			'a recipient name over 100 characters',
			tx({ messageVersions: [{ to: [{ email: 'a@example.org', name: 'n'.repeat(101) }] }] }),
			400,
		],
		['senderMail is not a configured sender', tx({ senderMail: 'stranger@example.net' }), 403],
		[
			'the top-level templateName matches no template',
			{ senderMail: 'sender@example.com', templateName: 'missing', messageVersions: [version()] },
			403,
		],
	])('%s: code %s', async (_condition, body, code) => {
		await expectCode(env.emulator, TX, body, code);
		expect(env.view().events).toHaveLength(0);
	});

	test('the account has too few mail credits: 403', async () => {
		await env.control('POST', 'settings', { credits: 1 });
		await expectCode(
			env.emulator,
			TX,
			tx({ messageVersions: [version('a@example.org'), version('b@example.org')] }),
			403,
		);
	});

	test('recipients get events by the documented rules', async () => {
		await expectCode(
			env.emulator,
			TX,
			tx({
				messageVersions: [
					{
						to: [
							{ email: 'ok@example.org' },
							{ email: 'bounce@example.org' },
							{ email: 'soft@example.org' },
							{ email: 'filtered@example.org' },
						],
					},
				],
			}),
			200,
		);
		await expectCode(
			env.emulator,
			TX,
			tx({ messageVersions: [version('bounce@example.org')] }),
			200,
		);
		const seen = env.view().events.map((e) => [e.Email, e.EventCode, e.Reason ?? '']);
		expect(seen).toEqual([
			['ok@example.org', 'Delivered', ''],
			['bounce@example.org', 'Bounced', '100'],
			['soft@example.org', 'Bounced', '101'],
			['filtered@example.org', 'Dropped', '111'],
			['bounce@example.org', 'Dropped', '110'],
		]);
	});
});

describe('other operations: state and names', () => {
	test('templates: add, search with createDate pattern, duplicate 400, delete, missing 403', async () => {
		await expectCode(
			env.emulator,
			'/v5/campaign/mail/template/add',
			{ templateName: 't1', templateContent: '<p/>', templateSubject: 's' },
			200,
		);
		await expectCode(
			env.emulator,
			'/v5/campaign/mail/template/add',
			{ templateName: 't1', templateContent: '<p/>', templateSubject: 's' },
			400,
		);
		await expectCode(
			env.emulator,
			'/v5/campaign/mail/template/add',
			{ templateName: 'x'.repeat(251), templateContent: '<p/>', templateSubject: 's' },
			400,
		);
		const found = await expectCode(
			env.emulator,
			'/v5/campaign/mail/template/get',
			{ templateName: 't1' },
			200,
		);
		expect(found.templateList[0].createDate).toMatch(
			/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/,
		);
		await expectCode(
			env.emulator,
			'/v5/campaign/mail/template/delete',
			{ templateName: 't1' },
			200,
		);
		await expectCode(
			env.emulator,
			'/v5/campaign/mail/template/delete',
			{ templateName: 't1' },
			403,
		);
	});

	test('lists: the sample spelling listName and string ids; paging by pageSize and pageIndex', async () => {
		for (let i = 0; i < 12; i++)
			await expectCode(env.emulator, '/v5/lists/add', { listName: `l${i}` }, 200);
		const page2 = await expectCode(
			env.emulator,
			'/v5/lists/get',
			{ pageSize: 5, pageIndex: 3 },
			200,
		);
		expect(page2.totalRecords).toBe(13);
		expect(page2.lists).toHaveLength(3);
		expect(page2.lists[0]).toMatchObject({
			Id: expect.stringMatching(/^\d+$/),
			listName: expect.any(String),
			ListStatus: 1,
			ListType: 1,
		});
		const defaultPage = await expectCode(env.emulator, '/v5/lists/get', {}, 200);
		expect(defaultPage.lists).toHaveLength(10);
	});

	test('contacts: upsert, import with mapping and list creation, get, delete', async () => {
		await expectCode(env.emulator, '/v5/contacts/upsert', { email: 'new@example.org' }, 200);
		expect(
			(await expectCode(env.emulator, '/v5/contacts/get', { email: 'new@example.org' }, 200))
				.contact,
		).toMatchObject({ name: 'new@example.org', email: 'new@example.org' });
		await expectCode(env.emulator, '/v5/contacts/upsert', { name: 'x' }, 400);
		await expectCode(
			env.emulator,
			'/v5/contacts/imports',
			{
				contactData: [
					['a@example.org', 'A', 'gold'],
					['b@example.org', 'B', 'silver'],
				],
				contactDataMapping: [
					{ columnNum: 0, propertyName: 'email' },
					{ columnNum: 1, propertyName: 'name' },
					{ columnNum: 2, propertyName: 'tier' },
				],
				updateMode: 1,
				listName: 'imported',
			},
			200,
		);
		expect(
			(await expectCode(env.emulator, '/v5/contacts/get', { email: 'b@example.org' }, 200)).contact,
		).toMatchObject({ name: 'B', properties: { tier: 'silver' } });
		expect(env.view().state.lists.map((list) => list.listName)).toContain('imported');
		await expectCode(
			env.emulator,
			'/v5/contacts/imports',
			{
				contactData: [['x']],
				contactDataMapping: [{ columnNum: 0, propertyName: 'name' }],
				updateMode: 1,
			},
			400,
		);
		await expectCode(env.emulator, '/v5/contacts/delete', { email: 'b@example.org' }, 200);
		await expectCode(env.emulator, '/v5/contacts/get', { email: 'b@example.org' }, 403);
	});

	test('senders: add (not a top-level domain), verify by DNS, delete', async () => {
		await expectCode(
			env.emulator,
			'/v5/verified_senders/add',
			{ senderEmail: 'me@com', senderType: '2' },
			400,
		);
		await expectCode(
			env.emulator,
			'/v5/verified_senders/add',
			{ senderEmail: 'me@shop.example', senderType: '2' },
			200,
		);
		const check = await expectCode(
			env.emulator,
			'/v5/verified_senders/verify',
			{ fromDomain: 'me@shop.example', selector: 's1' },
			200,
		);
		expect(check).toMatchObject({ valid: false, goodMX: false });
		await env.control('POST', 'dns', {
			domain: 'shop.example',
			mx: true,
			spf: true,
			dmarc: true,
			dkimSelectors: ['s1'],
		});
		expect(
			await expectCode(
				env.emulator,
				'/v5/verified_senders/verify',
				{ fromDomain: 'shop.example', selector: 's1' },
				200,
			),
		).toMatchObject({ valid: true, goodDKIM: true });
		const [sender] = (
			await expectCode(
				env.emulator,
				'/v5/verified_senders/get',
				{ senderEmail: 'me@shop.example' },
				200,
			)
		).mailFromDomains;
		expect(sender).toMatchObject({
			isValidate: 1,
			mxStatus: 1,
			spfStatus: 1,
			dkimStatus: 1,
			dmarcStatus: 1,
			senderType: 2,
		});
		await expectCode(
			env.emulator,
			'/v5/verified_senders/delete',
			{ senderEmail: 'me@shop.example' },
			200,
		);
		await expectCode(
			env.emulator,
			'/v5/verified_senders/delete',
			{ senderEmail: 'me@shop.example' },
			403,
		);
	});

	test('webhook: null when nothing is configured; only sent fields saved; save vs replace', async () => {
		expect(await expectCode(env.emulator, '/v5/webhook/get', {}, 200)).toMatchObject({
			transEvent: null,
			transCallbackUrl: null,
			transCallbackUrlExtra: null,
			transEnable: null,
		});
		await expectCode(
			env.emulator,
			'/v5/webhook/save',
			{ transCallbackUrl: 'https://a.example/h', transEvent: { opened: true } },
			200,
		);
		await expectCode(
			env.emulator,
			'/v5/webhook/save',
			{
				transCallbackUrlExtra: [
					{ sender: 'x@example.com', url: 'https://x.example' },
					{ sender: 'y@example.com', url: 'https://y.example' },
				],
			},
			200,
		);
		await expectCode(
			env.emulator,
			'/v5/webhook/save',
			{
				transCallbackUrlExtra: [
					{ sender: 'y@example.com', url: 'https://y2.example' },
					{ sender: 'z@example.com', url: 'https://z.example' },
				],
			},
			200,
		);
		let config = await expectCode(env.emulator, '/v5/webhook/get', {}, 200);
		expect(config.transCallbackUrl).toBe('https://a.example/h');
		expect(config.transEvent).toMatchObject({ opened: true, delivered: false });
		expect(config.transEnable).toBeNull();
		expect(config.transCallbackUrlExtra).toEqual([
			{ sender: 'x@example.com', url: 'https://x.example' },
			{ sender: 'y@example.com', url: 'https://y2.example' },
			{ sender: 'z@example.com', url: 'https://z.example' },
		]);
		await expectCode(
			env.emulator,
			'/v5/webhook/save',
			{
				transCallbackUrlExtra: [{ sender: 'q@example.com', url: 'http://q.example' }],
				transCallbackUrlExtraUpdateMode: 'replace',
			},
			200,
		);
		config = await expectCode(env.emulator, '/v5/webhook/get', {}, 200);
		expect(config.transCallbackUrlExtra).toEqual([
			{ sender: 'q@example.com', url: 'http://q.example' },
		]);
		await expectCode(env.emulator, '/v5/webhook/save', { transCallbackUrl: 'ftp://nope' }, 400);
	});

	test('reports: campaign and transactional statistics over days, both days included', async () => {
		await expectCode(
			env.emulator,
			TX,
			tx({
				messageVersions: [
					{
						to: [
							{ email: 'a@example.org' },
							{ email: 'soft@example.org' },
							{ email: 'filtered@example.org' },
						],
					},
				],
			}),
			200,
		);
		await expectCode(env.emulator, SEND, campaign(), 200);
		await env.control('POST', 'flush');
		const today = new Date(env.emulator.now()).toISOString().slice(0, 10);
		const daily = await expectCode(
			env.emulator,
			'/v5/transactional/mail/stats/get',
			{ startDate: today, endDate: today },
			200,
		);
		expect(daily.mailStatsList).toEqual([
			{
				statsDate: today,
				sentCount: 2,
				openCount: 0,
				clickCount: 0,
				bounceCount: 1,
				unsentCount: 1,
				unsubscribeCount: 0,
			},
		]);
		const stats = await expectCode(
			env.emulator,
			'/v5/campaign/mail/stats/get',
			{ startDate: today, endDate: today },
			200,
		);
		expect(stats).toMatchObject({
			totalRecords: 1,
			mailStatsList: [{ mailName: 'spring', sentCount: 2 }],
		});
		await expectCode(
			env.emulator,
			'/v5/campaign/mail/stats/get',
			{ startDate: today, endDate: '2000-01-01' },
			400,
		);
		await expectCode(
			env.emulator,
			'/v5/campaign/mail/stats/get',
			{ startDate: '2026/01/01', endDate: today },
			400,
		);
	});
});

describe('sandbox mode', () => {
	const snapshot = () => JSON.stringify({ ...env.view().state, now: undefined });
	const later = () => new Date(Date.now() + 86400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

	test.each([
		[SEND, () => campaign({ sandboxMode: true })],
		['/v5/campaign/mail/cancel', () => ({ mailName: 'scheduled', sandboxMode: true })],
		['/v5/campaign/mail/delete', () => ({ mailName: 'scheduled', sandboxMode: true })],
		['/v5/contacts/upsert', () => ({ email: 'sandbox@example.org', sandboxMode: true })],
		[
			'/v5/contacts/imports',
			() => ({
				contactData: [['s@example.org']],
				contactDataMapping: [{ columnNum: 0, propertyName: 'email' }],
				updateMode: 1,
				listName: 'brand-new',
				sandboxMode: true,
			}),
		],
		['/v5/contacts/delete', () => ({ email: 'ada@example.org', sandboxMode: true })],
		['/v5/lists/add', () => ({ listName: 'sandbox-list', sandboxMode: true })],
		['/v5/lists/delete', () => ({ listName: 'newsletter', sandboxMode: true })],
		[
			'/v5/verified_senders/add',
			() => ({ senderEmail: 'new@shop.example', senderType: '1', sandboxMode: true }),
		],
		[
			'/v5/verified_senders/delete',
			() => ({ senderEmail: 'sender@example.com', sandboxMode: true }),
		],
		[TX, () => tx({ sandboxMode: true })],
	])('%s validates, answers 200 with an empty message, and changes nothing', async (path, body) => {
		await expectCode(
			env.emulator,
			SEND,
			campaign({ mailName: 'scheduled', sendDate: later() }),
			200,
		);
		await env.control('POST', 'flush');
		const before = snapshot();
		const credits = env.view().state.credits;
		const answer = await call(env.emulator, path, body());
		expect(answer.body).toEqual({ code: 200, message: '' });
		await env.control('POST', 'flush');
		expect(snapshot()).toBe(before);
		expect(env.view().state.credits).toBe(credits);
	});

	test('sandbox still validates: a bad request fails as without sandbox', async () => {
		await expectCode(
			env.emulator,
			TX,
			tx({ sandboxMode: true, senderMail: 'stranger@example.net' }),
			403,
		);
		await expectCode(
			env.emulator,
			SEND,
			campaign({ sandboxMode: true, sendListNames: ['missing'] }),
			403,
		);
	});
});

test("every accepted message is logged with the tag values it was sent with, a version's winning over the request's", async () => {
	await expectCode(
		env.emulator,
		'/v5/transactional/mail/sends_customised',
		{
			senderMail: 'sender@example.com',
			templateName: 'welcome',
			params: { shop: 'Example', name: 'Everyone' },
			messageVersions: [
				{ to: [{ email: 'ada@example.org' }], params: { name: 'Ada' } },
				{ to: [{ email: 'grace@example.org' }] },
			],
		},
		200,
	);
	expect(env.view().mails.map((mail) => [mail.email, mail.params])).toEqual([
		['ada@example.org', { shop: 'Example', name: 'Ada' }],
		['grace@example.org', { shop: 'Example', name: 'Everyone' }],
	]);
});
