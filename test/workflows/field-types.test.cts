/**
 * Text fields given a number, an object or a list, and header fields given a line break, are refused
 * before any request, naming the field and the item. A refusal by the platform of a field all items of
 * a request share fails those items with that cause, without splitting the request down to each item.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { people, rl, sendToEachItem, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const send = sendToEachItem;
const txRequests = () => env.view().requests.filter((r) => r.path === TX);
/**
 * The requests made, but the template's look-up: a send starts it with the node, before its items are read
 * (issue 61), and it only reads.
 */
const requestsButLookUp = () =>
	env.view().requests.filter((r) => r.path !== '/v5/campaign/mail/template/get');
const details = (item: INodeExecutionData) => item.json.details as IDataObject;

describe('wrong types in text fields', () => {
	test('100 items with Category {{ 12.5 }}: refused before any request, each naming the field and its item', async () => {
		const result = await runWorkflow({
			...actionWorkflow(send({ additionalFields: { category: '={{ 12.5 }}' } }), {
				continueOnFail: true,
			}),
			credentials: env.credentials(),
			items: people(100),
		});
		expect(txRequests()).toHaveLength(0);
		const out = result.output('Mail Delivery');
		expect(out).toHaveLength(100);
		expect(out[42].json.error).toBe(
			'Field "Category" is 12.5, a fraction: only a whole number is taken as its digits, in item 42 (the 43rd input item)',
		);
		expect(out.every((item) => item.json.error)).toBe(true);
	});

	test.each([
		[{ subject: '={{ 42 }}' }, 'Field "Subject" must be text (it is 42)'],
		[
			{ contentSource: 'html', content: '={{ { body: "<p>x</p>" } }}', subject: 'Hi' },
			'Field "HTML Content" must be text (it is an object)',
		],
		[
			{ additionalFields: { senderName: '={{ ["Shop"] }}' } },
			'Field "Sender Name" must be text or a whole number (it is a list)',
		],
		[{ additionalFields: { replyTo: '={{ 5 }}' } }, 'Field "Reply To" must be text (it is 5)'],
		[
			{ additionalFields: { uniqueMsgID: '={{ 2 ** 60 }}' } },
			'Field "Unique Message ID" is 1152921504606847000, a number too large for JavaScript to hold every digit of (above 2^53): give it as text',
		],
		[
			{ additionalFields: { campaign: '={{ true }}' } },
			'Field "Campaign Label" must be text or a whole number (it is true)',
		],
		[
			{ to: '={{ [{ email: "ada@example.org", name: { first: "Ada" } }] }}' },
			'Field "To" entry 1 has a name that must be text or a whole number (it is an object)',
		],
		[
			{ additionalFields: { cc: '={{ { email: "cc@example.org", name: ["C"] } }}' } },
			'Field "Cc" entry 1 has a name that must be text or a whole number (it is a list)',
		],
	])('%j is refused before any request', async (extra, message) => {
		const result = await runWorkflow({
			...actionWorkflow(send(extra as IDataObject)),
			credentials: env.credentials(),
			items: people(2),
		});
		expect(result.error()?.message).toBe(`${message}, in item 0 (the 1st input item)`);
		expect(requestsButLookUp()).toHaveLength(0);
	});

	test('versions given as JSON: a name that is an object, or a subject that is a number, is refused', async () => {
		const run = async (versions: unknown[]) =>
			await runWorkflow({
				...actionWorkflow(
					send({
						messageSource: 'definedHere',
						versionsMode: 'json',
						messageVersionsJson: JSON.stringify(versions),
					}),
				),
				credentials: env.credentials(),
			});
		expect(
			(await run([{ to: [{ email: 'a@example.org', name: { x: 1 } }] }])).error()?.message,
		).toBe(
			'Field "Message Versions (JSON): to" entry 1 has a name that must be text or a whole number (it is an object), in item 0 (the 1st input item)',
		);
		expect((await run([{ to: [{ email: 'a@example.org' }], subject: 7 }])).error()?.message).toBe(
			'Field "Message Versions (JSON): subject" must be text (it is 7), in item 0 (the 1st input item)',
		);
		expect(requestsButLookUp()).toHaveLength(0);
	});

	test('campaign and template fields are refused the same way', async () => {
		const campaign = await runWorkflow({
			...actionWorkflow({
				resource: 'campaign',
				operation: 'create',
				mailName: '={{ 20.26 }}',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
			}),
			credentials: env.credentials(),
		});
		expect(campaign.error()?.message).toBe(
			'Field "Campaign Name" is 20.26, a fraction: only a whole number is taken as its digits, in item 0 (the 1st input item)',
		);
		const template = await runWorkflow({
			...actionWorkflow({
				resource: 'template',
				operation: 'create',
				templateName: 'promo',
				templateSubject: 'Hi',
				templateContent: '={{ { html: "<p>x</p>" } }}',
			}),
			credentials: env.credentials(),
		});
		expect(template.error()?.message).toBe(
			'Field "HTML Content" must be text (it is an object), in item 0 (the 1st input item)',
		);
		expect(requestsButLookUp()).toHaveLength(0);
	});
});

describe('wrong types in the text fields of operations run item by item (as in the send)', () => {
	test.each([
		[
			{
				resource: 'contact',
				operation: 'upsert',
				email: 'ada@example.org',
				additionalFields: { name: '={{ 0.5 }}' },
			},
			'Field "Name" is 0.5, a fraction: only a whole number is taken as its digits',
		],
		[
			{
				resource: 'contact',
				operation: 'upsert',
				email: 'ada@example.org',
				additionalFields: { name: '={{ { deep: "x" } }}' },
			},
			'Field "Name" must be text or a whole number (it is an object)',
		],
		[
			{
				resource: 'contact',
				operation: 'upsert',
				email: 'ada@example.org',
				additionalFields: { phoneNumber: '={{ ["1"] }}' },
			},
			'Field "Phone Number" must be text or a whole number (it is a list)',
		],
		[
			{ resource: 'contact', operation: 'upsert', email: '={{ { at: "x" } }}' },
			'Field "Email" must be text (it is an object)',
		],
		[
			{ resource: 'contact', operation: 'get', email: '={{ 42 }}' },
			'Field "Email" must be text (it is 42)',
		],
		[
			{ resource: 'contact', operation: 'delete', email: '={{ 42 }}' },
			'Field "Email" must be text (it is 42)',
		],
		[
			{ resource: 'contactList', operation: 'create', listName: '={{ { name: "vip" } }}' },
			'Field "List Name" must be text or a whole number (it is an object)',
		],
		[
			{
				resource: 'contactList',
				operation: 'create',
				listName: 'vip',
				listDescription: '={{ ["a"] }}',
			},
			'Field "Description" must be text (it is a list)',
		],
		[
			{
				resource: 'template',
				operation: 'create',
				templateName: '={{ 1.5 }}',
				templateSubject: 'Hi',
				templateContent: '<p>x</p>',
			},
			'Field "Template Name" is 1.5, a fraction: only a whole number is taken as its digits',
		],
		[
			{
				resource: 'verifiedSender',
				operation: 'add',
				senderEmail: '={{ 3 }}',
				senderType: '2',
			},
			'Field "Sender Email" must be text (it is 3)',
		],
		[
			{ resource: 'webhook', operation: 'save', updateFields: { transCallbackUrl: '={{ 8080 }}' } },
			'Field "transCallbackUrl" must be text (it is 8080)',
		],
	])('%j is refused before any request', async (parameters, message) => {
		const result = await runWorkflow({
			...actionWorkflow(parameters as IDataObject),
			credentials: env.credentials(),
			items: people(2),
		});
		expect(result.error()?.message).toBe(`${message}, in item 0 (the 1st input item)`);
		expect(requestsButLookUp()).toHaveLength(0);
	});
});

describe('line breaks in fields that become mail headers', () => {
	test.each([
		[{ subject: 'Hello\r\nBcc: victim@example.org' }, 'Subject'],
		[{ additionalFields: { senderName: 'Shop\nBcc: victim@example.org' } }, 'Sender Name'],
		[{ to: '"Ada\rBcc: victim@example.org" <ada@example.org>' }, "To (a recipient's name)"],
		[
			{ to: '={{ [{ email: "ada@example.org", name: "Ada\\nBcc: victim@example.org" }] }}' },
			"To (a recipient's name)",
		],
		[{ additionalFields: { uniqueMsgID: 'id\r\nX-Evil: 1' } }, 'Unique Message ID'],
	])('%j is refused before any request', async (extra, label) => {
		const result = await runWorkflow({
			...actionWorkflow(send(extra as IDataObject)),
			credentials: env.credentials(),
			items: people(1),
		});
		expect(result.error()?.message).toBe(
			`Field "${label}" must be on one line (a line break in it could add mail headers), in item 0 (the 1st input item)`,
		);
		expect(requestsButLookUp()).toHaveLength(0);
	});

	test('campaign subject and sender name, and a template subject, are refused the same way', async () => {
		const campaign = await runWorkflow({
			...actionWorkflow({
				resource: 'campaign',
				operation: 'create',
				mailName: 'spring',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
				subject: 'Spring\nBcc: victim@example.org',
			}),
			credentials: env.credentials(),
		});
		expect(campaign.error()?.message).toBe(
			'Field "Subject" must be on one line (a line break in it could add mail headers), in item 0 (the 1st input item)',
		);
		const sender = await runWorkflow({
			...actionWorkflow({
				resource: 'campaign',
				operation: 'create',
				mailName: 'spring',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
				additionalFields: { senderName: 'News\r\n' },
			}),
			credentials: env.credentials(),
		});
		expect(sender.error()?.message).toMatch(/^Field "Sender Name" must be on one line/);
		const template = await runWorkflow({
			...actionWorkflow({
				resource: 'template',
				operation: 'create',
				templateName: 'promo',
				templateSubject: 'Promo\r\nBcc: victim@example.org',
				templateContent: '<p>x</p>',
			}),
			credentials: env.credentials(),
		});
		expect(template.error()?.message).toMatch(/^Field "Subject" must be on one line/);
		expect(requestsButLookUp()).toHaveLength(0);
	});
});

describe('a refusal of a field all items of a request share', () => {
	test('the platform refuses a Category the node finds valid: 100 items fail with that cause after 3 requests, not 199', async () => {
		await env.control('POST', 'settings', { refusedValues: { category: ['promo'] } });
		const result = await runWorkflow({
			...actionWorkflow(send({ additionalFields: { category: 'promo' } }), {
				continueOnFail: true,
			}),
			credentials: env.credentials(),
			items: people(100),
		});
		expect(txRequests()).toHaveLength(3);
		const out = result.output('Mail Delivery');
		expect(out.every((item) => details(item)?.code === 400)).toBe(true);
		expect(out[0].json.error).toBe(
			'The platform refused the request as invalid (code 400): a field that all 100 messages of the request share was refused (Sender Email, Sender Name, Reply To, Category, Campaign Label, Unique Message ID, Send Date, Shared Tag Values, Subject, HTML Content or the attachment)',
		);
		expect(details(out[99]).description).toContain(
			'Both halves of the request were refused like the whole',
		);
		expect(env.view().mails).toHaveLength(0);
	});

	test('under Stop Workflow the node stops with that cause, after the same 3 requests', async () => {
		await env.control('POST', 'settings', { refusedValues: { category: ['promo'] } });
		const result = await runWorkflow({
			...actionWorkflow(send({ additionalFields: { category: 'promo' } })),
			credentials: env.credentials(),
			items: people(100),
		});
		expect(txRequests()).toHaveLength(3);
		expect(result.error()?.message).toMatch(
			/^100 of 100 items not sent: the platform refused the request as invalid \(code 400\): a field that all 100 messages/,
		);
	});

	test('two items naming a missing template, one in each half: the others are still sent, once', async () => {
		const items = people(100);
		items[10].json.template = 'missing';
		items[90].json.template = 'missing';
		const result = await runWorkflow({
			...actionWorkflow(
				send({
					templateName: { __rl: true, mode: 'name', value: '={{ $json.template ?? "welcome" }}' },
				}),
				{ continueOnFail: true },
			),
			credentials: env.credentials(),
			items,
		});
		const out = result.output('Mail Delivery');
		expect(
			out
				.filter((item) => item.json.error)
				.map((item) => (item.pairedItem as { item: number }).item),
		).toEqual([10, 90]);
		expect(env.view().mails).toHaveLength(98);
	});
});

describe('Send Date', () => {
	const inSeconds = (ms: number) => Math.floor(ms / 1000);
	const iso = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;

	test('a number is epoch seconds (below 10^11) or milliseconds, for the send and for a campaign', async () => {
		const tomorrow = inSeconds(Date.now()) + 86_400;
		await runWorkflow({
			...actionWorkflow(send({ additionalFields: { sendDate: `={{ ${tomorrow} }}` } })),
			credentials: env.credentials(),
			items: people(1),
		});
		await runWorkflow({
			...actionWorkflow(send({ additionalFields: { sendDate: `={{ ${tomorrow * 1000} }}` } })),
			credentials: env.credentials(),
			items: people(1),
		});
		expect(txRequests().map((r) => (r.body as IDataObject).sendDate)).toEqual([
			iso(tomorrow),
			iso(tomorrow),
		]);
		await runWorkflow({
			...actionWorkflow({
				resource: 'campaign',
				operation: 'create',
				mailName: 'later',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
				additionalFields: { sendDate: `={{ ${tomorrow} }}` },
			}),
			credentials: env.credentials(),
		});
		const campaign = env.view().requests.find((r) => r.path === '/v5/campaign/mail/sends');
		expect((campaign?.body as IDataObject).sendDate).toBe(iso(tomorrow));
	});

	test('in the past: refused before any request, naming the field, the date and the item', async () => {
		const result = await runWorkflow({
			...actionWorkflow(send({ additionalFields: { sendDate: '={{ 1767261600 }}' } })),
			credentials: env.credentials(),
			items: people(1),
		});
		expect(result.error()?.message).toBe(
			'Field "Send Date" (2026-01-01T10:00:00Z) is in the past; leave it empty to send at once, in item 0 (the 1st input item)',
		);
		expect(requestsButLookUp()).toHaveLength(0);
	});

	test('a few minutes past (a date computed as "now" a moment ago): sent at once, without a send date', async () => {
		const result = await runWorkflow({
			...actionWorkflow(
				send({ additionalFields: { sendDate: '={{ $now.minus({ minutes: 2 }).toISO() }}' } }),
			),
			credentials: env.credentials(),
			items: people(1),
		});
		expect(result.error()).toBeUndefined();
		expect((txRequests()[0].body as IDataObject).sendDate).toBeUndefined();
		expect(env.view().mails).toHaveLength(1);
	});
});
