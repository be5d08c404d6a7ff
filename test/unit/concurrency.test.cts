/**
 * The number of requests at once that follows the platform (nodes/shared/transport/concurrency.ts), driven round
 * by round as the engine and the transport drive it: a permit per request, each attempt's answer time or refusal.
 */
import {
	ConcurrencyLimit,
	type ConcurrencyFigures,
} from '../../nodes/shared/transport/concurrency';

/** Starts `count` requests (all the limit allows by default), then answers each after `ms` or refuses it. */
async function round(
	limit: ConcurrencyLimit,
	answer: number | 'refused',
	count = limit.allowed,
): Promise<number> {
	const places = [];
	for (let i = 0; i < count; i++) places.push(await limit.acquire());
	for (const release of places) {
		if (answer === 'refused') limit.refused();
		else limit.answered(answer);
		release();
	}
	return limit.allowed;
}

test('while answers come as fast as the first ones, the number doubles from 16 up to the ceiling, and stays there', async () => {
	const limit = new ConcurrencyLimit(16, 64, true);
	expect(limit.allowed).toBe(16);
	const seen = [];
	for (let i = 0; i < 4; i++) seen.push(await round(limit, 150 + (i % 2) * 20));
	expect(seen).toEqual([32, 64, 64, 64]);
	expect(limit.summary).toMatchObject({ start: 16, highest: 64, final: 64, refusals: 0 });
});

test('a number the run does not fill is not raised: only one in use is known to suit the platform', async () => {
	const limit = new ConcurrencyLimit(16, 64, true);
	for (let i = 0; i < 5; i++) await round(limit, 150, 5);
	expect(limit.allowed).toBe(16);
});

test('refusals (429, 503, no answer) halve the number once per round of requests already under way, then it grows by its square root', async () => {
	const limit = new ConcurrencyLimit(16, 64, true);
	await round(limit, 150);
	await round(limit, 150);
	expect(limit.allowed).toBe(64);
	// Ten of the 64 under way are refused: one congestion, one halving.
	const places = [];
	for (let i = 0; i < 64; i++) places.push(await limit.acquire());
	for (const [i, release] of places.entries()) {
		if (i % 6 === 0) limit.refused();
		else limit.answered(150);
		release();
	}
	expect(limit.allowed).toBe(32);
	// No more doubling: the next good round adds √32.
	expect(await round(limit, 150)).toBe(37);
	expect(limit.summary).toMatchObject({
		highest: 64,
		lowestAfterHighest: 32,
		loweredOnRefusals: 1,
		refusals: 11,
	});
	// Refused again and again: down to one at a time, never none.
	for (let i = 0; i < 10; i++) await round(limit, 'refused');
	expect(limit.allowed).toBe(1);
});

test('slower answers lower the number in proportion; held while the platform stays slower, growing again once it answers as fast as at first', async () => {
	const limit = new ConcurrencyLimit(16, 64, true);
	await round(limit, 100);
	await round(limit, 100);
	expect(limit.allowed).toBe(64);
	// Three times slower: to 2 × 100 / 300 of it.
	expect(await round(limit, 300)).toBe(42);
	// Still three times slower than at first, 1.5 times the baseline moved towards it: held there.
	const after = [];
	for (let i = 0; i < 4; i++) after.push(await round(limit, 300));
	expect(after).toEqual([42, 42, 42, 42]);
	// As fast as at first again: growing again, by square roots (no more doubling).
	expect(await round(limit, 100)).toBe(49);
	expect(limit.summary).toMatchObject({ loweredOnSlowAnswers: 1, lowestAfterHighest: 42 });
	// Answers between 1.5 and 2 times the baseline neither raise nor lower it.
	const held = new ConcurrencyLimit(16, 64, true);
	await round(held, 100);
	expect(await round(held, 180)).toBe(32);
});

test('a fixed number never moves, whatever the answers', async () => {
	const limit = new ConcurrencyLimit(4, 4, false);
	await round(limit, 100);
	await round(limit, 'refused');
	await round(limit, 1000);
	expect(limit.allowed).toBe(4);
	expect(limit.summary).toMatchObject({ adaptive: false, highest: 4, final: 4 });
});

test('never more under way than allowed; waiting requests start in the order they asked, as places free up', async () => {
	const limit = new ConcurrencyLimit(2, 2, false);
	const started: number[] = [];
	const places: Array<() => void> = [];
	const requests = [0, 1, 2, 3, 4].map(async (index) => {
		places[index] = await limit.acquire();
		started.push(index);
	});
	const settle = async () => await new Promise((resolve) => setImmediate(resolve));
	await settle();
	expect(started).toEqual([0, 1]);
	places[0]();
	// A place given back twice frees one place only.
	places[0]();
	await settle();
	expect(started).toEqual([0, 1, 2]);
	places[1]();
	places[2]();
	await Promise.all(requests);
	expect(started).toEqual([0, 1, 2, 3, 4]);
});

test('the execution hint gives the figures of a number that followed the platform, and nothing for a fixed one or one that never moved', async () => {
	const { throughputHints } = await import('../../nodes/MailDelivery/run/report');
	const concurrencyHint = (figures: ConcurrencyFigures) =>
		throughputHints(figures, undefined)[0]?.message;
	const limit = new ConcurrencyLimit(16, 64, true);
	await round(limit, 100);
	await round(limit, 100);
	expect(await round(limit, 300)).toBe(42);
	await round(limit, 'refused');
	expect(concurrencyHint(limit.summary)).toBe(
		'Requests in parallel followed the platform: 16 at first, up to 64 (the ceiling: Options → Max in Parallel), down to 21, 21 at the end. Answers took 100 ms at first and 300 ms at the end (medians). Lowered 1 time on "too many requests", "unavailable" or no answer (42 such answers), 1 time on slower answers. Options → Requests in Parallel sets a fixed number instead.',
	);
	// Fixed: no hint, whatever happened.
	const fixed = new ConcurrencyLimit(8, 8, false);
	await round(fixed, 'refused');
	expect(concurrencyHint(fixed.summary)).toBeUndefined();
	// A run of no more requests than it started with, never lowered: nothing to say.
	const short = new ConcurrencyLimit(16, 64, true);
	await round(short, 100, 10);
	expect(concurrencyHint(short.summary)).toBeUndefined();
	// Paced after a 429, fixed or not: the rate is said.
	expect(throughputHints(fixed.summary, 10).map((hint) => hint.message)).toEqual([
		'After the platform\'s first "too many requests" (HTTP 429), requests were paced to 10 a second (what it had accepted in the second before refusing), probing for more every 3 s without a refusal.',
	]);
});
