/**
 * A bad item never fails its good neighbours: combined requests that the platform refuses whole are
 * split until the fault is isolated, and every good message is sent exactly once.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { expectCode } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const TX = '/v5/transactional/mail/sends_customised';
const rl = (value: string) => ({ __rl: true, mode: 'name', value });
const send = (extra: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: { __rl: true, mode: 'name', value: '={{ $json.template ?? "welcome" }}' },
	tagValuesMode: 'json',
	params: '={{ JSON.stringify({ name: $json.name }) }}',
	...extra,
	// Items without a name are sent with {{name}} empty: these tests are not about tags (missing-tags.test.cts is).
	options: { missingTagValues: 'send', ...((extra.options as IDataObject | undefined) ?? {}) },
});
const people = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({
		json: { email: `p${i}@example.org`, name: `P${i}` },
	}));
/** What a failed item's output says beside its error. */
const details = (item: INodeExecutionData) => item.json.details as IDataObject;
const txRequests = () => env.view().requests.filter((r) => r.path === TX);
/** How often each address was accepted by the platform. */
const acceptedCounts = () => {
	const counts = new Map<string, number>();
	for (const mail of env.view().mails) counts.set(mail.email, (counts.get(mail.email) ?? 0) + 1);
	return counts;
};

test("250 items with item 137's template missing: 249 sent once each, item 137 fails alone with code 400, at most 3 + 2·⌈log2 100⌉ requests", async () => {
	const items = people(250);
	items[137].json.template = 'missing';
	const result = await runWorkflow({
		...actionWorkflow(send(), { continueOnFail: true }),
		credentials: env.credentials(),
		items,
	});
	const out = result.output('Mail Delivery');
	expect(out).toHaveLength(250);
	const failed = out
		.filter((item) => item.json.error)
		.map((item) => (item.pairedItem as { item: number }).item);
	expect(failed).toEqual([137]);
	// The look-up of each template (for its tags, before sending) also says, after the refusal, which
	// documented condition applies: one look-up per template for the whole run.
	expect(out[137].json).toMatchObject({
		error:
			'The platform refused the request as invalid (code 400): the template "missing" this item names is not in the account\'s template list',
		details: { code: 400 },
	});
	expect(details(out[137]).description).toContain("a version's templateName matches no template");
	expect(details(out[137]).description).toContain('Nothing of that request was sent');
	const counts = acceptedCounts();
	expect(counts.size).toBe(249);
	expect([...counts.values()].every((count) => count === 1)).toBe(true);
	expect(counts.has('p137@example.org')).toBe(false);
	expect(txRequests().length).toBeLessThanOrEqual(3 + 2 * Math.ceil(Math.log2(100)));
	expect(
		env
			.view()
			.requests.filter((r) => r.path === '/v5/campaign/mail/template/get')
			.map((r) => (r.body as IDataObject).templateName),
	).toEqual(['welcome', 'missing']);
	// Each output names the request that carried it.
	expect(out[0].json).toMatchObject({ success: true, request: 1, requestSize: 100 });
	expect(out[249].json).toMatchObject({ success: true, request: 3, requestSize: 50 });
	expect(typeof out[138].json.request).toBe('number');
});

test('without continue-on-fail the node stops with an error naming item 137 and saying which items were sent', async () => {
	const items = people(250);
	items[137].json.template = 'missing';
	const result = await runWorkflow({
		...actionWorkflow(send({ options: { parallelRequests: 1 } })),
		credentials: env.credentials(),
		items,
	});
	const error = result.error() as Error & { description?: string };
	expect(error.message).toBe(
		'51 of 250 items not sent: the platform refused the request as invalid (code 400): the template "missing" this item names is not in the account\'s template list',
	);
	expect(error.description).toContain(
		'Items 0–136 and 138–199 were sent; items 137 and 200–249 were not sent.',
	);
	expect(error.description).toContain("a version's templateName matches no template");
	// The good neighbours of item 137 went out once; nothing after the failing request was started.
	expect(acceptedCounts().size).toBe(199);
});

test('a sender that is not a verified sender of the account: the refusal (403) says so', async () => {
	const result = await runWorkflow({
		...actionWorkflow(send({ senderMail: rl('nobody@example.com') }), { continueOnFail: true }),
		credentials: env.credentials(),
		items: people(3),
	});
	expect(result.output('Mail Delivery').map((item) => item.json.error)).toEqual(
		Array(3).fill(
			'The platform refused the request (code 403): nobody@example.com is not a verified sender of the account',
		),
	);
});

test('a refusal that concerns the whole account (403: too few credits) is never split or resent', async () => {
	const items = people(150);
	await env.control('POST', 'settings', { credits: 120 });
	const result = await runWorkflow({
		...actionWorkflow(send({ options: { parallelRequests: 1 } }), { continueOnFail: true }),
		credentials: env.credentials(),
		items,
	});
	const out = result.output('Mail Delivery');
	expect(out.slice(0, 100).every((item) => item.json.success === true)).toBe(true);
	expect(out.slice(100).every((item) => details(item).code === 403)).toBe(true);
	expect(details(out[120]).description).toContain('Nothing of that request was sent');
	expect(txRequests()).toHaveLength(2);
});

test('an internal error answered after the mail went out is neither split nor resent, and says mail may have gone out', async () => {
	await env.control('POST', 'fault', { path: TX, fault: 'internalError' });
	const items = people(120);
	const result = await runWorkflow({
		...actionWorkflow(send({ options: { parallelRequests: 1 } }), { continueOnFail: true }),
		credentials: env.credentials(),
		items,
	});
	const out = result.output('Mail Delivery');
	// The first request (100 items) was processed and then answered 500: its mail is out, reported as failed, never resent.
	expect(out.slice(0, 100).every((item) => details(item).code === 500)).toBe(true);
	expect(details(out[0]).description).toContain('may still have processed that request');
	expect(out.slice(100).every((item) => item.json.success === true)).toBe(true);
	expect(txRequests()).toHaveLength(2);
	expect([...acceptedCounts().values()]).toEqual(Array(120).fill(1));
});

test('a network failure after sending is not retried and says mail may have gone out', async () => {
	await env.control('POST', 'fault', { path: TX, fault: 'network' });
	const result = await runWorkflow({
		...actionWorkflow(send(), { continueOnFail: true }),
		credentials: env.credentials(),
		items: people(3),
	});
	const out = result.output('Mail Delivery');
	expect(out.map((item) => item.json.success ?? 'failed')).toEqual(['failed', 'failed', 'failed']);
	expect(details(out[0]).description).toContain('may still have processed that request');
	expect(txRequests()).toHaveLength(0);
});

test('an item whose versions span requests reports exactly which recipients were sent and which failed, and a later error never overwrites an earlier success', async () => {
	const versions = Array.from({ length: 150 }, (_, i) => ({
		to: [{ email: `v${i}@example.org` }],
		...(i === 120 ? { templateName: 'missing' } : {}),
	}));
	const result = await runWorkflow({
		...actionWorkflow(
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				messageSource: 'definedHere',
				contentSource: 'template',
				templateName: rl('welcome'),
				versionsMode: 'json',
				messageVersionsJson: JSON.stringify(versions),
				options: { missingTagValues: 'send' },
			},
			{ continueOnFail: true },
		),
		credentials: env.credentials(),
		items: [{ json: {} }],
	});
	const [item] = result.output('Mail Delivery');
	expect(details(item).code).toBe(400);
	expect((details(item).sent as IDataObject).recipients).toEqual(
		versions.filter((_, i) => i !== 120).map((v) => v.to[0].email),
	);
	expect((details(item).notSent as IDataObject).recipients).toEqual(['v120@example.org']);
	expect(acceptedCounts().size).toBe(149);
	expect((details(item).requests as number[]).length).toBeGreaterThan(1);
});

test('template-based and HTML versions never share a request; each message gets the content it asked for', async () => {
	const items = [
		{ json: { email: 'a@example.org', source: 'template' } },
		{ json: { email: 'b@example.org', source: 'html' } },
		{ json: { email: 'c@example.org', source: 'template' } },
	];
	const result = await runWorkflow({
		...actionWorkflow({
			...send(),
			contentSource: '={{ $json.source }}',
			templateName: rl('welcome'),
			content: '<p>own html</p>',
			subject: '={{ $json.source === "html" ? "Hello" : "" }}',
			params: '{}',
		}),
		credentials: env.credentials(),
		items,
	});
	expect(result.error()).toBeUndefined();
	expect(txRequests()).toHaveLength(2);
	const mails = Object.fromEntries(env.view().mails.map((mail) => [mail.email, mail]));
	expect(mails['a@example.org']).toMatchObject({ templateName: 'welcome' });
	expect(mails['b@example.org']).toMatchObject({ content: '<p>own html</p>', subject: 'Hello' });
	expect(mails['b@example.org'].templateName).toBeUndefined();
	expect(mails['c@example.org']).toMatchObject({ templateName: 'welcome' });
});

test('versions with different templates share a request: the most used one goes to the request level', async () => {
	const items = people(5);
	items[1].json.template = 'other';
	await env.control('POST', 'reset');
	await expectCode(
		env.emulator,
		'/v5/campaign/mail/template/add',
		{ templateName: 'other', templateContent: '<p>o</p>', templateSubject: 'Other' },
		200,
	);
	await runWorkflow({ ...actionWorkflow(send()), credentials: env.credentials(), items });
	const [request] = txRequests();
	expect((request.body as IDataObject).templateName).toBe('welcome');
	expect(((request.body as IDataObject).messageVersions as IDataObject[])[1].templateName).toBe(
		'other',
	);
	expect(env.view().mails.map((mail) => mail.templateName)).toEqual([
		'welcome',
		'other',
		'welcome',
		'welcome',
		'welcome',
	]);
});

test('HTML content with no subject anywhere is refused before any request, naming the item', async () => {
	const result = await runWorkflow({
		...actionWorkflow(
			{ ...send(), contentSource: 'html', content: '<p>x</p>', subject: '' },
			{ continueOnFail: true },
		),
		credentials: env.credentials(),
		items: people(2),
	});
	expect(result.output('Mail Delivery')[1].json.error).toBe(
		'Field "Subject" is required when the content is HTML rather than a template (message version 1), in item 1 (the 2nd input item)',
	);
	expect(txRequests()).toHaveLength(0);
});

test.each([
	[
		'"Müller, Jürgen" <juergen@example.org>, ada@example.org',
		[{ email: 'juergen@example.org', name: 'Müller, Jürgen' }, { email: 'ada@example.org' }],
	],
	[
		'"Say \\"hi\\"; ok" <q@example.org>;Grace <grace@example.org>\n<b@example.org>',
		[
			{ email: 'q@example.org', name: 'Say "hi"; ok' },
			{ email: 'grace@example.org', name: 'Grace' },
			{ email: 'b@example.org' },
		],
	],
])('recipient lists are read as address lists: %s', async (to, expected) => {
	const result = await runWorkflow({
		...actionWorkflow({ ...send(), to }),
		credentials: env.credentials(),
		items: [{ json: {} }],
	});
	expect(result.error()).toBeUndefined();
	expect(((txRequests()[0].body as IDataObject).messageVersions as IDataObject[])[0].to).toEqual(
		expected,
	);
});

test('recipients from an expression as arrays and objects, and a malformed entry named in the error', async () => {
	const items = [
		{ json: { email: ['a@example.org', { email: 'b@example.org', name: 'B' }] } },
		{ json: { email: 'ok@example.org, "Unclosed <x@example.org>' } },
	];
	const result = await runWorkflow({
		...actionWorkflow(send(), { continueOnFail: true }),
		credentials: env.credentials(),
		items,
	});
	const out = result.output('Mail Delivery');
	expect(out[0].json.recipients).toEqual(['a@example.org', 'b@example.org']);
	expect(out[1].json.error).toBe(
		'Field "To" entry 2 (" \\"Unclosed <x@example.org>") has a quote that is never closed, in item 1 (the 2nd input item)',
	);
});

describe('contact import', () => {
	const importParameters = (fields: IDataObject[], options: IDataObject = {}) => ({
		resource: 'contact',
		operation: 'import',
		mappingMode: 'defineBelow',
		updateMode: 1,
		contactDataMapping: { fields },
		options,
	});
	const imports = () => env.view().requests.filter((r) => r.path === '/v5/contacts/imports');

	test('a row the platform refuses is isolated: the other rows are imported once, the bad one fails with the platform code', async () => {
		const items = people(40);
		// The API allows objects as values; the emulator, as a strict platform may, refuses a nested one.
		const result = await runWorkflow({
			...actionWorkflow(
				importParameters([
					{ propertyName: 'email', value: '={{ $json.email }}' },
					{ propertyName: 'address', value: '={{ $itemIndex === 17 ? { street: "Main" } : "" }}' },
				]),
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
		).toEqual([17]);
		expect(details(out[17]).code).toBe(400);
		expect(env.view().state.contacts.length).toBe(2 + 39);
	});

	test('values keep their JSON type', async () => {
		await runWorkflow({
			...actionWorkflow(
				importParameters([
					{ propertyName: 'email', value: '={{ $json.email }}' },
					{ propertyName: 'age', value: '={{ 37 }}' },
					{ propertyName: 'vip', value: '={{ true }}' },
				]),
			),
			credentials: env.credentials(),
			items: people(1),
		});
		expect((imports()[0].body as IDataObject).contactData).toEqual([['p0@example.org', 37, true]]);
	});

	test.each([
		[
			'a property mapped twice',
			[
				{ propertyName: 'email', value: 'a@example.org' },
				{ propertyName: 'email', value: 'b@example.org' },
			],
			{},
			'Field "Fields to Import" maps the property "email" more than once; map each property once, in item 0 (the 1st input item)',
		],
		[
			'Rows per Request below 1',
			[{ propertyName: 'email', value: 'a@example.org' }],
			{ batchSize: '={{ 0 }}' },
			'Field "Rows per Request" must be a whole number from 1 to 10000 (it is 0), in item 0 (the 1st input item)',
		],
	])('%s is a clear error before any request', async (_name, fields, options, message) => {
		const result = await runWorkflow({
			...actionWorkflow(importParameters(fields, options)),
			credentials: env.credentials(),
			items: people(1),
		});
		expect(result.error()?.message).toBe(message);
		expect(imports()).toHaveLength(0);
	});

	test('properties chosen from the list, custom ones by identifier; a custom one without an identifier is refused', async () => {
		const items = people(3);
		const fields = [
			{ propertyName: 'email', value: '={{ $json.email }}' },
			{ propertyName: 'name', value: '={{ $json.name }}' },
			{ propertyName: '__custom', customPropertyName: 'city', value: 'Paris' },
		];
		const manual = (mapped: IDataObject[]) => ({
			...importParameters(mapped),
			mappingMode: 'defineBelow',
		});
		const result = await runWorkflow({
			...actionWorkflow(manual(fields)),
			credentials: env.credentials(),
			items,
		});
		expect(result.error()).toBeUndefined();
		expect((imports()[0].body as IDataObject).contactDataMapping).toEqual([
			{ columnNum: 0, propertyName: 'email' },
			{ columnNum: 1, propertyName: 'name' },
			{ columnNum: 2, propertyName: 'city' },
		]);
		const unnamed = await runWorkflow({
			...actionWorkflow(
				manual([fields[0], { propertyName: '__custom', customPropertyName: ' ', value: 'x' }]),
			),
			credentials: env.credentials(),
			items,
		});
		expect(unnamed.error()?.message).toBe(
			'Field "Fields to Import": field 2 has no property identifier, in item 0 (the 1st input item)',
		);
	});

	test('mapping automatically: each field its property, others as custom properties or left out; an item without email or phone fails alone', async () => {
		const items = [
			{ json: { email: 'ada@example.org', name: 'Ada', city: 'London' } },
			{ json: { name: 'No Address' } },
			{ json: { email: 'grace@example.org', name: 'Grace', city: 'New York' } },
		];
		const auto = (unknownProperties: string) => ({
			resource: 'contact',
			operation: 'import',
			updateMode: 1,
			mappingMode: 'autoMapInputData',
			unknownProperties,
		});
		const result = await runWorkflow({
			...actionWorkflow(auto('custom'), { continueOnFail: true }),
			credentials: env.credentials(),
			items,
		});
		const out = result.output('Mail Delivery');
		expect(out.map((item) => item.json.error ?? item.json.success)).toEqual([
			true,
			'Field "email" or "phoneNumber" has no value for this item: a contact needs an email address or a phone number, in item 1 (the 2nd input item)',
			true,
		]);
		expect(imports()).toHaveLength(1);
		expect(imports()[0].body).toMatchObject({
			contactDataMapping: [
				{ columnNum: 0, propertyName: 'email' },
				{ columnNum: 1, propertyName: 'name' },
				{ columnNum: 2, propertyName: 'city' },
			],
			contactData: [
				['ada@example.org', 'Ada', 'London'],
				['grace@example.org', 'Grace', 'New York'],
			],
		});
		await runWorkflow({
			...actionWorkflow(auto('ignore'), { continueOnFail: true }),
			credentials: env.credentials(),
			items,
		});
		expect(imports()[1].body).toMatchObject({
			contactDataMapping: [
				{ columnNum: 0, propertyName: 'email' },
				{ columnNum: 1, propertyName: 'name' },
			],
		});
	});
});
