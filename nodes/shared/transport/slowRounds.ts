/**
 * Rounds of a run following the platform (concurrency.ts) whose answers came back slower than the platform's own time
 * allows: one alone holds the number (this process's own work can slow a round: at 64 at once, medians 1.2 times the
 * fastest); two in a row mean answers wait at the platform, and the number is lowered in proportion, at most halved,
 * to where they would not. Answers as slow at half the number where the slow rounds began, or at one at once, wait in
 * no queue of the run's: the platform is slower for everyone, or its answers vary, and that is its own time now.
 */
import { MOST_LOWERED, TOLERANCE, notOurQueue } from './concurrencyTuning';

/** What a slower round does: nothing yet, a lower number, or a new own time for the platform and the number then. */
type SlowRound = 'hold' | { lowerTo: number } | { platformMs: number; limit: number };

export class SlowRounds {
	/** Whether the last round was slower (and held). */
	private before = false;
	/** The number and median answer time the slow rounds began at. */
	private since: { limit: number; roundMs: number } | undefined;

	/** A round within the platform's own time: the slow rounds, if any, are over. */
	fine() {
		this.before = false;
		this.since = undefined;
	}

	/** A round whose median `roundMs` was slower than `unloadedMs` allows, at `limit`, at most `busiest` on the wire. */
	slow(roundMs: number, unloadedMs: number, limit: number, busiest: number): SlowRound {
		const since = (this.since ??= { limit, roundMs });
		this.before = !this.before;
		if (this.before) return 'hold';
		if (notOurQueue(limit / since.limit, roundMs / since.roundMs)) {
			this.since = undefined;
			return { platformMs: roundMs, limit: since.limit };
		}
		if (busiest <= 1) return { platformMs: roundMs, limit };
		return { lowerTo: limit * Math.max(MOST_LOWERED, TOLERANCE / (roundMs / unloadedMs)) };
	}
}
