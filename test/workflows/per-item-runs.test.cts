/**
 * Operations run item by item send several requests at once (Options → Requests in Parallel), with the
 * send's guarantees: outputs in input order and paired, items acting on the same record in input order, one
 * item's fault never losing or repeating another's request (n8n's Retry On Fail included), pacing after a
 * 429, and nothing started after the execution is stopped.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { NodeApiError } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { people, sendToEachItem, TX, UPSERT, upsert } from '../harness/fixtures.cts';
import { actionWorkflow, exploredWorkflow, N8nInstance, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const upsertRequests = () => env.view().requests.filter((request) => request.path === UPSERT);
/** How many requests the platform received for each address. */
const requestsPerEmail = () => {
	const counts = new Map<string, number>();
	for (const request of upsertRequests()) {
		const email = (request.body as IDataObject).email as string;
		counts.set(email, (counts.get(email) ?? 0) + 1);
	}
	return counts;
};
const paired = (items: INodeExecutionData[]) =>
	items.map((item) => (item.pairedItem as { item: number }).item);
const named = (count: number): INodeExecutionData[] =>
	people(count).map((item, i) => ({ json: { ...item.json, name: `N${i}` } }));

beforeEach(async () => {
	await env.control('POST', 'settings', { latencyMs: 20 });
});

test('Requests in Parallel runs up to that many items at once; outputs keep the input order and pairing', async () => {
	const result = await runWorkflow({
		...actionWorkflow(upsert({ parallelRequests: 8 })),
		credentials: env.credentials(),
		items: named(60),
	});
	const output = result.output('Mail Delivery');
	expect(paired(output)).toEqual([...Array(60).keys()]);
	expect(output.map((item) => item.json.email)).toEqual(named(60).map((item) => item.json.email));
	expect(env.view().peakRequestsUnderWay).toBeGreaterThan(1);
	expect(env.view().peakRequestsUnderWay).toBeLessThanOrEqual(8);
	expect([...requestsPerEmail().values()].every((count) => count === 1)).toBe(true);
});

test('by default reads and contact changes start 16 at once (then follow the platform: adaptive-concurrency.test.cts), campaigns one after another', async () => {
	// Answers late enough that the 16 are all under way before the first comes back, on a busy machine too.
	await env.control('POST', 'settings', { latencyMs: 300 });
	await runWorkflow({
		...actionWorkflow(upsert()),
		credentials: env.credentials(),
		items: named(24),
	});
	expect(env.view().peakRequestsUnderWay).toBe(16);
	env.emulator.reset();
	await env.control('POST', 'settings', { latencyMs: 20 });
	await runWorkflow({
		...actionWorkflow({
			resource: 'campaign',
			operation: 'create',
			mailName: '={{ "spring-" + $itemIndex }}',
			senderMail: { __rl: true, mode: 'name', value: 'news@example.com' },
			subject: 'Spring',
			content: '<p>Hi</p>',
			onlySave: true,
			sendLists: { list: [] },
		}),
		credentials: env.credentials(),
		items: [...Array(6).keys()].map(() => ({ json: {} })),
	});
	expect(env.view().requests.filter((r) => r.path === '/v5/campaign/mail/sends')).toHaveLength(6);
	expect(env.view().peakRequestsUnderWay).toBe(1);
});

test('items that save the same contact run in input order at any parallelism: the last one stays', async () => {
	// Items 0, 5, 10, … save one address with different names; the others their own addresses.
	const items = named(40).map((item, i) =>
		i % 5 === 0 ? { json: { email: 'same@example.org', name: `Name ${i}` } } : item,
	);
	await runWorkflow({
		...actionWorkflow(upsert({ parallelRequests: 16 })),
		credentials: env.credentials(),
		items,
	});
	const names = upsertRequests()
		.map((request) => request.body as IDataObject)
		.filter((body) => body.email === 'same@example.org')
		.map((body) => body.name);
	expect(names).toEqual([0, 5, 10, 15, 20, 25, 30, 35].map((i) => `Name ${i}`));
	const contact = env.view().state.contacts.find((c) => c.email === 'same@example.org');
	expect(contact?.name).toBe('Name 35');
});

test("Stop Workflow with 8 at once: the failed item's error says what happened to the others and how to go on; Retry On Fail repeats no request", async () => {
	// The 10th request gets a 500 after the platform saved it: it may have been processed.
	await env.control('POST', 'fault', { path: UPSERT, fault: 'internalError', skip: 9 });
	const result = await runWorkflow({
		...actionWorkflow(upsert({ parallelRequests: 8 }), { retryOnFail: { maxTries: 3 } }),
		credentials: env.credentials(),
		items: named(100),
	});
	// The retry ran every item not done; the item whose request failed after it may have been saved is
	// not sent again, and its error says so.
	expect([...requestsPerEmail().values()].every((count) => count === 1)).toBe(true);
	expect(requestsPerEmail().size).toBe(100);
	const error = result.error() as NodeApiError;
	expect(error.message).toMatch(/code 500/);
	expect(error.description).toMatch(/earlier try of this execution/);
	expect(error.description).toMatch(/contact may have been saved/);
	expect(error.description).toMatch(
		/Continue \(using error output\)", the 99 items done would go to the success output and this item to the error output/,
	);
});

test('Stop Workflow with 8 at once, no retry: items under way are finished and kept, later ones not run, and the error says which', async () => {
	await env.control('POST', 'fault', { path: UPSERT, fault: 'internalError', skip: 9 });
	const result = await runWorkflow({
		...actionWorkflow(upsert({ parallelRequests: 8 })),
		credentials: env.credentials(),
		items: named(100),
	});
	const done = upsertRequests().length;
	expect(done).toBeGreaterThan(10);
	expect(done).toBeLessThanOrEqual(17);
	const error = result.error() as NodeApiError;
	expect(error.description).toMatch(new RegExp(`items ${done}–99 were not run`));
	expect(error.description).toMatch(/Items 0–8 and 10–\d+ were done/);
});

test('16 at once under Retry On Fail with a 500, a dropped connection and a refusal: no request repeated, every item its result or its error', async () => {
	await env.control('POST', 'fault', { path: UPSERT, fault: 'internalError', skip: 20 });
	await env.control('POST', 'fault', { path: UPSERT, fault: 'resetAfter', skip: 60 });
	await env.control('POST', 'fault', { path: UPSERT, fault: 'network', skip: 90 });
	const items = named(200);
	const result = await runWorkflow({
		...actionWorkflow(upsert({ parallelRequests: 16 }), {
			onError: 'continueErrorOutput',
			retryOnFail: { maxTries: 4 },
		}),
		credentials: env.credentials(),
		items,
	});
	const ok = result.output('Mail Delivery', 0);
	const failed = result.output('Mail Delivery', 1);
	expect(paired([...ok, ...failed]).sort((a, b) => a - b)).toEqual([...Array(200).keys()]);
	// A request that may have reached the platform is never sent again; one never made is.
	const counts = requestsPerEmail();
	expect([...counts.values()].filter((count) => count > 1)).toEqual([]);
	expect(failed.length).toBeGreaterThanOrEqual(2);
	for (const item of failed)
		expect(String((item.json.details as IDataObject).description)).toMatch(
			/may have been saved|reached the platform/,
		);
});

/** `count` Contact → Get of one address: no error, an output per item, each answered once in the end. */
async function getsOfOneContact(count: number, options: IDataObject = {}) {
	const result = await runWorkflow({
		...actionWorkflow({
			resource: 'contact',
			operation: 'get',
			email: '={{ $json.email }}',
			options,
		}),
		credentials: env.credentials(),
		items: [...Array(count).keys()].map(() => ({ json: { email: 'ada@example.org' } })),
	});
	expect(result.error()).toBeUndefined();
	expect(result.output('Mail Delivery')).toHaveLength(count);
	const answered = env.view().requests.filter((r) => r.path === '/v5/contacts/get');
	expect(answered.filter((r) => r.code === 200)).toHaveLength(count);
	return result;
}

test('after a 429 the items are paced to the rate the platform accepts, and each is sent once', async () => {
	await env.control('POST', 'settings', { latencyMs: 0, rateLimitPerSecond: 25 });
	await getsOfOneContact(60, { parallelRequests: 16 });
});

test('a platform that refuses before it works (its 429s come back before the answers it accepted): the run is paced to the rate it accepted, and the hint says so', async () => {
	await env.control('POST', 'settings', {
		latencyMs: 300,
		rateLimitPerSecond: 10,
		refuseAtOnce: 1,
	});
	const result = await getsOfOneContact(40);
	const hints = (result.run.data.resultData.runData['Mail Delivery'][0].hints ?? []).map(
		(hint) => hint.message,
	);
	// Read as the first 429 came back, before the answers it accepted, the rate was lower (7 here; 1 at worst).
	expect(hints).toContainEqual(
		expect.stringMatching(/requests were paced to 10 a second \(what it had accepted/),
	);
});

test('a stopped execution starts no other request (a 2,000-item send stopped as its 3rd request of mail was about to leave)', async () => {
	await env.control('POST', 'settings', { latencyMs: 100, credits: 1_000_000 });
	const txCount = () => env.view().requests.filter((r) => r.path === TX).length;
	// Stop pressed while the 4th request is being made (held there until n8n has stopped the execution): not
	// when a poll happens to notice, so a loaded machine stops it at the same place.
	const n8n = new N8nInstance(
		'stopped-send',
		exploredWorkflow(
			actionWorkflow(sendToEachItem({ options: { parallelRequests: 1 } })).nodes[1],
			false,
		),
		() => env.credentials(),
		async () => await env.settled(),
	);
	const stopped = await n8n.start(people(2000), {
		hold: { point: { at: 'request', index: 4, reached: false }, then: 'stop' },
	});
	expect(stopped.status).toBe('canceled');
	await env.settled();
	// The template's look-up and two sends went out; the third send, and every later one, did not.
	expect(env.view().requests).toHaveLength(3);
	expect(txCount()).toBe(2);
});

test('Stop Workflow: items waiting on a failed item of the same record are not run, and the error says so', async () => {
	const items = Array.from({ length: 32 }, (_, i) => ({
		json: { email: 'same@example.org', name: `N${i}` },
	}));
	await env.control('POST', 'fault', { path: UPSERT, fault: 'internalError' });
	const result = await runWorkflow({
		...actionWorkflow(upsert({ parallelRequests: 16 })),
		credentials: env.credentials(),
		items,
	});
	await env.settled();
	expect(upsertRequests()).toHaveLength(1);
	const error = result.error() as NodeApiError;
	expect(error.description).toMatch(/items 1–31 were not run/i);
	expect(error.description).not.toMatch(/were done/);
});
