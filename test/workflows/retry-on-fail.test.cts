/**
 * Mail goes out at most once whatever n8n does around the node: with the node setting Retry On Fail,
 * n8n's engine runs the whole node again, with the same input, after it threw (or, under On Error =
 * Continue, after its first output item carries an error). A retry sends only what no earlier try of
 * the execution sent, and the output still pairs every input item with one result.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { people, rl, sendToEachItem, TX } from '../harness/fixtures.cts';
import { actionWorkflow, loopOnceNode, registerNodeType, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
/** Each item names its template (a test gives one item a template that is missing). */
const send = (extra: IDataObject = {}) =>
	sendToEachItem({ templateName: rl('={{ $json.template }}'), ...extra });
const customers = (count: number): INodeExecutionData[] =>
	people(count).map((item) => ({ json: { ...item.json, template: 'welcome' } }));
const txRequests = () => env.view().requests.filter((r) => r.path === TX);
/** How often the platform accepted a message for each address. */
const acceptedCounts = () => {
	const counts = new Map<string, number>();
	for (const mail of env.view().mails) counts.set(mail.email, (counts.get(mail.email) ?? 0) + 1);
	return counts;
};
const pairedItemOf = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
/** The input items (p<i>@example.org) of the first request the platform answered with `code`. */
const itemsOfRequestAnswered = (code: number) => {
	const request = txRequests().find((r) => r.code === code)!;
	return (
		(request.body as IDataObject).messageVersions as Array<{ to: Array<{ email: string }> }>
	).map((version) => Number(/^p(\d+)@/.exec(version.to[0].email)![1]));
};
const retry = { retryOnFail: { maxTries: 3 } };

beforeEach(async () => {
	await env.control('POST', 'settings', { credits: 1_000_000 });
});

test('a 1,000-item send whose 7th request is answered 500 under Stop Workflow: no recipient gets the mail twice, and the error says what was sent', async () => {
	// The 500 comes after the platform processed the request: its 100 messages went out.
	await env.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 6 });
	const result = await runWorkflow({
		...actionWorkflow(send({ options: { parallelRequests: 1 } }), retry),
		credentials: env.credentials(),
		items: customers(1000),
	});
	const counts = acceptedCounts();
	expect(Math.max(...counts.values())).toBe(1);
	// The first try sent 600 and the 100 of the failed request; the retry sent the 300 never tried, once.
	expect(counts.size).toBe(1000);
	expect(txRequests()).toHaveLength(10);
	const failed = itemsOfRequestAnswered(500);
	const [first, last] = [failed[0], failed[failed.length - 1]];
	expect(last - first).toBe(99);
	const error = result.error() as Error & { description?: string };
	expect(error.message).toBe(
		'100 of 1000 items not confirmed as sent: the platform failed to process the request (code 500)',
	);
	expect(error.description).toContain(
		`Items 0–${first - 1} and ${last + 1}–999 were sent; items ${first}–${last} may have been sent.`,
	);
	// The last try sent nothing: every item was done by an earlier one.
	expect(error.description).toContain(
		`Items 0–${first - 1} and ${last + 1}–999 were sent by an earlier try of this execution (n8n's Retry On Fail) and were not sent again. Items ${first}–${last} were not sent again either`,
	);
	expect(error.description).toContain('mail may have gone out');
});

test('with the default parallel requests the retry never resends either', async () => {
	await env.control('POST', 'fault', { path: TX, fault: 'internalError', skip: 6 });
	await runWorkflow({
		...actionWorkflow(send(), retry),
		credentials: env.credentials(),
		items: customers(1000),
	});
	expect(Math.max(...acceptedCounts().values())).toBe(1);
});

test('a request the platform did not process (429, given up at once): the retry sends only the rest and every item gets one result', async () => {
	await env.control('POST', 'fault', { path: TX, fault: 'tooManyRequests', skip: 6 });
	const result = await runWorkflow({
		...actionWorkflow(send({ options: { parallelRequests: 1, retryAttempts: 1 } }), retry),
		credentials: env.credentials(),
		items: customers(1000),
	});
	expect(result.error()).toBeUndefined();
	const counts = acceptedCounts();
	expect(counts.size).toBe(1000);
	expect(Math.max(...counts.values())).toBe(1);
	const out = result.output('Mail Delivery');
	expect(out.map(pairedItemOf)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
	expect(out.every((item) => item.json.success === true)).toBe(true);
	// Items sent by the first try keep that try's result; the rest name the retry's requests.
	expect(out[0].json).toMatchObject({ request: 1, recipients: ['p0@example.org'] });
	expect(out[999].json).toMatchObject({ request: 11, recipients: ['p999@example.org'] });
	// Then the hint that these messages carry no value for the template's {{name}}, and that the retry was paced from
	// its start to the rate the first try found when the platform answered 429.
	expect(result.run.data.resultData.runData['Mail Delivery'][0].hints).toEqual([
		expect.objectContaining({
			message: expect.stringContaining(
				"Items 0–599 were sent by an earlier try of this execution (n8n's Retry On Fail) and were not sent again",
			),
		}),
		expect.objectContaining({ message: expect.stringContaining('no value for {{name}}') }),
		expect.objectContaining({
			message: expect.stringMatching(
				/^Requests were paced from the start, at \d+ a second in the end: an earlier run to this platform found the rate/,
			),
		}),
	]);
});

test('On Error = Continue with item 0 refused: n8n retries the node, and each retry sends nothing that went out before', async () => {
	const items = customers(250);
	items[0].json.template = 'missing';
	const result = await runWorkflow({
		...actionWorkflow(send(), { ...retry, continueOnFail: true }),
		credentials: env.credentials(),
		items,
	});
	const counts = acceptedCounts();
	expect(counts.size).toBe(249);
	expect(Math.max(...counts.values())).toBe(1);
	const out = result.output('Mail Delivery');
	expect(out.map(pairedItemOf)).toEqual(Array.from({ length: 250 }, (_, i) => i));
	expect(out[0].json.error).toMatch(/the template "missing"/);
	expect(out.slice(1).every((item) => item.json.success === true)).toBe(true);
});

test('a connection reset after the platform processed a request: the retry does not send that request again', async () => {
	await env.control('POST', 'fault', { path: TX, fault: 'resetAfter' });
	const result = await runWorkflow({
		...actionWorkflow(send({ options: { parallelRequests: 1 } }), retry),
		credentials: env.credentials(),
		items: customers(300),
	});
	expect(Math.max(...acceptedCounts().values())).toBe(1);
	expect(acceptedCounts().size).toBe(300);
	const error = result.error() as Error & { description?: string };
	expect(error.description).toContain('Items 100–299 were sent; items 0–99 may have been sent.');
});

test('contact import: rows imported by the first try are not imported again by the retry', async () => {
	await env.control('POST', 'fault', {
		path: '/v5/contacts/imports',
		fault: 'tooManyRequests',
		skip: 1,
	});
	const result = await runWorkflow({
		...actionWorkflow(
			{
				resource: 'contact',
				operation: 'import',
				mappingMode: 'autoMapInputData',
				updateMode: 2,
				options: { batchSize: 100, parallelRequests: 1, retryAttempts: 1 },
			},
			retry,
		),
		credentials: env.credentials(),
		items: customers(300),
	});
	expect(result.error()).toBeUndefined();
	const imports = env.view().requests.filter((r) => r.path === '/v5/contacts/imports');
	const rows = imports
		.filter((r) => r.code === 200)
		.flatMap((r) => (r.body as { contactData: string[][] }).contactData.map((row) => row[0]));
	expect(rows).toHaveLength(300);
	expect(new Set(rows).size).toBe(300);
});

describe('a node that runs again in a loop', () => {
	// Sends new items (the same customers) back to Mail Delivery once (output 0), then lets them through (output 1).
	registerNodeType(
		'test.loopOnce',
		loopOnceNode('Loop Once', () =>
			customers(3).map((item, i) => ({ ...item, pairedItem: { item: i } })),
		),
	);

	test('with new input on its second run (same items, a new run index), it sends again: a retry is not a loop', async () => {
		const items = customers(3);
		items[2].json.template = 'missing';
		const { nodes, connections } = actionWorkflow(send(), { ...retry, continueOnFail: true });
		nodes.push({
			id: 'loop',
			name: 'Loop Once',
			type: 'test.loopOnce',
			typeVersion: 1,
			position: [400, 0],
			parameters: {},
		});
		const result = await runWorkflow({
			nodes,
			connections: {
				...connections,
				'Mail Delivery': { main: [[{ node: 'Loop Once', type: 'main', index: 0 }]] },
				'Loop Once': { main: [[{ node: 'Mail Delivery', type: 'main', index: 0 }], []] },
			},
			credentials: env.credentials(),
			items,
		});
		expect(result.run.data.resultData.runData['Mail Delivery']).toHaveLength(2);
		// The first run's record (item 2 failed, so it was kept) does not stop the second run.
		expect(acceptedCounts()).toEqual(
			new Map([
				['p0@example.org', 2],
				['p1@example.org', 2],
				['p2@example.org', 1],
			]),
		);
	});
});

test('operations run item by item keep the same record: under Retry On Fail a campaign the first try created is not created (and sent) again, and the error names the real cause', async () => {
	// A platform that does not keep campaign names unique: nothing but the node stops a second campaign.
	await env.control('POST', 'settings', { duplicateMailNames: 'accept' });
	const campaigns = [
		{ json: { name: 'c0', list: 'newsletter' } },
		{ json: { name: 'c1', list: 'newsletter' } },
		{ json: { name: 'c2', list: 'missing' } },
	];
	const result = await runWorkflow({
		...actionWorkflow(
			{
				resource: 'campaign',
				operation: 'create',
				mailName: '={{ $json.name }}',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('={{ $json.list }}') }] },
				subject: 'Hi',
			},
			retry,
		),
		credentials: env.credentials(),
		items: campaigns,
	});
	const creations = env.view().requests.filter((r) => r.path === '/v5/campaign/mail/sends');
	// First try: c0, c1 created, c2 refused; each retry sends only c2 again.
	expect(creations.map((r) => `${(r.body as IDataObject).mailName}:${r.code}`)).toEqual([
		'c0:200',
		'c1:200',
		'c2:403',
		'c2:403',
		'c2:403',
	]);
	expect(
		env
			.view()
			.state.tasks.map((task) => task.mailName)
			.sort(),
	).toEqual(['c0', 'c1']);
	expect(result.error()?.message).toContain('The platform refused the request (code 403)');
	expect(result.error()?.message).not.toContain('already exists');
});
