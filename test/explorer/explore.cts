/**
 * The history explorer: runs random histories (seeded, reproducible) against the emulator and shrinks the first that
 * breaks the promise to a short one, printed as a test. `npm run explore -- --histories 5000 --seed 7` runs a long
 * exploration (cli.cts); never-twice.test.cts runs a short one in `npm test`.
 */
import fc from 'fast-check';

import { type Emulator, startEmulator } from '../../emulator/server.cts';
import { asTest, historyArbitrary } from './arbitraries.cts';
import { restoreClock } from './clock.cts';
import { type Outcome, runHistory } from './history.cts';

export interface Exploration {
	seed: number;
	histories: number;
	ms: number;
	/** The shrunk history that broke the promise, as a test, with what it broke. */
	failure?: string;
	/** Executions by how they ended, retries that sent, and refusals, over every history. */
	totals: Record<string, number>;
}

export async function explore(
	{ histories, seed }: { histories: number; seed: number },
	progress: (done: number) => void = () => {},
): Promise<Exploration> {
	const emulator: Emulator = await startEmulator({});
	const totals: Record<string, number> = {};
	let done = 0;
	let last: Outcome | undefined;
	const started = Date.now();
	try {
		const property = fc.asyncProperty(historyArbitrary, async ([setup, steps]) => {
			last = await runHistory(emulator, setup, steps);
			for (const line of last.executions) {
				const status = line.replace(/^\d+ /, '').replace(/ of \d+/, '');
				totals[status] = (totals[status] ?? 0) + 1;
			}
			totals.refusals = (totals.refusals ?? 0) + last.stats.refusals;
			totals.loneRetries = (totals.loneRetries ?? 0) + last.stats.loneRetries;
			progress(++done);
			return last.violations.length === 0;
		});
		const details = await fc.check(property, { seed, numRuns: histories });
		const exploration = { seed, histories: done, ms: Date.now() - started, totals };
		if (!details.failed || !details.counterexample) return exploration;
		const [setup, steps] = details.counterexample[0];
		const outcome = await runHistory(emulator, setup, steps);
		const title = `explorer seed ${seed}, path ${details.counterexamplePath}: ${outcome.violations[0] ?? 'breaks the promise'}`;
		return {
			...exploration,
			failure: [
				asTest(title, setup, outcome.steps, outcome.violations),
				`// executions: ${outcome.executions.join('; ')}`,
			].join('\n'),
		};
	} finally {
		restoreClock();
		await emulator.stop();
	}
}
