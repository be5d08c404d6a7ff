import { sleep } from 'n8n-workflow';

const SECOND_MS = 1000;
/** Starts are spaced for this share of the rate the platform was seen to accept, so jitter stays under its limit. */
const SAFETY = 0.95;
/** Without a refusal for this long, one more request a second is tried. */
const PROBE_AFTER_MS = 3000;
/** After a refusal of a rate that was tried, no higher rate is tried for this long: the limit was found. */
const SETTLE_MS = 30_000;

/**
 * Paces the requests of one run to the rate the platform accepts. Nothing is paced until the platform
 * answers 429 ("too many requests"); then the requests it accepted in the second before that answer
 * are its rate, and after a second's pause (the platform still counts the burst) starts are spaced to
 * just under it. Every three seconds without a refusal the rate goes up by one request a second, to
 * follow a limit that rises; once a rate tried that way is refused, the one below it is kept for 30 s.
 * Retries go through it too, so a steady limit sees few refusals instead of bursts refused by half.
 */
export class RequestPacer {
	/** Start times of attempts the platform accepted, over the last second. */
	private accepted: number[] = [];
	/** Requests per second, once the platform refused one; undefined: unpaced. */
	private rate: number | undefined;
	private nextStart = 0;
	private lastChange = 0;
	/** Until then no higher rate is tried. */
	private settledUntil = 0;
	/**
	 * The first requests, sent at once before anything is known, and not yet answered. Their answers come
	 * within milliseconds of each other: an early "accepted" must not start a second unpaced wave before a
	 * "too many requests" among them is seen, so until the first wave is answered no other request starts.
	 */
	private firstWave = { open: true, pending: 0, answered: Promise.resolve(), done: () => {} };

	/** Waits for this attempt's turn; returns its start time, to report with accepted(). */
	async beforeAttempt(): Promise<number> {
		if (this.rate === undefined && this.firstWave.open) {
			if (this.firstWave.pending === 0)
				this.firstWave.answered = new Promise((resolve) => (this.firstWave.done = resolve));
			this.firstWave.pending++;
			return Date.now();
		}
		await this.firstWave.answered;
		if (this.rate === undefined) return Date.now();
		const now = Date.now();
		const start = Math.max(now, this.nextStart);
		this.nextStart = start + SECOND_MS / (this.rate * SAFETY);
		if (start > now) await sleep(start - now);
		return start;
	}

	/** An attempt was answered, whatever the answer (called by each of the outcomes below). */
	private answered() {
		// Requests after the first wave start only once it is all answered: then pending is 0.
		if (this.firstWave.pending === 0) return;
		// The first answer closes the first wave to newcomers; the last one lets them start.
		this.firstWave.open = false;
		if (--this.firstWave.pending === 0) this.firstWave.done();
	}

	/** The platform answered something other than accepted or 429 (an error, a 503). */
	onOtherAnswer() {
		this.answered();
	}

	/** The platform processed the attempt that started at `startedAt`. */
	onAccepted(startedAt: number) {
		this.answered();
		const now = Date.now();
		this.accepted.push(startedAt);
		while (this.accepted.length > 0 && this.accepted[0] <= now - SECOND_MS) this.accepted.shift();
		if (
			this.rate !== undefined &&
			now >= this.settledUntil &&
			now - this.lastChange >= PROBE_AFTER_MS
		) {
			this.rate += 1;
			this.lastChange = now;
		}
	}

	/** The platform answered 429: its rate is what it accepted in the last second. */
	onTooManyRequests() {
		this.answered();
		const now = Date.now();
		if (this.rate !== undefined && now - this.lastChange < SECOND_MS) return;
		// First refusal: the platform's rate is what it accepted in the last second. Paced already: one slower.
		if (this.rate === undefined)
			this.rate = Math.max(1, this.accepted.filter((at) => at > now - SECOND_MS).length);
		else {
			this.rate = Math.max(1, this.rate - 1);
			this.settledUntil = now + SETTLE_MS;
		}
		this.lastChange = now;
		// The platform counts the last second's requests: let them age out before the paced ones start.
		this.nextStart = Math.max(this.nextStart, now + SECOND_MS);
	}
}
