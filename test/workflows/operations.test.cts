import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { everyOperation } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator({ messages: 'en' });
const rl = (value: string) => ({ __rl: true, mode: 'name', value });
const later = () => new Date(Date.now() + 86400_000).toISOString();

async function run(parameters: IDataObject, items = [{ json: {} }]) {
	const result = await runWorkflow({
		...actionWorkflow(parameters),
		credentials: env.credentials(),
		items,
	});
	const error = result.error();
	if (error)
		throw new Error(`${error.message}: ${(error as { description?: string }).description ?? ''}`);
	return result.output('Mail Delivery').map((item) => item.json);
}

const paths = () => env.view().requests.map((r) => r.path);
const SANDBOX_OPERATIONS = [
	'campaign.cancel',
	'campaign.create',
	'campaign.delete',
	'contact.delete',
	'contact.import',
	'contact.upsert',
	'contactList.create',
	'contactList.delete',
	'transactionalMail.send',
	'transactionalMail.sendAndWait',
	'verifiedSender.add',
	'verifiedSender.delete',
];

describe('every operation succeeds on good input', () => {
	test('campaign: create, get many, get stats, cancel, delete', async () => {
		const [created] = await run({
			resource: 'campaign',
			operation: 'create',
			mailName: 'spring',
			senderMail: rl('news@example.com'),
			sendLists: { list: [{ listName: rl('newsletter') }] },
			subject: 'Spring',
			content: '<p>hi</p>',
			additionalFields: { sendDate: later(), languageCode: 'de', replyTo: 'reply@example.com' },
		});
		expect(created).toMatchObject({
			success: true,
			mailName: 'spring',
			code: 200,
			guid: expect.any(String),
			id: expect.any(Number),
		});
		expect(env.view().requests[0].body).toMatchObject({
			sendDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
			languageCode: 'de',
		});
		const tasks = await run({
			resource: 'campaign',
			operation: 'getMany',
			returnAll: true,
			filters: { mailName: 'spr' },
		});
		expect(tasks).toEqual([expect.objectContaining({ mailName: 'spring', mailStatus: 1 })]);
		const today = new Date().toISOString().slice(0, 10);
		expect(
			await run({ resource: 'campaign', operation: 'getStats', startDate: today, endDate: today }),
		).toEqual([]);
		expect(
			await run({ resource: 'campaign', operation: 'cancel', mailName: rl('spring') }),
		).toEqual([expect.objectContaining({ cancelled: true, code: 200 })]);
		expect(
			await run({ resource: 'campaign', operation: 'delete', mailName: rl('spring') }),
		).toEqual([expect.objectContaining({ deleted: true })]);
		expect(env.view().state.tasks.length).toBe(0);
	});

	test('campaign stats after a completed send', async () => {
		await run({
			resource: 'campaign',
			operation: 'create',
			mailName: 'now',
			senderMail: rl('news@example.com'),
			sendLists: { list: [{ listName: rl('newsletter') }] },
			subject: 'S',
		});
		await env.control('POST', 'flush');
		const today = new Date().toISOString().slice(0, 10);
		expect(
			await run({ resource: 'campaign', operation: 'getStats', startDate: today, endDate: today }),
		).toEqual([expect.objectContaining({ mailName: 'now', sentCount: 2 })]);
	});

	test('template: create, get many, delete', async () => {
		await run({
			resource: 'template',
			operation: 'create',
			templateName: 'receipt',
			templateSubject: 'Your receipt',
			templateContent: '<p>{{total}}</p>',
			editorType: 'CLASSIC',
		});
		expect(
			await run({
				resource: 'template',
				operation: 'getMany',
				returnAll: true,
				filters: { templateName: 'rec' },
			}),
		).toEqual([
			expect.objectContaining({
				templateName: 'receipt',
				templateSubject: 'Your receipt',
				createDate: expect.any(String),
			}),
		]);
		await run({ resource: 'template', operation: 'delete', templateName: rl('receipt') });
		expect(env.view().state.templates.map((template) => template.templateName)).not.toContain(
			'receipt',
		);
	});

	test('contact: upsert, get, import, delete', async () => {
		await run({
			resource: 'contact',
			operation: 'upsert',
			email: 'new@example.org',
			additionalFields: { name: 'New', listName: rl('newsletter') },
		});
		expect(await run({ resource: 'contact', operation: 'get', email: 'new@example.org' })).toEqual([
			expect.objectContaining({ name: 'New', email: 'new@example.org' }),
		]);
		const imported = await run(
			{
				resource: 'contact',
				operation: 'import',
				updateMode: 1,
				mappingMode: 'defineBelow',
				contactDataMapping: {
					fields: [
						{ propertyName: 'email', value: '={{ $json.mail }}' },
						{ propertyName: 'name', value: '={{ $json.who }}' },
					],
				},
				additionalFields: { listName: rl('vip') },
			},
			[
				{ json: { mail: 'x@example.org', who: 'X' } },
				{ json: { mail: 'y@example.org', who: 'Y' } },
			],
		);
		expect(imported).toEqual([
			expect.objectContaining({
				success: true,
				email: 'x@example.org',
				name: 'X',
				request: 1,
				requestSize: 2,
			}),
			expect.objectContaining({ success: true, email: 'y@example.org', name: 'Y', request: 1 }),
		]);
		expect(env.view().state.lists.map((list) => list.listName)).toContain('vip');
		await run({ resource: 'contact', operation: 'delete', email: 'x@example.org' });
		expect(env.view().state.contacts.map((contact) => contact.email)).not.toContain(
			'x@example.org',
		);
	});

	test('contact list: create, get many, delete', async () => {
		await run({
			resource: 'contactList',
			operation: 'create',
			listName: 'fresh',
			listDescription: 'd',
		});
		// List records are spelt in camelCase, like every other record.
		const lists = await run({
			resource: 'contactList',
			operation: 'getMany',
			returnAll: true,
			filters: { search: 'fre' },
		});
		expect(lists.map((l) => l.listName)).toEqual(['fresh']);
		expect(lists[0]).toMatchObject({
			listName: 'fresh',
			id: expect.any(Number),
			listStatus: 1,
			listType: expect.any(Number),
		});
		expect(Object.keys(lists[0]).filter((key) => /^[A-Z]/.test(key))).toEqual([]);
		await run({ resource: 'contactList', operation: 'delete', listName: rl('fresh') });
		expect(env.view().state.lists.map((list) => list.listName)).not.toContain('fresh');
	});

	test('verified sender: add, get many, verify, delete', async () => {
		await run({
			resource: 'verifiedSender',
			operation: 'add',
			senderEmail: 'shop@shop.example',
			senderType: '2',
		});
		expect(
			(await run({ resource: 'verifiedSender', operation: 'getMany', returnAll: true })).map(
				(s) => s.fromDomain,
			),
		).toContain('shop@shop.example');
		expect(
			await run({ resource: 'verifiedSender', operation: 'getMany', returnAll: false, limit: 1 }),
		).toHaveLength(1);
		expect(
			await run({
				resource: 'verifiedSender',
				operation: 'verify',
				fromDomain: rl('sender@example.com'),
				selector: 'default',
			}),
		).toEqual([
			{
				fromDomain: 'sender@example.com',
				valid: true,
				goodMX: true,
				goodSPF: true,
				goodDKIM: true,
				goodDMARC: true,
			},
		]);
		await run({
			resource: 'verifiedSender',
			operation: 'delete',
			senderEmail: rl('shop@shop.example'),
		});
		expect(env.view().state.senders.map((sender) => sender.fromDomain)).not.toContain(
			'shop@shop.example',
		);
	});

	test('transactional mail: send and get stats', async () => {
		const sent = await run({
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: 'Ada <ada@example.org>',
			contentSource: 'template',
			templateName: rl('welcome'),
			tagValuesMode: 'json',
			params: '{"name":"Ada"}',
		});
		expect(sent).toEqual([
			expect.objectContaining({ success: true, recipients: ['ada@example.org'], request: 1 }),
		]);
		// The template's tags are read first (one look-up), then the mail is sent.
		expect(env.view().requests.map((request) => request.path)).toEqual([
			'/v5/campaign/mail/template/get',
			'/v5/transactional/mail/sends_customised',
		]);
		expect(env.view().requests[1].body).toEqual({
			senderMail: 'sender@example.com',
			templateName: 'welcome',
			uniqueMsgID: expect.any(String),
			messageVersions: [
				{
					to: [{ email: 'ada@example.org', name: 'Ada' }],
					cc: [],
					bcc: [],
					params: { name: 'Ada' },
				},
			],
		});
		const today = new Date().toISOString().slice(0, 10);
		expect(
			await run({
				resource: 'transactionalMail',
				operation: 'getStats',
				startDate: today,
				endDate: today,
			}),
		).toEqual([expect.objectContaining({ statsDate: today, sentCount: 1 })]);
	});

	test('reports cover the last 7 days by default', async () => {
		const result = await runWorkflow({
			...actionWorkflow({ resource: 'transactionalMail', operation: 'getStats' }),
			credentials: env.credentials(),
		});
		expect(result.error()).toBeUndefined();
		const day = (offset: number) =>
			new Date(Date.now() - offset * 86400_000).toISOString().slice(0, 10);
		expect(env.view().requests[0].body).toEqual({ startDate: day(6), endDate: day(0) });
	});

	test('webhook: save and get', async () => {
		await run({
			resource: 'webhook',
			operation: 'save',
			updateFields: {
				transCallbackUrl: 'https://hooks.example/mail',
				transEvent: ['Bounced', 'Opened'],
				transEnable: true,
				transCallbackUrlExtra: {
					entries: [{ sender: 'news@example.com', url: 'https://hooks.example/news' }],
				},
				transCallbackUrlExtraUpdateMode: 'save',
			},
		});
		expect(await run({ resource: 'webhook', operation: 'get' })).toEqual([
			{
				transCallbackUrl: 'https://hooks.example/mail',
				transEvent: {
					dropped: false,
					bounced: true,
					delivered: false,
					spamReport: false,
					opened: true,
					clicked: false,
					unsubscribed: false,
				},
				transCallbackUrlExtra: [{ sender: 'news@example.com', url: 'https://hooks.example/news' }],
				transEnable: true,
			},
		]);
	});
});

describe('sandbox toggles', () => {
	const snapshot = () => JSON.stringify({ ...env.view().state, now: undefined });
	const cases: Array<[string, IDataObject]> = [
		[
			'campaign create',
			{
				resource: 'campaign',
				operation: 'create',
				mailName: 'sb',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
			},
		],
		['campaign cancel', { resource: 'campaign', operation: 'cancel', mailName: rl('scheduled') }],
		['campaign delete', { resource: 'campaign', operation: 'delete', mailName: rl('scheduled') }],
		['contact upsert', { resource: 'contact', operation: 'upsert', email: 'sb@example.org' }],
		[
			'contact import',
			{
				resource: 'contact',
				operation: 'import',
				mappingMode: 'defineBelow',
				updateMode: 1,
				contactDataMapping: { fields: [{ propertyName: 'email', value: 'sb@example.org' }] },
			},
		],
		['contact delete', { resource: 'contact', operation: 'delete', email: 'ada@example.org' }],
		['contact list create', { resource: 'contactList', operation: 'create', listName: 'sb' }],
		[
			'contact list delete',
			{ resource: 'contactList', operation: 'delete', listName: rl('newsletter') },
		],
		[
			'verified sender add',
			{
				resource: 'verifiedSender',
				operation: 'add',
				senderEmail: 'sb@shop.example',
				senderType: '1',
			},
		],
		[
			'verified sender delete',
			{ resource: 'verifiedSender', operation: 'delete', senderEmail: rl('sender@example.com') },
		],
		[
			'transactional send',
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: 'a@example.org',
				contentSource: 'html',
				content: '<p/>',
				subject: 's',
			},
		],
		[
			'transactional send and wait',
			{
				resource: 'transactionalMail',
				operation: 'sendAndWait',
				senderMail: rl('sender@example.com'),
				sendTo: 'a@example.org',
				subject: 's',
				message: 'm',
			},
		],
	];

	test.each(cases)(
		'%s with Sandbox Mode sends sandboxMode and leaves the emulator unchanged',
		async (_name, parameters) => {
			await run({
				resource: 'campaign',
				operation: 'create',
				mailName: 'scheduled',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
				additionalFields: { sendDate: later() },
			});
			await env.control('POST', 'flush');
			const before = snapshot();
			const from = env.view().requests.length;
			const [output] = await run({ ...parameters, sandboxMode: true });
			expect(output).toMatchObject({ sandboxMode: true, code: 200 });
			expect((env.view().requests[from].body as IDataObject).sandboxMode).toBe(true);
			await env.control('POST', 'flush');
			expect(snapshot()).toBe(before);
		},
	);

	test('the toggle exists on exactly the operations whose request the API lists sandboxMode for', async () => {
		const { MailDelivery } = await import('../../nodes/MailDelivery/MailDelivery.node');
		const toggles = new MailDelivery().description.properties
			.filter((p) => p.name === 'sandboxMode')
			.flatMap((p) =>
				(p.displayOptions!.show!.resource as string[]).flatMap((r) =>
					(p.displayOptions!.show!.operation as string[]).map((o) => `${r}.${o}`),
				),
			);
		expect(toggles.sort()).toEqual(SANDBOX_OPERATIONS);
	});

	test('sandboxMode is sent by those operations only: every operation offered checked with a stale toggle left on', async () => {
		const today = new Date().toISOString().slice(0, 10);
		const all: IDataObject[] = [
			{
				resource: 'campaign',
				operation: 'create',
				mailName: 'sbx',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
			},
			{ resource: 'campaign', operation: 'cancel', mailName: rl('scheduled') },
			{ resource: 'campaign', operation: 'getMany', returnAll: true },
			{ resource: 'campaign', operation: 'delete', mailName: rl('scheduled') },
			{ resource: 'campaign', operation: 'getStats', startDate: today, endDate: today },
			{
				resource: 'template',
				operation: 'create',
				templateName: 'sbx',
				templateSubject: 'S',
				templateContent: '<p/>',
			},
			{ resource: 'template', operation: 'getMany', returnAll: true },
			{ resource: 'template', operation: 'delete', templateName: rl('welcome') },
			{ resource: 'contact', operation: 'upsert', email: 'sbx@example.org' },
			{
				resource: 'contact',
				operation: 'import',
				mappingMode: 'defineBelow',
				updateMode: 1,
				contactDataMapping: { fields: [{ propertyName: 'email', value: 'sbx@example.org' }] },
			},
			{ resource: 'contact', operation: 'get', email: 'ada@example.org' },
			{ resource: 'contact', operation: 'delete', email: 'ada@example.org' },
			{ resource: 'contactList', operation: 'create', listName: 'sbx' },
			{ resource: 'contactList', operation: 'getMany', returnAll: true },
			{ resource: 'contactList', operation: 'delete', listName: rl('newsletter') },
			{ resource: 'verifiedSender', operation: 'getMany', returnAll: true },
			{
				resource: 'verifiedSender',
				operation: 'add',
				senderEmail: 'sbx@shop.example',
				senderType: '1',
			},
			{
				resource: 'verifiedSender',
				operation: 'verify',
				fromDomain: rl('sender@example.com'),
				selector: 'default',
			},
			{ resource: 'verifiedSender', operation: 'delete', senderEmail: rl('sender@example.com') },
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: 'a@example.org',
				contentSource: 'html',
				content: '<p/>',
				subject: 's',
			},
			{
				resource: 'transactionalMail',
				operation: 'sendAndWait',
				senderMail: rl('sender@example.com'),
				sendTo: 'a@example.org',
				subject: 's',
				message: 'm',
			},
			{ resource: 'transactionalMail', operation: 'getStats', startDate: today, endDate: today },
			{ resource: 'webhook', operation: 'get' },
			{ resource: 'webhook', operation: 'save', updateFields: { transEnable: false } },
		];
		expect(all.map(({ resource, operation }) => `${resource}.${operation}`).sort()).toEqual(
			await everyOperation(),
		);
		for (const parameters of all) {
			await run({
				resource: 'campaign',
				operation: 'create',
				mailName: 'scheduled',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
				additionalFields: { sendDate: later() },
			});
			const from = env.view().requests.length;
			await run({ ...parameters, sandboxMode: true });
			const name = `${parameters.resource}.${parameters.operation}`;
			const sent = env
				.view()
				.requests.slice(from)
				.map((r) => (r.body as IDataObject).sandboxMode);
			expect([
				name,
				sent.length > 0,
				sent.every((value) => value === (SANDBOX_OPERATIONS.includes(name) ? true : undefined)),
			]).toEqual([name, true, true]);
			env.emulator.reset();
		}
	});
});

test('Only Save keeps the chosen lists (4.1: optional then, not forbidden)', async () => {
	await run({
		resource: 'campaign',
		operation: 'create',
		mailName: 'draft',
		senderMail: rl('news@example.com'),
		onlySave: true,
		sendLists: { list: [{ listName: rl('newsletter') }] },
	});
	expect(env.view().requests[0].body).toMatchObject({
		onlySave: true,
		sendListNames: ['newsletter'],
	});
	expect(env.view().state.tasks[0]).toMatchObject({
		mailName: 'draft',
		mailStatus: -1,
		rcptListNames: ['newsletter'],
	});
	await run({
		resource: 'campaign',
		operation: 'create',
		mailName: 'draft2',
		senderMail: rl('news@example.com'),
		onlySave: true,
	});
	expect(env.view().requests[1].body).not.toHaveProperty('sendListNames');
});

test('credentials have no Base URL default: a published credential never points at this machine', async () => {
	const types = await Promise.all(
		[
			'MailDeliverySignatureApi',
			'MailDeliveryClientCredentialsOAuth2Api',
			'MailDeliveryAuthCodeOAuth2Api',
		].map(async (name) => {
			const module = (await import(`../../credentials/${name}.credentials`)) as Record<
				string,
				new () => { properties: IDataObject[] }
			>;
			return new module[name]().properties.find((property) => property.name === 'baseUrl');
		}),
	);
	for (const baseUrl of types)
		expect(baseUrl).toMatchObject({
			default: '',
			required: true,
			placeholder: expect.stringMatching(/^https:\/\//),
		});
});

describe('section 8 limits fail before any request', () => {
	const failing: Array<[string, IDataObject, string]> = [
		[
			'campaign mailName',
			{
				resource: 'campaign',
				operation: 'create',
				mailName: 'm'.repeat(201),
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
			},
			'Field "Campaign Name" is 201 characters long; the limit is 200 characters, in item 0 (the 1st input item)',
		],
		[
			'campaign subject',
			{
				resource: 'campaign',
				operation: 'create',
				mailName: 'm',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
				subject: 's'.repeat(401),
			},
			'Field "Subject" is 401 characters long; the limit is 400 characters, in item 0 (the 1st input item)',
		],
		[
			'template name',
			{
				resource: 'template',
				operation: 'create',
				templateName: 't'.repeat(251),
				templateSubject: 's',
				templateContent: 'c',
			},
			'Field "Template Name" is 251 characters long; the limit is 250 characters, in item 0 (the 1st input item)',
		],
		[
			'sender name',
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: 'a@example.org',
				contentSource: 'html',
				content: 'c',
				additionalFields: { senderName: 'n'.repeat(201) },
			},
			'Field "Sender Name" is 201 characters long; the limit is 200 characters, in item 0 (the 1st input item)',
		],
		[
			'recipient name',
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: `${'n'.repeat(101)} <a@example.org>`,
				contentSource: 'html',
				content: 'c',
			},
			'Field "To (a recipient\'s name)" is 101 characters long; the limit is 100 characters, in item 0 (the 1st input item)',
		],
		[
			'21 recipients',
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: Array.from({ length: 21 }, (_, i) => `r${i}@example.org`).join(','),
				contentSource: 'html',
				content: 'c',
			},
			'Field "To" has 21 entries; the limit is 20, in item 0 (the 1st input item)',
		],
		[
			'category bytes',
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: 'a@example.org',
				contentSource: 'html',
				content: 'c',
				additionalFields: { category: 'c'.repeat(101) },
			},
			'Field "Category" is 101 bytes long (UTF-8); the limit is 100 bytes, in item 0 (the 1st input item)',
		],
		[
			'campaign label characters',
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: 'a@example.org',
				contentSource: 'html',
				content: 'c',
				additionalFields: { campaign: 'spring-sale' },
			},
			'Field "Campaign Label" may contain only letters and digits (A-Z, a-z, 0-9), in item 0 (the 1st input item)',
		],
		[
			'uniqueMsgID bytes',
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: 'a@example.org',
				contentSource: 'html',
				content: 'c',
				additionalFields: { uniqueMsgID: 'é'.repeat(26) },
			},
			'Field "Unique Message ID" is 52 bytes long (UTF-8); the limit is 50 bytes, in item 0 (the 1st input item)',
		],
		[
			'no recipient',
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: ' ',
				contentSource: 'html',
				content: 'c',
			},
			'Field "To" needs at least one entry, in item 0 (the 1st input item)',
		],
		[
			'bad date',
			{
				resource: 'transactionalMail',
				operation: 'getStats',
				startDate: 'someday',
				endDate: '2026-01-01',
			},
			'Field "Start Day" is not a day that can be read: "someday", in item 0 (the 1st input item)',
		],
		[
			'webhook url',
			{
				resource: 'webhook',
				operation: 'save',
				updateFields: { transCallbackUrl: 'hooks.example' },
			},
			'Field "transCallbackUrl" "hooks.example" must start with http:// or https://, in item 0 (the 1st input item)',
		],
		[
			'contact without email or phone',
			{ resource: 'contact', operation: 'upsert', email: '' },
			'Field "Email" or "Phone Number" is required: the contact needs one of them, in item 0 (the 1st input item)',
		],
	];

	test.each(failing)('%s', async (_name, parameters, message) => {
		const result = await runWorkflow({
			...actionWorkflow(parameters),
			credentials: env.credentials(),
		});
		expect(result.error()?.message).toBe(message);
		expect(env.view().requests).toHaveLength(0);
	});

	// The other side of each limit: a value exactly at it is sent as given, and the platform accepts it.
	const txAt = (extra: IDataObject) => ({
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: rl('sender@example.com'),
		to: 'a@example.org',
		contentSource: 'html',
		content: 'c',
		subject: 's',
		...extra,
	});
	const atLimit: Array<[string, IDataObject, (body: IDataObject) => unknown, unknown]> = [
		[
			'campaign mailName, 200 characters',
			{
				resource: 'campaign',
				operation: 'create',
				mailName: 'm'.repeat(200),
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
			},
			(b) => b.mailName,
			'm'.repeat(200),
		],
		[
			'campaign subject, 400 characters',
			{
				resource: 'campaign',
				operation: 'create',
				mailName: 'm',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
				subject: 's'.repeat(400),
			},
			(b) => b.subject,
			's'.repeat(400),
		],
		[
			'template name, 250 characters',
			{
				resource: 'template',
				operation: 'create',
				templateName: 't'.repeat(250),
				templateSubject: 's',
				templateContent: 'c',
			},
			(b) => b.templateName,
			't'.repeat(250),
		],
		[
			'sender name, 200 characters',
			txAt({ additionalFields: { senderName: 'n'.repeat(200) } }),
			(b) => b.senderName,
			'n'.repeat(200),
		],
		[
			'recipient name, 100 characters',
			txAt({ to: `${'n'.repeat(100)} <a@example.org>` }),
			(b) => (b.messageVersions as Array<{ to: IDataObject[] }>)[0].to[0].name,
			'n'.repeat(100),
		],
		[
			'20 recipients',
			txAt({ to: Array.from({ length: 20 }, (_, i) => `r${i}@example.org`).join(',') }),
			(b) => (b.messageVersions as Array<{ to: IDataObject[] }>)[0].to.length,
			20,
		],
		[
			'category, 100 bytes',
			txAt({ additionalFields: { category: 'c'.repeat(100) } }),
			(b) => b.category,
			'c'.repeat(100),
		],
		[
			'campaign label, 100 bytes',
			txAt({ additionalFields: { campaign: 'c'.repeat(100) } }),
			(b) => b.campaign,
			'c'.repeat(100),
		],
		[
			'uniqueMsgID, 50 bytes',
			txAt({ additionalFields: { uniqueMsgID: 'é'.repeat(25) } }),
			(b) => b.uniqueMsgID,
			'é'.repeat(25),
		],
	];

	test.each(atLimit)('%s: sent as given and accepted', async (_name, parameters, field, value) => {
		const [output] = await run(parameters);
		expect(output).toMatchObject({ success: true });
		const requests = env.view().requests;
		expect(requests.map((request) => request.code)).toEqual([200]);
		expect(field(requests[0].body as IDataObject)).toEqual(value);
	});

	test('campaign label, 101 bytes of letters: refused before any request', async () => {
		const result = await runWorkflow({
			...actionWorkflow(txAt({ additionalFields: { campaign: 'c'.repeat(101) } })),
			credentials: env.credentials(),
		});
		expect(result.error()?.message).toBe(
			'Field "Campaign Label" is 101 bytes long (UTF-8); the limit is 100 bytes, in item 0 (the 1st input item)',
		);
		expect(env.view().requests).toHaveLength(0);
	});

	test('continue-on-fail: the bad item gets its error, the others their results', async () => {
		const result = await runWorkflow({
			...actionWorkflow(
				{
					resource: 'template',
					operation: 'create',
					templateName: '={{ $json.name }}',
					templateSubject: 's',
					templateContent: 'c',
				},
				{ continueOnFail: true },
			),
			credentials: env.credentials(),
			items: [
				{ json: { name: 'ok-1' } },
				{ json: { name: 'x'.repeat(300) } },
				{ json: { name: 'ok-2' } },
				{ json: { name: 'ok-1' } },
			],
		});
		const out = result.output('Mail Delivery');
		expect(out.map((item) => [item.pairedItem, item.json.success ?? item.json.error])).toEqual([
			[{ item: 0 }, true],
			[
				{ item: 1 },
				'Field "Template Name" is 300 characters long; the limit is 250 characters, in item 1 (the 2nd input item)',
			],
			[{ item: 2 }, true],
			[
				{ item: 3 },
				'The platform refused the request as invalid (code 400): a template named "ok-1" already exists',
			],
		]);
		expect(paths().filter((path) => path === '/v5/campaign/mail/template/add')).toHaveLength(3);
	});
});

test("Resource → Custom API Call (n8n's entry, since the credentials can sign any request) says to use the HTTP Request node", async () => {
	const result = await runWorkflow({
		...actionWorkflow({ resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' }),
		credentials: env.credentials(),
	});
	const error = result.error() as Error & { description?: string };
	expect(error.message).toBe('Custom API Call runs in an HTTP Request node');
	expect(error.description).toContain('Predefined Credential Type');
	expect(env.view().requests).toHaveLength(0);
});
