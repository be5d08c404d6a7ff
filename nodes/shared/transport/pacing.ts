import { sleep } from 'n8n-workflow';

import { rateFound } from './platformFindings';

const SECOND_MS = 1000;
/** Starts are spaced for this share of the rate the platform was seen to accept, so jitter stays under its limit. */
const SAFETY = 0.95;
/** Without a refusal for this long, one more request a second is tried. */
const PROBE_AFTER_MS = 3000;
/** After a refusal of a rate that was tried, no higher rate is tried for this long: the limit was found. */
const SETTLE_MS = 30_000;
/** How long after the first refusal the answers of requests started before it still correct the rate. */
const ESTIMATE_MS = 5000;
/** How long start times of accepted requests are kept: a refusal's second is read from them. */
const KEPT_MS = ESTIMATE_MS + SECOND_MS;

/**
 * Paces the requests of one run to the rate the platform accepts. Nothing is paced until the platform answers
 * 429 ("too many requests"); then its rate is how many requests it accepted that started within the second
 * before the refused one started, and from a second after that one started (the platform still counts the burst)
 * starts are spaced to just under it. Answers come back in any order (a platform refuses before it works, and
 * n8n handles answers that arrive together in any order): for ESTIMATE_MS after the first refusal, each answer of
 * a request from that second raises the rate to what it shows. Every three seconds without a refusal the rate
 * then goes up by one request a second, to follow a limit that rises; once a rate tried that way is refused, the
 * one below it is kept for 30 s. Retries go through it too, so a steady limit sees few refusals instead of
 * bursts refused by half. The rate found is kept for the runs after to the same platform (platformFindings.ts):
 * they start paced to it, without a first wave sent at once.
 */
export class RequestPacer {
	/** Start times of attempts the platform accepted, over the last KEPT_MS, in the order answered. */
	private accepted: number[] = [];
	/**
	 * While the first refusal's second is still being read: until when, the latest refused start, and how many
	 * accepted attempts started in the second up to it (counted as their answers come: no scan per answer).
	 */
	private estimate: { until: number; refusedStart: number; accepted: number } | undefined;
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
	/** Paced from the start, to the rate an earlier run to the platform found. */
	fromEarlierRun = false;
	/** The platform the requests go to, once known (`platform`): the rate found is kept under it. */
	private platformKey: string | undefined;

	/**
	 * The platform the run's requests go to (`key`: the credential and its address), told before each attempt's
	 * turn (the first call counts). A run after one the platform answered "too many requests" starts paced to the
	 * rate found then, and follows the platform from there as any paced run does.
	 */
	platform(key: string | undefined) {
		if (key === undefined || this.platformKey !== undefined) return;
		this.platformKey = key;
		const rate = rateFound.of(key);
		if (rate === undefined) return;
		this.rate = rate;
		this.fromEarlierRun = true;
		this.firstWave.open = false;
		this.lastChange = Date.now();
	}

	/**
	 * Keeps the rate for the runs after: one the platform refused above, or one that held for PROBE_AFTER_MS; not a
	 * rate being tried.
	 */
	private keepRate() {
		if (this.platformKey !== undefined && this.rate !== undefined)
			rateFound.keep(this.platformKey, this.rate);
	}

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
		while (this.accepted.length > 0 && this.accepted[0] <= now - KEPT_MS) this.accepted.shift();
		const estimate = this.estimateAt(now);
		if (estimate) {
			if (startedAt > estimate.refusedStart - SECOND_MS && startedAt <= estimate.refusedStart) {
				this.rate = Math.max(this.rate ?? 1, ++estimate.accepted);
				this.keepRate();
			}
			return;
		}
		if (
			this.rate !== undefined &&
			now >= this.settledUntil &&
			now - this.lastChange >= PROBE_AFTER_MS
		) {
			// The rate held as long as a try waits: kept, then one more a second tried.
			this.keepRate();
			this.rate += 1;
			this.lastChange = now;
		}
	}

	/** Requests per second the run is paced to; undefined: the platform refused none, nothing is paced. */
	get pacedRate(): number | undefined {
		return this.rate;
	}

	private estimateAt(now: number) {
		return this.estimate && now < this.estimate.until ? this.estimate : undefined;
	}

	/** Accepted attempts that started within the second up to `start`. */
	private acceptedInSecondBefore(start: number) {
		return this.accepted.filter((at) => at > start - SECOND_MS && at <= start).length;
	}

	/** The platform answered 429 to the attempt that started at `startedAt`. */
	onTooManyRequests(startedAt: number) {
		this.answered();
		const now = Date.now();
		const estimate = this.estimateAt(now);
		if (this.rate === undefined) {
			// First refusal: the platform's rate is what it accepted in the second before this request started.
			const accepted = this.acceptedInSecondBefore(startedAt);
			this.estimate = { until: now + ESTIMATE_MS, refusedStart: startedAt, accepted };
			this.rate = Math.max(1, accepted);
		} else if (estimate) {
			// More of the same second: its latest refusal shows the most the platform accepted before refusing.
			if (startedAt > estimate.refusedStart) {
				estimate.refusedStart = startedAt;
				estimate.accepted = this.acceptedInSecondBefore(startedAt);
				this.rate = Math.max(this.rate, estimate.accepted);
				this.keepRate();
			}
			return;
		} else if (now - this.lastChange < SECOND_MS) return;
		else {
			// Paced already: one slower.
			this.rate = Math.max(1, this.rate - 1);
			this.settledUntil = now + SETTLE_MS;
		}
		this.lastChange = now;
		this.keepRate();
		// The platform counts the last second's requests: let them age out before the paced ones start (a second
		// after the refused one started: the paced ones take as long to reach the platform as it did).
		this.nextStart = Math.max(this.nextStart, startedAt + SECOND_MS);
	}
}
