/**
 * How many requests of one run are under way at once. Fixed (Options → Requests in Parallel), or, by default,
 * following the platform between 1 and a ceiling, the way gradient controllers follow a service (Envoy's adaptive
 * concurrency filter, Netflix's Gradient2): keep answers near the platform's own answer time, and stay below the
 * number at which it refuses.
 *
 * - The platform's own answer time ("unloaded") is the fastest answer seen: under load some requests still meet
 *   a free server (the first of a round do), while a round's median also holds the time spent waiting in its queue
 *   and this process's own work. A round ends once about as many attempts came back as the limit allows at once
 *   (at least MIN_ROUND); its answer time is its median.
 * - A round whose median is within TOLERANCE × the unloaded time, nothing refused, with the limit in use (as many
 *   attempts on the wire as allowed at some point), raises the limit: doubled while nothing has slowed the run (a
 *   slow start, as TCP's), then by its square root (Gradient2's headroom). New places open one by one over one
 *   unloaded answer time, not in a burst, so that a platform that refuses at once above a number ("not now") is
 *   heard from before many more are sent (four times, or over half the time, sent 3 to 14% above such an edge).
 * - Two slower rounds in a row lower the limit in proportion, to TOLERANCE × unloaded ÷ the round's time (at most
 *   halved: Gradient's gradient), which settles where answers start to queue; one alone holds it (this process's own
 *   work slows some rounds: in real n8n at 64 at once, 50,000 sends took 1.38 times a fixed 64 lowering on one). A round slower than SLOWER_THAN × unloaded
 *   also moves the unloaded time a quarter of the way towards it: a platform slower for everyone is not followed
 *   down to one request at a time.
 * - "Not now" (HTTP 503) says how many at once the platform takes: the attempts on the wire when the refused one
 *   was sent, less one, is the most the run sends from then on (the edge); a refusal within it lowers it by a tenth
 *   (this process counts an attempt a little before the platform does); after PROBE_ROUNDS good rounds at it, one
 *   more is tried, and a refusal there doubles the wait before the next try. No answer at all (a time-out, a
 *   broken connection) halves the limit. Refusals of attempts that left before a lowering are the same congestion.
 * - "Too many requests" (HTTP 429) is a rate: the run's pacer spaces starts to it (pacing.ts), and it leaves the
 *   number at once as it is. An attempt waiting for its pacing or a Retry-After holds its place but is not on the
 *   wire: only attempts on the wire show whether the limit is in use.
 *
 * Output order, pairing and everything else of the run are the engine's (run/engine.ts): this only says when the
 * next request may start. The engine takes a place (`acquire`) before a request and gives it back when it is
 * answered; the transport reports each attempt as it is sent (`sending`) and its answer time or refusal
 * (`answered`, `refused`).
 */
import { sleep } from 'n8n-workflow';

/** The figures of a run, for its execution hint. */
export interface ConcurrencyFigures {
	adaptive: boolean;
	start: number;
	ceiling: number;
	/** The most requests allowed at once at any point, and at the end. */
	highest: number;
	final: number;
	/** The most attempts that were on the wire at once. */
	mostOnWire: number;
	/** After the platform said "not now" (503) to more at once: the most the run then sent at once. */
	keptTo?: number;
	/** Times lowered: on slower answers. */
	loweredOnSlowAnswers: number;
	/** Attempts refused (429, 503) or not answered (time-out, connection broken). */
	refusals: number;
	/** The fastest answer (the platform's own time) and the median of every answer, in ms. */
	fastestMs?: number;
	medianMs?: number;
	/** Attempts made (answered or refused). */
	attempts: number;
}

/** Requests at once when a run starts following the platform, and the ceiling it follows it up to. */
export const ADAPTIVE_START = 16;
export const DEFAULT_CEILING = 64;

/** How much a good round multiplies the limit by while nothing has slowed the run (TCP's slow start). */
const SLOW_START_GROWTH = 2;
/** The fewest answers a round waits for: fewer make its median noise. */
const MIN_ROUND = 4;
/** A round answered within this many times the unloaded time may grow; a slower one is lowered towards it. */
const TOLERANCE = 1.5;
/** A round slower than this many times the unloaded time moves the unloaded time towards it. */
const SLOWER_THAN = 2;
/** How much of the way from the unloaded time to a much slower round's time it moves. */
const DRIFT = 0.25;
/** The most a round lowers the limit: to this share of it. */
const MOST_LOWERED = 0.5;
/** A refusal within the edge lowers it to this share. */
const EDGE_AGAIN = 0.9;
/** Good rounds at the edge before one more at once is tried (doubled after each refused try). */
const PROBE_ROUNDS = 16;
/** The new places of a raise open over this share of the unloaded answer time (or of OPEN_OVER_MS, none known). */
const OPEN_SHARE = 1;
const OPEN_OVER_MS = 100;

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
};

/** Answer times by 1 ms up to a second, then by 10 ms: the run's median without keeping every time. */
class AnswerTimes {
	private readonly counts = new Map<number, number>();
	private count = 0;

	add(ms: number) {
		const bucket = ms < 1000 ? Math.round(ms) : Math.round(ms / 10) * 10;
		this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + 1);
		this.count++;
	}

	get median(): number | undefined {
		if (this.count === 0) return undefined;
		let seen = 0;
		for (const bucket of [...this.counts.keys()].sort((a, b) => a - b)) {
			seen += this.counts.get(bucket)!;
			if (seen > this.count / 2) return bucket;
		}
		return undefined;
	}
}

/** An attempt on the wire: its number in the run, and how many were on the wire with it when it left. */
export interface Attempt {
	number: number;
	onWire: number;
}

export class ConcurrencyLimit {
	/** Requests allowed at once; fractional while it grows by square roots. */
	private limit: number;
	/** Places taken: requests on the wire and those waiting for their pacing or a Retry-After. */
	private underWay = 0;
	private onWire = 0;
	private readonly waiting: Array<() => void> = [];

	/** Doubling until the first refusal or slower round. */
	private slowStart = true;
	/** Whether the last round was slower than TOLERANCE allows. */
	private slowBefore = false;
	/** The platform's own answer time, in ms (undefined until an answer came). */
	private unloadedMs: number | undefined;
	/** At most this many at once, since the platform refused above it (503). */
	private cap: number | undefined;
	private goodRoundsAtCap = 0;
	private probeRounds = PROBE_ROUNDS;
	/** The latest raise: its places open one by one (from `from`, one every `everyMs` since `at`). */
	private opening: { from: number; at: number; everyMs: number } | undefined;
	private openingTimer = false;

	/** This round: answer times, refusals, attempts counted, the most on the wire. */
	private roundMs: number[] = [];
	private roundRefused = false;
	private roundEvents = 0;
	private roundBusiest = 0;
	/** Attempts sent so far; those numbered below `calmFrom` left before the last lowering on a refusal. */
	private sent = 0;
	private calmFrom = 0;

	private readonly times = new AnswerTimes();
	private fastestMs = Infinity;
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
			mostOnWire: 0,
			loweredOnSlowAnswers: 0,
			refusals: 0,
			attempts: 0,
		};
	}

	/** Requests allowed at once now (the places of a raise that have opened so far). */
	get allowed(): number {
		const limit = Math.max(1, Math.floor(this.limit));
		if (!this.opening) return limit;
		const opened =
			this.opening.from + 1 + Math.floor((Date.now() - this.opening.at) / this.opening.everyMs);
		if (opened >= limit) this.opening = undefined;
		return Math.min(limit, opened);
	}

	/** What the run did, so far. */
	get summary(): ConcurrencyFigures {
		return {
			...this.figures,
			final: Math.max(1, Math.floor(this.limit)),
			keptTo: this.cap,
			fastestMs: this.unloadedMs === undefined ? undefined : Math.round(this.fastestMs),
			medianMs: this.times.median,
		};
	}

	/**
	 * Resolves when one more request may start, with the function that gives its place back (once, whenever it
	 * is called again) for the next waiting request.
	 */
	async acquire(): Promise<() => void> {
		if (this.waiting.length === 0 && this.underWay < this.allowed) this.underWay++;
		else await new Promise<void>((resolve) => this.waiting.push(resolve));
		let held = true;
		return () => {
			if (!held) return;
			held = false;
			this.underWay--;
			this.wake();
		};
	}

	/** An attempt leaves now (its pacing and any Retry-After waited out): its number, and how many are on the wire with it. */
	sending(): Attempt {
		this.onWire++;
		this.roundBusiest = Math.max(this.roundBusiest, this.onWire);
		this.figures.mostOnWire = Math.max(this.figures.mostOnWire, this.onWire);
		return { number: this.sent++, onWire: this.onWire };
	}

	/** The platform answered an attempt after `ms` (whatever it said, but "too many" and "not now"). */
	answered(ms: number) {
		this.onWire = Math.max(0, this.onWire - 1);
		if (!this.adaptive) return;
		this.figures.attempts++;
		this.roundMs.push(ms);
		this.times.add(ms);
		if (ms < this.fastestMs) this.fastestMs = ms;
		this.event();
	}

	/**
	 * The platform refused an attempt unprocessed (`notNow`: 503; `tooMany`: 429), or did not answer it (`noAnswer`:
	 * a time-out, a broken connection). An attempt that left before the last lowering on a refusal is of the same
	 * congestion: it lowers nothing more.
	 */
	refused(
		why: 'notNow' | 'tooMany' | 'noAnswer',
		attempt: Attempt = { number: this.sent, onWire: this.onWire },
	) {
		this.onWire = Math.max(0, this.onWire - 1);
		if (!this.adaptive) return;
		this.figures.attempts++;
		this.figures.refusals++;
		// A round with a refusal of any kind raises nothing; a rate (429) is the pacer's to follow, not the number's.
		this.roundRefused = true;
		if (why !== 'tooMany' && attempt.number >= this.calmFrom) {
			this.slowStart = false;
			this.opening = undefined;
			if (why === 'notNow') this.lowerCap(attempt.onWire - 1);
			else this.setLimit(this.limit * MOST_LOWERED);
			this.calmFrom = this.sent;
		}
		this.event();
	}

	/**
	 * The platform said "not now" to an attempt that left with `most` others on the wire: no more than that at once
	 * from now on. Refused again within it: this process counts an attempt on the wire a little before the platform
	 * does (its body and signature on the way), so the edge it saw was too high: a tenth lower. Refused where a probe
	 * went: twice as long before the next.
	 */
	private lowerCap(most: number) {
		let cap = Math.max(1, most);
		if (this.cap !== undefined) {
			if (most >= this.cap) this.probeRounds *= 2;
			cap = Math.min(cap, Math.floor(this.cap * EDGE_AGAIN));
		}
		this.goodRoundsAtCap = 0;
		this.cap = Math.max(1, cap);
		this.setLimit(Math.min(this.limit, this.cap));
	}

	private wake() {
		let allowed = this.allowed;
		while (this.waiting.length > 0 && this.underWay < allowed) {
			this.underWay++;
			this.waiting.shift()!();
			allowed = this.allowed;
		}
		// Places of a raise still to open: look again when the next one does.
		if (this.waiting.length > 0 && this.opening && !this.openingTimer) {
			this.openingTimer = true;
			void sleep(this.opening.everyMs).then(() => {
				this.openingTimer = false;
				this.wake();
			});
		}
	}

	private event() {
		this.roundEvents++;
		if (this.roundEvents >= Math.max(MIN_ROUND, Math.floor(this.limit))) this.endRound();
	}

	private endRound() {
		const refused = this.roundRefused;
		const busiest = this.roundBusiest;
		const times = this.roundMs;
		this.roundMs = [];
		this.roundRefused = false;
		this.roundEvents = 0;
		this.roundBusiest = this.onWire;
		if (times.length === 0 || refused) return;
		const roundMs = median(times);
		this.unloadedMs = Math.min(this.unloadedMs ?? Infinity, Math.min(...times));
		const ratio = roundMs / this.unloadedMs;
		const slowBefore = this.slowBefore;
		this.slowBefore = false;
		if (ratio > TOLERANCE) {
			this.slowStart = false;
			// One slow round holds the number (this process's own work can slow a round's answers: measured at 64 at
			// once, medians 1.2 times the fastest); two in a row mean answers wait at the platform: fewer at once, to
			// where they would not.
			if (!slowBefore) {
				this.slowBefore = true;
				return;
			}
			this.setLimit(this.limit * Math.max(MOST_LOWERED, TOLERANCE / ratio));
			this.figures.loweredOnSlowAnswers++;
			// Much slower: the platform may be slower for everyone; do not follow it down to one at a time.
			if (ratio > SLOWER_THAN) this.unloadedMs += (roundMs - this.unloadedMs) * DRIFT;
			return;
		}
		// Only a limit in use is known to be fine: one the run did not fill says nothing about the platform.
		if (busiest < Math.floor(this.limit)) return;
		if (this.cap !== undefined && this.limit >= this.cap) {
			if (++this.goodRoundsAtCap < this.probeRounds) return;
			this.goodRoundsAtCap = 0;
			this.cap++;
		}
		const raised = this.slowStart
			? this.limit * SLOW_START_GROWTH
			: this.limit + Math.sqrt(this.limit);
		this.raise(Math.min(raised, this.cap ?? Infinity));
	}

	/** A higher limit, its new places opening one by one over an unloaded answer time. */
	private raise(limit: number) {
		const from = Math.max(1, Math.floor(this.limit));
		const added = Math.floor(Math.min(this.ceiling, limit)) - from;
		if (added > 1)
			this.opening = {
				from,
				at: Date.now(),
				everyMs: ((this.unloadedMs ?? OPEN_OVER_MS) * OPEN_SHARE) / added,
			};
		this.setLimit(limit);
	}

	private setLimit(limit: number) {
		this.limit = Math.min(this.ceiling, Math.max(1, limit));
		this.figures.highest = Math.max(this.figures.highest, Math.floor(this.limit));
		this.wake();
	}
}
