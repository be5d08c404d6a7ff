/**
 * How many requests of one run are under way at once. Fixed (Options → Requests in Parallel), or, by default,
 * following the platform between 1 and a ceiling (Options → Max in Parallel), the way Netflix's
 * concurrency-limits (AIMD, Gradient2) and Envoy's adaptive concurrency filter follow a service:
 *
 * - The run starts `start` requests at once. Answers are looked at by rounds: a round ends once about as many
 *   answers came back as the limit allows at once (at least MIN_ROUND). The round's answer time is its median.
 * - The first round's answer time is the baseline: how fast the platform answers this run ("the first ones").
 * - A round whose answers came within GROW_WITHIN × the baseline, nothing refused, with the limit in use (as many
 *   under way as allowed at some point), raises the limit: doubled while nothing has slowed the run yet (a slow
 *   start, as TCP's), then by its square root (Gradient2's and Envoy's headroom). Never above the ceiling.
 * - An answer that means "too many" or "not now" (HTTP 429, 503) or no answer at all (a time-out, a broken
 *   connection) halves the limit at once, once per round of answers to requests already under way: further
 *   refusals of those requests are the same congestion.
 * - A round slower than SLOWER_THAN × the baseline lowers the limit in proportion (to SLOWER_THAN × baseline ÷
 *   the round's time, at most halved: Gradient's gradient), and the baseline moves a quarter of the way towards
 *   the slower time: a platform that stays slower whatever the node does is not followed down to one request at
 *   a time. A round between GROW_WITHIN and SLOWER_THAN × the baseline holds the limit (and ends the doubling).
 *   A faster round lowers the baseline to its time at once, and growth resumes.
 *
 * Output order, pairing and everything else of the run are the engine's (run/engine.ts): this only says when the
 * next request may start. The engine takes a place (`acquire`) before a request and gives it back when it is
 * answered; the transport reports each attempt's answer time or refusal (`answered`, `refused`).
 */

/** The figures of a run, for its execution hint. */
export interface ConcurrencyFigures {
	adaptive: boolean;
	start: number;
	ceiling: number;
	/** The most requests allowed at once at any point, and at the end. */
	highest: number;
	final: number;
	/** The least allowed at once after the highest was reached (the highest when never lowered). */
	lowestAfterHighest: number;
	/** Times lowered: on a refusal or no answer, on answers slowing down. */
	loweredOnRefusals: number;
	loweredOnSlowAnswers: number;
	/** Attempts refused (429, 503) or not answered (time-out, connection broken). */
	refusals: number;
	/** Median answer time of the first round and of the last, in ms. */
	firstRoundMs?: number;
	lastRoundMs?: number;
	/** Requests made (attempts answered or refused). */
	attempts: number;
}

/** Requests at once when a run starts following the platform, and the ceiling by default and at most. */
export const ADAPTIVE_START = 16;
export const DEFAULT_CEILING = 64;

/** The fewest answers a round waits for: fewer make its median noise. */
const MIN_ROUND = 4;
/** A round answered within this many times the baseline raises the limit. */
const GROW_WITHIN = 1.5;
/** A round answered slower than this many times the baseline lowers it. */
const SLOWER_THAN = 2;
/** How much of the way from the baseline to a slower round's time the baseline moves. */
const BASELINE_DRIFT = 0.25;
/** The most a round lowers the limit: to this share of it. */
const MOST_LOWERED = 0.5;

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
};

export class ConcurrencyLimit {
	/** Requests allowed at once; fractional while it grows by square roots. */
	private limit: number;
	private underWay = 0;
	private readonly waiting: Array<() => void> = [];

	/** Doubling until the first refusal or slower round. */
	private slowStart = true;
	/** The platform's answer time for this run, in ms (undefined until the first round ends). */
	private baselineMs: number | undefined;

	/** This round: answer times, refusals, answers and refusals counted, the most under way. */
	private roundMs: number[] = [];
	private roundRefused = false;
	private roundEvents = 0;
	private roundBusiest = 0;
	/** Answers and refusals still to come from requests under way when the limit was last lowered on a refusal. */
	private recovering = 0;

	private readonly figures: ConcurrencyFigures;

	/**
	 * `start` requests at once; with `adaptive`, following the platform between 1 and `ceiling` from there,
	 * otherwise always `start`.
	 */
	constructor(
		start: number,
		private readonly ceiling: number,
		private readonly adaptive: boolean,
	) {
		this.limit = adaptive ? Math.min(start, ceiling) : start;
		this.figures = {
			adaptive,
			start: this.allowed,
			ceiling: adaptive ? ceiling : start,
			highest: this.allowed,
			final: this.allowed,
			lowestAfterHighest: this.allowed,
			loweredOnRefusals: 0,
			loweredOnSlowAnswers: 0,
			refusals: 0,
			attempts: 0,
		};
	}

	/** Requests allowed at once now. */
	get allowed(): number {
		return Math.max(1, Math.floor(this.limit));
	}

	/** What the run did, so far. */
	get summary(): ConcurrencyFigures {
		return { ...this.figures, final: this.allowed };
	}

	/**
	 * Resolves when one more request may start, with the function that gives its place back (once, whenever it
	 * is called again) for the next waiting request.
	 */
	async acquire(): Promise<() => void> {
		if (this.waiting.length === 0 && this.underWay < this.allowed) this.take();
		else await new Promise<void>((resolve) => this.waiting.push(resolve));
		let held = true;
		return () => {
			if (!held) return;
			held = false;
			this.underWay--;
			this.wake();
		};
	}

	/** The platform answered an attempt after `ms` (whatever it said, but "too many" and "not now"). */
	answered(ms: number) {
		if (!this.adaptive) return;
		this.figures.attempts++;
		this.roundMs.push(ms);
		this.event();
	}

	/** The platform refused an attempt unprocessed (429, 503), or did not answer it (a time-out, a broken connection). */
	refused() {
		if (!this.adaptive) return;
		this.figures.attempts++;
		this.figures.refusals++;
		this.roundRefused = true;
		if (this.recovering === 0) {
			this.setLimit(this.limit * MOST_LOWERED);
			this.figures.loweredOnRefusals++;
			this.slowStart = false;
			// The requests under way now were sent at the old limit: their refusals are the same congestion.
			this.recovering = this.underWay;
		}
		this.event();
	}

	private take() {
		this.underWay++;
		this.roundBusiest = Math.max(this.roundBusiest, this.underWay);
	}

	private wake() {
		while (this.waiting.length > 0 && this.underWay < this.allowed) {
			this.take();
			this.waiting.shift()!();
		}
	}

	private event() {
		if (this.recovering > 0) this.recovering--;
		this.roundEvents++;
		if (this.roundEvents >= Math.max(MIN_ROUND, this.allowed)) this.endRound();
	}

	private endRound() {
		const refused = this.roundRefused;
		const busiest = this.roundBusiest;
		const times = this.roundMs;
		this.roundMs = [];
		this.roundRefused = false;
		this.roundEvents = 0;
		this.roundBusiest = this.underWay;
		if (times.length === 0) return;
		const roundMs = median(times);
		this.figures.firstRoundMs ??= roundMs;
		this.figures.lastRoundMs = roundMs;
		if (this.baselineMs === undefined || roundMs < this.baselineMs) this.baselineMs = roundMs;
		// A refusal lowered the limit already.
		if (refused) return;
		if (roundMs > GROW_WITHIN * this.baselineMs) {
			// Slower than the first ones: no more doubling. Much slower: fewer at once, and the baseline moves towards
			// the slower time, so that a platform slower for everyone is not followed down to one at a time.
			this.slowStart = false;
			if (roundMs > SLOWER_THAN * this.baselineMs) {
				this.setLimit(
					this.limit * Math.max(MOST_LOWERED, (SLOWER_THAN * this.baselineMs) / roundMs),
				);
				this.figures.loweredOnSlowAnswers++;
				this.baselineMs += (roundMs - this.baselineMs) * BASELINE_DRIFT;
			}
			return;
		}
		// Only a limit in use is known to be fine: one the run did not fill says nothing about the platform.
		if (busiest < this.allowed) return;
		this.setLimit(this.slowStart ? this.limit * 2 : this.limit + Math.sqrt(this.limit));
	}

	private setLimit(limit: number) {
		this.limit = Math.min(this.ceiling, Math.max(1, limit));
		const allowed = this.allowed;
		if (allowed > this.figures.highest) {
			this.figures.highest = allowed;
			this.figures.lowestAfterHighest = allowed;
		} else this.figures.lowestAfterHighest = Math.min(this.figures.lowestAfterHighest, allowed);
		this.wake();
	}
}
