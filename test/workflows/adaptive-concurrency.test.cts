/**
 * By default (Requests in Parallel not set, or 0) the number of requests at once follows the platform: more while its
 * answers come back as fast as the first ones and nothing is refused, fewer when it refuses requests or answers
 * more slowly, never above 64. The platform (the emulator) counts how many were under way
 * as each request arrived; outputs keep the input order and pairing, and every contact is saved exactly once.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { UPSERT, upsert } from '../harness/fixtures.cts';
import { actionWorkflow, type RunResult, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const contacts = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({
		json: { email: `c${i}@example.org`, name: `C${i}` },
	}));

/** Outputs in input order, each paired with its item; every address saved once, none refused in the end. */
function expectEveryItemOnceInOrder(result: RunResult, count: number) {
	expect(result.error()).toBeUndefined();
	const output = result.output('Mail Delivery');
	expect(output.map((item) => (item.pairedItem as { item: number }).item)).toEqual([
		...Array(count).keys(),
	]);
	expect(output.map((item) => item.json.email)).toEqual(
		contacts(count).map((item) => item.json.email),
	);
	const saved = env
		.view()
		.requests.filter((request) => request.path === UPSERT && request.code === 200)
		.map((request) => (request.body as IDataObject).email as string);
	expect(saved.sort()).toEqual(
		contacts(count)
			.map((item) => item.json.email as string)
			.sort(),
	);
}

/** How many requests were under way as each request arrived at the platform, itself included. */
const underWayAtArrivals = () => env.view().arrivals.map((arrival) => arrival.underWay);
const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** Makes the platform answer after `latencyMs` once it has received `received` requests; `at()`: since when. */
function slowDownAfter(received: number, latencyMs: number) {
	let since = Infinity;
	const watch = setInterval(() => {
		if (env.emulator.network.received >= received && since === Infinity) {
			env.emulator.network.settings.latencyMs = latencyMs;
			since = Date.now();
		}
	}, 5);
	return { at: () => since, stop: () => clearInterval(watch) };
}
const hintsOf = (result: RunResult) =>
	(result.run.data.resultData.runData['Mail Delivery'][0].hints ?? []).map((hint) => hint.message);

test('while the platform answers as fast as at first and refuses nothing, more requests go at once: from 16 up, never above the ceiling', async () => {
	await env.control('POST', 'settings', { latencyMs: 150 });
	const result = await runWorkflow({
		...actionWorkflow(upsert()),
		credentials: env.credentials(),
		items: contacts(400),
	});
	expectEveryItemOnceInOrder(result, 400);
	const seen = underWayAtArrivals();
	// The first requests go 16 at once; then more.
	expect(Math.max(...seen.slice(0, 16))).toBeLessThanOrEqual(16);
	expect(Math.max(...seen)).toBeGreaterThanOrEqual(32);
	expect(Math.max(...seen)).toBeLessThanOrEqual(64);
	expect(hintsOf(result)).toContainEqual(
		expect.stringMatching(
			/^Requests in parallel followed the platform: 400 requests, at most \d+ at once \(16 at first, up to \d+ allowed\)\..*Options → Requests in Parallel sets a fixed number instead\.$/,
		),
	);

	// Requests in Parallel added to the Options just to look at it shows 0, its default: the node still follows the
	// platform (issue 61: it used to fill in 16, a fixed number).
	env.emulator.reset();
	await env.control('POST', 'settings', { latencyMs: 150 });
	const looked = await runWorkflow({
		...actionWorkflow(upsert({ parallelRequests: 0 })),
		credentials: env.credentials(),
		items: contacts(400),
	});
	expectEveryItemOnceInOrder(looked, 400);
	expect(Math.max(...underWayAtArrivals())).toBeGreaterThanOrEqual(32);
	expect(Math.max(...underWayAtArrivals())).toBeLessThanOrEqual(64);
	expect(hintsOf(looked)).toContainEqual(
		expect.stringMatching(
			/^Requests in parallel followed the platform: 400 requests, at most \d+ at once \(16 at first, up to \d+ allowed\)/,
		),
	);
});

test('a platform that refuses requests above a number at once (503, "unavailable") gets fewer at once: every contact still saved once, in order', async () => {
	await env.control('POST', 'settings', { latencyMs: 100, maxUnderWay: 10 });
	const result = await runWorkflow({
		...actionWorkflow(upsert()),
		credentials: env.credentials(),
		items: contacts(240),
	});
	expectEveryItemOnceInOrder(result, 240);
	const seen = underWayAtArrivals();
	const firstRefused = seen.findIndex((count) => count > 10);
	expect(firstRefused).toBeGreaterThanOrEqual(0);
	// After the first refusals, requests go at or under the platform's number most of the time, and a few are
	// refused: the node tries one more now and then, to follow a platform that serves more again.
	const after = seen.slice(firstRefused + 16);
	expect(median(after)).toBeLessThanOrEqual(10);
	const { throttled } = await env.control('GET', 'requests');
	// The first 16 at once meet a platform that takes 10: 6 refused. From then on the run stays at the number the
	// platform took, one attempt trying one more after 16 good rounds: 7 refused, quiet or with both cores busy (9 to
	// 15 when a round went at one more, each refused late as this platform refuses; 48 to 55 when it halved on each
	// refusal and grew back; 107 at a fixed 16).
	expect(throttled[503]).toBeLessThanOrEqual(9);
	expect(hintsOf(result)).toContainEqual(
		expect.stringMatching(
			/The platform answered "unavailable" \(HTTP 503\) to more at once: the run then kept to (9|10) at once/,
		),
	);
});

test('a platform that gets slower for everyone (4 times) is followed at its new time: fewer at once only until that shows, then back up, and the hint says so', async () => {
	await env.control('POST', 'settings', { latencyMs: 100 });
	// Four times slower once 150 requests came.
	const slowSince = slowDownAfter(150, 400);
	let result: RunResult;
	try {
		result = await runWorkflow({
			...actionWorkflow(upsert()),
			credentials: env.credentials(),
			items: contacts(500),
		});
	} finally {
		slowSince.stop();
	}
	expectEveryItemOnceInOrder(result, 500);
	const slow = env
		.view()
		.arrivals.filter((arrival) => arrival.at > slowSince.at())
		.map((a) => a.underWay);
	// Lowered (a queue of the run's would have shortened), then back at the ceiling once answers were as slow.
	expect(Math.min(...slow.slice(0, slow.length / 3))).toBeLessThanOrEqual(32);
	expect(Math.max(...slow.slice((-slow.length * 2) / 3))).toBe(64);
	expect(hintsOf(result)).toContainEqual(
		expect.stringMatching(
			/Answers took as long with fewer at once \(4\d\d ms\): the platform's own time, not a queue of this run's, so the number, lowered (once|\d+ times) to find that out, went back up\./,
		),
	);
});

test('a fixed Requests in Parallel stays fixed, whatever the platform answers, and the run says nothing of it', async () => {
	await env.control('POST', 'settings', { latencyMs: 50 });
	const slowSince = slowDownAfter(40, 300);
	let result: RunResult;
	try {
		result = await runWorkflow({
			...actionWorkflow(upsert({ parallelRequests: 8 })),
			credentials: env.credentials(),
			items: contacts(160),
		});
	} finally {
		slowSince.stop();
	}
	expectEveryItemOnceInOrder(result, 160);
	const { arrivals } = env.view();
	expect(Math.max(...arrivals.map((a) => a.underWay))).toBe(8);
	// Still 8 at once well after the answers became six times slower.
	const slow = arrivals.filter((arrival) => arrival.at > slowSince.at() + 700);
	expect(slow.length).toBeGreaterThan(16);
	expect(Math.max(...slow.map((a) => a.underWay))).toBe(8);
	expect(hintsOf(result).filter((hint) => hint.includes('followed the platform'))).toEqual([]);
});

test('items that save the same contact run in input order while the number at once changes (refusals included): the last one stays', async () => {
	// The platform refuses above 10 at once, so the number is lowered while it rises elsewhere in the run.
	await env.control('POST', 'settings', { latencyMs: 60, maxUnderWay: 10 });
	// Items 0, 7, 14, … save one address with different names; the others their own addresses.
	const items = contacts(300).map((item, i) =>
		i % 7 === 0 ? { json: { email: 'same@example.org', name: `Name ${i}` } } : item,
	);
	const result = await runWorkflow({
		...actionWorkflow(upsert()),
		credentials: env.credentials(),
		items,
	});
	expect(result.error()).toBeUndefined();
	const output = result.output('Mail Delivery');
	expect(output.map((item) => (item.pairedItem as { item: number }).item)).toEqual([
		...Array(300).keys(),
	]);
	const saved = env
		.view()
		.requests.filter((request) => request.path === UPSERT && request.code === 200)
		.map((request) => request.body as IDataObject);
	const same = [...Array(300).keys()].filter((i) => i % 7 === 0);
	expect(
		saved.filter((body) => body.email === 'same@example.org').map((body) => body.name),
	).toEqual(same.map((i) => `Name ${i}`));
	// Every other address saved once.
	const others = saved.filter((body) => body.email !== 'same@example.org').map((b) => b.email);
	expect(new Set(others).size).toBe(others.length);
	expect(others).toHaveLength(300 - same.length);
	expect(env.view().state.contacts.find((c) => c.email === 'same@example.org')?.name).toBe(
		`Name ${same.at(-1)}`,
	);
});

// Answers that vary (20 to 320 ms) are slower than 1.5 times the fastest without any queue. Followed down as a queue
// before: 300 contacts took 36.7 s, at most 16 at once, and the hint said "Fewer went at once 12 times when answers
// waited at the platform". Now about 2 s, lowered once, up to 64.
test('a platform whose answers vary (20 to 320 ms) is not taken for a queue: the number goes back up, and the hint says they are its own time', async () => {
	await env.control('POST', 'settings', { latencyMs: 20, latencyJitterMs: 300 });
	const result = await runWorkflow({
		...actionWorkflow(upsert()),
		credentials: env.credentials(),
		items: contacts(300),
	});
	expectEveryItemOnceInOrder(result, 300);
	const hints = hintsOf(result).join(' ');
	expect(hints).toMatch(
		/Answers took as long with fewer at once \(\d+ ms\): the platform's own time, not a queue of this run's, so the number, lowered (once|\d times) to find that out, went back up\./,
	);
	expect(hints).not.toMatch(/waited at the platform/);
	expect(Number(/at most (\d+) at once/.exec(hints)?.[1])).toBeGreaterThanOrEqual(40);
});
