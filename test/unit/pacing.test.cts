/**
 * The pace of a run after the platform's first 429 (nodes/shared/transport/pacing.ts): the rate is what the
 * platform accepted in the second before it refused, however the answers come back.
 */
import { RequestPacer } from '../../nodes/shared/transport/pacing';

/** A first wave of `count` requests started together; returns their start times. */
const firstWave = async (pacer: RequestPacer, count: number) =>
	await Promise.all(Array.from({ length: count }, async () => await pacer.beforeAttempt()));

test('a platform that refuses before it works: its 429s come back before the answers it accepted, and the rate is still what it accepted', async () => {
	const pacer = new RequestPacer();
	const starts = await firstWave(pacer, 16);
	// A limit of 10 a second: the platform took the first 10 and refused 6, answered at once.
	for (const start of starts.slice(10)) pacer.onTooManyRequests(start);
	for (const start of starts.slice(0, 10)) pacer.onAccepted(start);
	expect(pacer.pacedRate).toBe(10);
});

test('answers in the order the platform took the requests give the same rate', async () => {
	const pacer = new RequestPacer();
	const starts = await firstWave(pacer, 16);
	for (const start of starts.slice(0, 10)) pacer.onAccepted(start);
	for (const start of starts.slice(10)) pacer.onTooManyRequests(start);
	expect(pacer.pacedRate).toBe(10);
});

test('nothing is paced until the platform refuses', async () => {
	const pacer = new RequestPacer();
	const starts = await firstWave(pacer, 16);
	for (const start of starts) pacer.onAccepted(start);
	expect(pacer.pacedRate).toBeUndefined();
});

test('a platform that accepted none in that second is paced to one a second', async () => {
	const pacer = new RequestPacer();
	const [start] = await firstWave(pacer, 1);
	pacer.onTooManyRequests(start);
	expect(pacer.pacedRate).toBe(1);
});
