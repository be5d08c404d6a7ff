import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const rl = (value: string) => ({ __rl: true, mode: 'name', value });
const send = (extra: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: rl('welcome'),
	tagValuesMode: 'json',
	params: '={{ JSON.stringify({ name: $json.name }) }}',
	...extra,
	// Items without a name are sent with {{name}} empty: these tests are not about tags (missing-tags.test.cts is).
	options: { missingTagValues: 'send', ...((extra.options as IDataObject | undefined) ?? {}) },
});
const people = (count: number, email = (i: number) => `p${i}@example.org`): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({ json: { email: email(i), name: `P${i}` } }));
/** A UniqueMsgID the node made: 32 hex digits, from the request's name in its execution (the same in every try of the run). */
const GENERATED_ID = /^[0-9a-f]{32}$/;
const txRequests = () =>
	env.view().requests.filter((r) => r.path === '/v5/transactional/mail/sends_customised');

test('250 items become 3 requests (100/100/50), each item paired with its result', async () => {
	const result = await runWorkflow({
		...actionWorkflow(send()),
		credentials: env.credentials(),
		items: people(250),
	});
	expect(result.error()).toBeUndefined();
	expect(
		txRequests().map((r) => ((r.body as IDataObject).messageVersions as unknown[]).length),
	).toEqual([100, 100, 50]);
	const out = result.output('Mail Delivery');
	expect(out).toHaveLength(250);
	out.forEach((item, i) => {
		expect(item.pairedItem).toEqual({ item: i });
		expect(item.json).toMatchObject({
			success: true,
			recipients: [`p${i}@example.org`],
			request: Math.floor(i / 100) + 1,
			requestSize: i < 200 ? 100 : 50,
		});
	});
	const first = txRequests()[0].body as IDataObject;
	expect(first.templateName).toBe('welcome');
	expect((first.messageVersions as IDataObject[])[7]).toEqual({
		to: [{ email: 'p7@example.org' }],
		cc: [],
		bcc: [],
		params: { name: 'P7' },
	});
});

test('items whose shared fields differ are never combined into one request', async () => {
	const parameters = send({ additionalFields: { category: '={{ $json.category }}' } });
	const items = people(6).map((item, i) => ({
		json: { ...item.json, category: i % 2 ? 'odd' : 'even' },
	}));
	await runWorkflow({ ...actionWorkflow(parameters), credentials: env.credentials(), items });
	expect(
		txRequests().map((r) => [
			(r.body as IDataObject).category,
			((r.body as IDataObject).messageVersions as unknown[]).length,
		]),
	).toEqual([
		['even', 3],
		['odd', 3],
	]);
});

test('combining off sends one request per item', async () => {
	await runWorkflow({
		...actionWorkflow(send({ options: { combineItems: false } })),
		credentials: env.credentials(),
		items: people(3),
	});
	expect(txRequests()).toHaveLength(3);
});

test('an invalid item fails alone before any request; the rest are sent', async () => {
	const items = people(3);
	items[1].json.email = 'not-an-address';
	const result = await runWorkflow({
		...actionWorkflow(send(), { continueOnFail: true }),
		credentials: env.credentials(),
		items,
	});
	const out = result.output('Mail Delivery');
	expect(out.map((item) => item.json.success ?? item.json.error)).toEqual([
		true,
		'Field "To" "not-an-address" is not a valid email address, in item 1 (the 2nd input item)',
		true,
	]);
	expect(txRequests()).toHaveLength(1);
});

test('per-item content that differs stays in the versions; shared content moves to the request', async () => {
	const items = [
		{ json: { email: 'a@example.org', subject: 'A' } },
		{ json: { email: 'b@example.org', subject: 'B' } },
	];
	await runWorkflow({
		...actionWorkflow({
			...send(),
			contentSource: 'html',
			content: '<p>same</p>',
			subject: '={{ $json.subject }}',
			params: '{}',
		}),
		credentials: env.credentials(),
		items,
	});
	expect(txRequests()[0].body).toEqual({
		senderMail: 'sender@example.com',
		uniqueMsgID: expect.stringMatching(GENERATED_ID),
		content: '<p>same</p>',
		messageVersions: [
			{ to: [{ email: 'a@example.org' }], cc: [], bcc: [], subject: 'A' },
			{ to: [{ email: 'b@example.org' }], cc: [], bcc: [], subject: 'B' },
		],
	});
});

test('one item with its own versions as JSON, plus an attachment from binary data', async () => {
	const versions = [
		{ to: [{ email: 'a@example.org', name: 'A' }], cc: 'c@example.org', params: { name: 'A' } },
		{ to: [{ email: 'b@example.org' }], subject: 'For B' },
	];
	const result = await runWorkflow({
		...actionWorkflow({
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			messageSource: 'definedHere',
			contentSource: 'template',
			templateName: rl('welcome'),
			versionsMode: 'json',
			messageVersionsJson: JSON.stringify(versions),
			options: { missingTagValues: 'send' },
			additionalFields: {
				attachmentBinaryProperty: 'data',
				trackOpen: true,
				trackClick: false,
				category: 'receipts',
			},
		}),
		credentials: env.credentials(),
		items: [
			{
				json: {},
				binary: {
					data: {
						data: Buffer.from('PDF!').toString('base64'),
						mimeType: 'application/pdf',
						fileName: 'receipt.pdf',
					},
				},
			},
		],
	});
	expect(result.error()).toBeUndefined();
	expect(txRequests()[0].body).toEqual({
		senderMail: 'sender@example.com',
		templateName: 'welcome',
		category: 'receipts',
		trackOpen: 1,
		trackClick: 0,
		uniqueMsgID: expect.stringMatching(GENERATED_ID),
		attachment: { fileName: 'receipt.pdf', fileData: Buffer.from('PDF!').toString('base64') },
		messageVersions: [
			{
				to: [{ email: 'a@example.org', name: 'A' }],
				cc: [{ email: 'c@example.org' }],
				bcc: [],
				params: { name: 'A' },
			},
			{ to: [{ email: 'b@example.org' }], cc: [], bcc: [], subject: 'For B' },
		],
	});
	expect(result.output('Mail Delivery')[0].json).toMatchObject({
		success: true,
		recipients: ['a@example.org', 'c@example.org', 'b@example.org'],
	});
});

test('contact import splits very large inputs into several requests', async () => {
	const result = await runWorkflow({
		...actionWorkflow({
			resource: 'contact',
			operation: 'import',
			updateMode: 1,
			mappingMode: 'defineBelow',
			contactDataMapping: { fields: [{ propertyName: 'email', value: '={{ $json.email }}' }] },
			options: { batchSize: 1000 },
		}),
		credentials: env.credentials(),
		items: people(2500),
	});
	expect(result.output('Mail Delivery')).toHaveLength(2500);
	expect(
		env.view().requests.map((r) => ((r.body as IDataObject).contactData as unknown[]).length),
	).toEqual([1000, 1000, 500]);
	expect(env.view().state.contacts.length).toBe(2 + 2500);
});

describe('tag values as name/value pairs, versions one way at a time', () => {
	const bodies = () => txRequests().map((request) => request.body as IDataObject);

	test("tag values given as pairs with expressions become each message's params", async () => {
		const parameters = send({
			params: undefined,
			tagValuesMode: 'fields',
			tagValues: {
				values: [
					{ name: 'firstName', value: '={{ $json.name }}' },
					{ name: 'shop', value: 'Example' },
				],
			},
		});
		const result = await runWorkflow({
			...actionWorkflow(parameters),
			credentials: env.credentials(),
			items: people(2),
		});
		expect(result.error()).toBeUndefined();
		expect((bodies()[0].messageVersions as IDataObject[]).map((version) => version.params)).toEqual(
			[
				{ firstName: 'P0', shop: 'Example' },
				{ firstName: 'P1', shop: 'Example' },
			],
		);
	});

	test('pairs whose name or value n8n evaluates (not a plain reference) give each message its own', async () => {
		const parameters = send({
			params: undefined,
			tagValuesMode: 'fields',
			tagValues: {
				values: [
					{ name: rl('={{ "first" + "Name" }}'), value: '={{ $json.name.toLowerCase() }}' },
					{ name: rl('shop'), value: 'Example' },
					{ name: rl('={{ $json.tag }}'), value: '={{ $json.email }}' },
				],
			},
		});
		const items = people(2).map((item, i) => ({ json: { ...item.json, tag: `t${i}` } }));
		const result = await runWorkflow({
			...actionWorkflow(parameters),
			credentials: env.credentials(),
			items,
		});
		expect(result.error()).toBeUndefined();
		expect((bodies()[0].messageVersions as IDataObject[]).map((version) => version.params)).toEqual(
			[
				{ firstName: 'p0', shop: 'Example', t0: 'p0@example.org' },
				{ firstName: 'p1', shop: 'Example', t1: 'p1@example.org' },
			],
		);
	});

	test('a tag value without a name is refused before any request, naming the field', async () => {
		const parameters = send({
			params: undefined,
			tagValuesMode: 'fields',
			tagValues: { values: [{ name: ' ', value: 'x' }] },
		});
		const result = await runWorkflow({
			...actionWorkflow(parameters),
			credentials: env.credentials(),
			items: people(1),
		});
		expect(result.error()?.message).toContain('Field "Tag Values": tag value 1 has no name');
		expect(txRequests()).toHaveLength(0);
	});

	test('JSON mode reads Tag Values (JSON); the default mode (pairs) does not', async () => {
		await runWorkflow({
			...actionWorkflow(send()),
			credentials: env.credentials(),
			items: people(1),
		});
		await runWorkflow({
			...actionWorkflow(send({ tagValuesMode: undefined })),
			credentials: env.credentials(),
			items: people(1),
		});
		expect(bodies().map((body) => (body.messageVersions as IDataObject[])[0].params)).toEqual([
			{ name: 'P0' },
			undefined,
		]);
	});

	test('versions defined with fields use only the fields, even when old JSON is still stored', async () => {
		const parameters = send({
			to: undefined,
			params: undefined,
			messageSource: 'definedHere',
			versionsMode: 'fields',
			messageVersionsUi: { versions: [{ to: 'ada@example.org', templateName: 'welcome' }] },
			messageVersionsJson: '[{"to": [{"email": "json@example.org"}]}]',
		});
		const result = await runWorkflow({
			...actionWorkflow(parameters),
			credentials: env.credentials(),
			items: people(1),
		});
		expect(result.error()).toBeUndefined();
		expect(
			(bodies()[0].messageVersions as IDataObject[]).map(
				(version) => (version.to as IDataObject[])[0].email,
			),
		).toEqual(['ada@example.org']);
	});
});

test("each output names its request's UniqueMsgID (made per request when none is given), sender and template, as the events will", async () => {
	const result = await runWorkflow({
		...actionWorkflow(send()),
		credentials: env.credentials(),
		items: people(150),
	});
	const out = result.output('Mail Delivery');
	const ids = txRequests().map((request) => (request.body as IDataObject).uniqueMsgID);
	expect(ids).toHaveLength(2);
	expect(ids[0]).toMatch(GENERATED_ID);
	expect(ids[0]).not.toBe(ids[1]);
	expect(out[0].json).toMatchObject({
		uniqueMsgID: ids[0],
		senderMail: 'sender@example.com',
		templateName: 'welcome',
	});
	expect(out[149].json.uniqueMsgID).toBe(ids[1]);
	// The user's own ID is kept as given.
	env.emulator.reset();
	const own = await runWorkflow({
		...actionWorkflow(send({ additionalFields: { uniqueMsgID: 'order-1001' } })),
		credentials: env.credentials(),
		items: people(1),
	});
	expect(own.output('Mail Delivery')[0].json.uniqueMsgID).toBe('order-1001');
});

test("Include Input Fields puts the input item's fields before the result", async () => {
	const items = people(2).map((item, i) => ({ json: { ...item.json, orderId: `A-${i}` } }));
	const result = await runWorkflow({
		...actionWorkflow(send({ options: { includeInputFields: true } })),
		credentials: env.credentials(),
		items,
	});
	expect(result.output('Mail Delivery').map((item) => item.json)).toEqual([
		expect.objectContaining({
			orderId: 'A-0',
			email: 'p0@example.org',
			success: true,
			recipients: ['p0@example.org'],
		}),
		expect.objectContaining({
			orderId: 'A-1',
			email: 'p1@example.org',
			success: true,
			recipients: ['p1@example.org'],
		}),
	]);
	const without = await runWorkflow({
		...actionWorkflow(send()),
		credentials: env.credentials(),
		items,
	});
	expect(without.output('Mail Delivery')[0].json.orderId).toBeUndefined();
});

describe('recipients and tag values straight from the input fields, no expression to evaluate', () => {
	const bodies = () => txRequests().map((request) => request.body as IDataObject);

	test('Email Field and Name Field give each version its recipient; all input fields become its tag values', async () => {
		const parameters = {
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			contentSource: 'template',
			templateName: rl('welcome'),
			recipientSource: 'inputField',
			recipientField: 'email',
			recipientNameField: 'name',
			tagValuesMode: 'inputFields',
		};
		const items = [
			{ json: { email: 'ada@example.org', name: 'Ada', orderId: 'A-1' } },
			{ json: { email: 'grace@example.org', name: '', orderId: 'A-2' } },
		];
		const result = await runWorkflow({
			...actionWorkflow(parameters),
			credentials: env.credentials(),
			items,
		});
		expect(result.error()).toBeUndefined();
		expect(bodies()[0].messageVersions).toEqual([
			{
				to: [{ email: 'ada@example.org', name: 'Ada' }],
				cc: [],
				bcc: [],
				params: { email: 'ada@example.org', name: 'Ada', orderId: 'A-1' },
			},
			{
				to: [{ email: 'grace@example.org' }],
				cc: [],
				bcc: [],
				params: { email: 'grace@example.org', name: '', orderId: 'A-2' },
			},
		]);
	});

	test('chosen input fields only; an item without the email field fails alone, naming the field', async () => {
		const parameters = {
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			contentSource: 'template',
			templateName: rl('welcome'),
			recipientSource: 'inputField',
			recipientField: 'mail',
			tagValuesMode: 'chosenInputFields',
			tagValueFields: 'orderId, missing',
			options: { missingTagValues: 'send' },
		};
		const items = [
			{ json: { mail: 'ada@example.org', orderId: 'A-1', secret: 'x' } },
			{ json: { orderId: 'A-2' } },
		];
		const result = await runWorkflow({
			...actionWorkflow(parameters, { continueOnFail: true }),
			credentials: env.credentials(),
			items,
		});
		const out = result.output('Mail Delivery');
		expect(out[1].json.error).toBe(
			'Field "Email Field": the input item has no value in its field "mail", in item 1 (the 2nd input item)',
		);
		expect((bodies()[0].messageVersions as IDataObject[])[0].params).toEqual({ orderId: 'A-1' });
	});
});
