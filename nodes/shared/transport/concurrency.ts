/**
 * How many requests of one run are under way at once. Fixed (Options → Requests in Parallel), or, by default,
 * following the platform between 1 and a ceiling, the way gradient controllers follow a service (Envoy's adaptive
 * concurrency filter, Netflix's Gradient2): keep answers near the platform's own answer time, and stay below the
 * number at which it refuses.
 *
 * - The platform's own answer time ("unloaded") is the fastest answer seen: under load some requests still meet
 *   a free server, while a round's median also holds the time spent in its queue and this process's own work. A
 *   round ends once about as many attempts came back as the limit allows at once (at least MIN_ROUND).
 * - Slow start, as TCP's, until the first slower round or refusal: each answer within TOLERANCE × the unloaded time,
 *   with requests waiting for a place, opens one more place (doubling per answer time), and a slower one closes one
 *   (a platform that works on a few and queues the rest answers half fast, half late: it holds). The new places
 *   open an answer interval apart, so a platform that refuses at once above a number ("not now") is heard from
 *   before many more are sent. Then a round within TOLERANCE, nothing refused, with the limit in use (as many on
 *   the wire as allowed), adds its square root (Gradient2's headroom), its places opening over an answer time.
 * - Two slower rounds in a row lower the limit in proportion, to TOLERANCE × unloaded ÷ the round's time (at most
 *   halved), which settles where answers start to queue; one alone holds it (this process's own work slows some
 *   rounds: in real n8n, 50,000 sends took 1.38 times a fixed 64 lowering on one). A round slower than SLOWER_THAN ×
 *   unloaded moves the unloaded time a quarter of the way towards it: a platform slower for everyone is not
 *   followed down to one request at a time.
 * - "Not now" (HTTP 503): the attempts on the wire when the refused one was sent, less one, is the most the run
 *   sends from then on (the edge); a refusal within it lowers it by a tenth (this process counts an attempt a little
 *   before the platform does); after PROBE_ROUNDS good rounds at it one more is tried: refused, the next try waits
 *   twice as long; a whole good round there, the edge is gone. No answer at all (a time-out, a broken connection)
 *   halves the limit. Refusals of attempts that left before a lowering are the same congestion.
 * - "Too many requests" (HTTP 429) is a rate: the run's pacer spaces starts to it (pacing.ts), and the number at
 *   once stays. An attempt waiting for its pacing or a Retry-After holds its place but is not on the wire.
 * - A run after another to the same platform starts where that one ended (platformFindings.ts).
 *
 * Output order, pairing and everything else of the run are the engine's (run/engine.ts): this only says when the
 * next request may start. The engine takes a place (`acquire`) before a request and gives it back when it is
 * answered; the transport tells the platform (`platform`), each attempt as it is sent (`sending`) and its answer
 * time or refusal (`answered`, `refused`).
 */
import { sleep } from 'n8n-workflow';

import { AnswerTimes, median } from './answerTimes';
import type { Attempt, ConcurrencyFigures } from './concurrencyFigures';
import { foundOf, keepFound } from './platformFindings';

/** Requests at once when a run starts following the platform, and the ceiling it follows it up to. */
export const ADAPTIVE_START = 16;
export const DEFAULT_CEILING = 64;

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
/**
 * A run that starts where an earlier one ended opens its places over this share of the answer time: n8n starts no
 * request beyond the first ones until they are all answered (pacing.ts), so a slower opening delays the rest; a
 * platform that now refuses above fewer is heard from before most go.
 */
const OPEN_REMEMBERED_SHARE = 0.25;

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
	/** One more than the edge is being tried. */
	private probing = false;
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

	/** The platform the requests go to, once known (`platform`); what the run finds is kept under it. */
	private platformKey: string | undefined;
	private roundsEnded = 0;

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
			fromEarlierRun: false,
			refusedNotNow: false,
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
			fastestMs: Number.isFinite(this.fastestMs) ? Math.round(this.fastestMs) : undefined,
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
		// Slow start, as TCP's: each answer as fast as the platform's own time, with requests waiting for a place,
		// opens one more place (twice as many a round trip), the answers themselves spacing the new places; a slower
		// one closes one (a platform that queues answers half its requests at once, and half late).
		if (this.slowStart && this.waiting.length > 0) {
			if (ms <= (this.unloadedMs ?? this.fastestMs) * TOLERANCE) this.grow(this.limit + 1);
			else this.setLimit(this.limit - 1);
		}
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
		// A rate: the pacer follows it; nothing more at once would be taken.
		if (why === 'tooMany') this.slowStart = false;
		if (why !== 'tooMany' && attempt.number >= this.calmFrom) {
			this.slowStart = false;
			this.opening = undefined;
			if (why === 'notNow') this.lowerCap(attempt.onWire - 1);
			else this.setLimit(this.limit * MOST_LOWERED);
			this.calmFrom = this.sent;
			this.remember();
		}
		this.event();
	}

	/**
	 * The platform the run's requests go to (`key`: the credential and its address), told before each attempt (the
	 * first call counts). A run after one to the same platform starts where that one ended: its number (the places
	 * opening over a quarter of an answer time), the edge it found, the platform's own answer time. A platform that
	 * changed meanwhile is followed from there as any run follows it.
	 */
	platform(key: string | undefined) {
		if (!this.adaptive || key === undefined || this.platformKey !== undefined) return;
		this.platformKey = key;
		const found = foundOf(key);
		if (!found || this.roundsEnded > 0) return;
		this.figures.fromEarlierRun = true;
		this.unloadedMs = found.unloadedMs;
		this.cap = found.cap;
		this.slowStart = found.slowStart;
		const limit = Math.min(found.limit, found.cap ?? Infinity);
		if (limit > this.limit) this.raise(limit, OPEN_REMEMBERED_SHARE);
		else this.setLimit(limit);
		this.figures.start = Math.max(1, Math.floor(this.limit));
	}

	/** Keeps what the run found of its platform for the runs after it. */
	private remember() {
		if (this.platformKey === undefined || this.unloadedMs === undefined) return;
		keepFound(this.platformKey, {
			limit: Math.max(1, Math.floor(this.limit)),
			cap: this.cap,
			unloadedMs: this.unloadedMs,
			slowStart: this.slowStart,
		});
	}

	/**
	 * The platform said "not now" to an attempt that left with `most` others on the wire: no more than that at once
	 * from now on. Refused again within it: this process counts an attempt on the wire a little before the platform
	 * does (its body and signature on the way), so the edge it saw was too high: a tenth lower. Refused where a probe
	 * went: twice as long before the next.
	 */
	private lowerCap(most: number) {
		this.figures.refusedNotNow = true;
		let cap = Math.max(1, most);
		if (this.cap !== undefined) {
			if (most >= this.cap) this.probeRounds *= 2;
			cap = Math.min(cap, Math.floor(this.cap * EDGE_AGAIN));
		}
		this.goodRoundsAtCap = 0;
		this.probing = false;
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
		if (this.roundEvents >= Math.max(MIN_ROUND, Math.floor(this.limit))) {
			this.roundsEnded++;
			this.endRound();
			this.remember();
		}
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
			// A whole round at one more than the edge, nothing refused: the platform takes more now (another client
			// of the account stopped, an edge an earlier run found is gone). Followed as before it was found.
			if (this.probing) {
				this.probing = false;
				this.cap = undefined;
				this.slowStart = true;
			} else {
				if (++this.goodRoundsAtCap < this.probeRounds) return;
				this.goodRoundsAtCap = 0;
				this.cap++;
				this.probing = true;
			}
		}
		// In a slow start each answer has raised it already.
		if (this.slowStart) return;
		this.raise(Math.min(this.limit + Math.sqrt(this.limit), this.cap ?? Infinity));
	}

	/**
	 * One more place in a slow start: it opens one answer interval at this number (the unloaded time ÷ the number)
	 * after the last place opened, so new places go out no faster than answers come back.
	 */
	private grow(limit: number) {
		const allowed = this.allowed;
		const now = Date.now();
		const everyMs = (this.unloadedMs ?? this.fastestMs) / Math.max(1, Math.floor(limit));
		const lastOpened = this.opening
			? this.opening.at +
				Math.floor((now - this.opening.at) / this.opening.everyMs) * this.opening.everyMs
			: now;
		this.opening = { from: allowed - 1, at: lastOpened, everyMs };
		this.setLimit(Math.min(limit, this.cap ?? Infinity));
	}

	/** A higher limit, its new places opening one by one over an unloaded answer time. */
	private raise(limit: number, share = OPEN_SHARE) {
		const from = Math.max(1, Math.floor(this.limit));
		const added = Math.floor(Math.min(this.ceiling, limit)) - from;
		if (added > 1)
			this.opening = {
				from,
				at: Date.now(),
				everyMs: ((this.unloadedMs ?? OPEN_OVER_MS) * share) / added,
			};
		this.setLimit(limit);
	}

	private setLimit(limit: number) {
		this.limit = Math.min(this.ceiling, Math.max(1, limit));
		this.figures.highest = Math.max(this.figures.highest, Math.floor(this.limit));
		this.wake();
	}
}
