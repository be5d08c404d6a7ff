/**
 * How many requests of one run are under way at once. Fixed (Options → Requests in Parallel), or, by default,
 * following the platform between 1 and a ceiling, the way gradient controllers follow a service (Envoy's adaptive
 * concurrency filter, Netflix's Gradient2): keep answers near the platform's own answer time, and stay below the
 * number at which it refuses.
 *
 * - The platform's own answer time ("unloaded") is the run's fastest answer: under load some requests still meet a
 *   free server, while a round's median also holds time in its queue and this process's work. A round ends once
 *   about as many attempts came back as the limit allows at once (at least MIN_ROUND).
 * - Slow start, as TCP's, until the first slower round or refusal: each answer within TOLERANCE × the unloaded time
 *   (or SLACK_MS more), with requests waiting for a place, opens one more place (doubling per answer time), a slower
 *   one closes one (a platform that works on a few and queues the rest answers half fast, half late: it holds). A
 *   round's new places open over one answer time, at the interval its answers come back, so a platform that refuses
 *   at once above a number ("not now") is heard from before many more are sent (real n8n hears a refusal 10 to 40
 *   ms late, answers coming back together: opening them as fast sent 8 above an edge of 24). Then a round within it,
 *   nothing refused, the limit in use (as many on the wire as allowed), adds its square root (Gradient2's headroom).
 * - Two slower rounds in a row lower the limit in proportion, to TOLERANCE × unloaded ÷ the round's time (at most
 *   halved), which settles where answers start to queue. Answers as slow at half the number are the platform's own
 *   time (slowRounds.ts), a round's median from then on (its answers vary): a slow start from where the slow rounds
 *   began finds the number anew.
 * - "Not now" (HTTP 503): the attempts on the wire when the refused one was sent, less one, is the most the run
 *   sends from then on (the edge); a refusal within it lowers it by a tenth (this process counts an attempt a little
 *   before the platform does); after PROBE_ROUNDS good rounds at it one more is tried, one attempt at a time
 *   (platformEdge.ts). No answer at all (a time-out, a broken connection) halves the limit. Refusals of attempts
 *   that left before a lowering are the same congestion.
 * - "Too many requests" (HTTP 429) is a rate: the run's pacer spaces starts to it (pacing.ts), and the number at
 *   once stays. An attempt waiting for its pacing or a Retry-After holds its place but is not on the wire; once it
 *   may go, it waits its turn (`turn`) while as many are on the wire as allowed now: the refused ones of a number
 *   since lowered do not all go again at once.
 * - A run after another to the same platform starts where that one ended (platformFindings.ts).
 *
 * Output order, pairing and everything else of the run are the engine's (run/engine.ts): this only says when the
 * next request may start. The engine takes a place (`acquire`) before a request and gives it back when it is
 * answered; the transport tells the platform (`platform`), waits each attempt's turn (`turn`), and tells it as it
 * is sent (`sending`) and its answer time or refusal (`answered`, `refused`).
 */
import { sleep } from 'n8n-workflow';

import { AnswerTimes, median } from './answerTimes';
import type { Attempt, ConcurrencyFigures } from './concurrencyFigures';
import { PlatformEdge } from './platformEdge';
import { SlowRounds } from './slowRounds';
import { concurrencyFound } from './platformFindings';
import {
	MIN_ROUND,
	MOST_LOWERED,
	OPEN_SHARE,
	OPEN_OVER_MS,
	OPEN_REMEMBERED_SHARE,
	slowerThanUnloaded,
} from './concurrencyTuning';

export class ConcurrencyLimit {
	/** Requests allowed at once; fractional while it grows by square roots. */
	private limit: number;
	/** Places taken: requests on the wire and those waiting for their pacing or a Retry-After. */
	private underWay = 0;
	private onWire = 0;
	/** Attempts let through `turn`, not yet `sending`. */
	private leaving = 0;
	private readonly waiting: Array<() => void> = [];
	/** Attempts holding a place that wait for their turn on the wire (`turn`). */
	private readonly waitingTurn: Array<() => void> = [];

	/** Doubling until the first refusal or slower round. */
	private slowStart = true;
	private readonly slowRounds = new SlowRounds();
	/** The platform's own time in ms (none before an answer): its fastest answer, or (`byMedian`) a round's median. */
	private unloadedMs: number | undefined;
	private byMedian = false;
	/** At most this many at once, since the platform refused above it (503); one more now and then. */
	private readonly edge = new PlatformEdge();
	/** The latest raise: its places open one by one (from `from`, one every `everyMs` since `at`). */
	private opening: { from: number; at: number; everyMs: number } | undefined;
	private openingTimer = false;
	/** This round: answer times, refusals, attempts counted, the most on the wire. */
	private roundMs: number[] = [];
	private roundRefused = false;
	private roundEvents = 0;
	private roundBusiest = 0;
	/** The number allowed when this round began: its answers come back about that many an answer time. */
	private roundLimit: number;
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
		this.roundLimit = this.limit;
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
			requests: 0,
		};
	}

	/** Requests allowed at once now (the places of a raise that have opened so far). */
	get allowed(): number {
		const limit = this.edge.allowedUnder(Math.max(1, Math.floor(this.limit)));
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
			keptTo: this.edge.held,
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

	/**
	 * Resolves when an attempt holding a place may go on the wire: while fewer are there than allowed now. A first
	 * attempt goes at once (its place was free); a retry after a refusal may have to wait: the places of a number
	 * since lowered stay held by the attempts waiting out their Retry-After, and all of them leaving together would
	 * be refused again. Followed by `sending` without anything in between that could fail.
	 */
	async turn(): Promise<void> {
		if (!this.adaptive) return;
		if (this.waitingTurn.length === 0 && this.onWire + this.leaving < this.allowed) {
			this.leaving++;
			return;
		}
		await new Promise<void>((resolve) => this.waitingTurn.push(resolve));
	}

	/** An attempt leaves now (`again`: a refused request's next): its number, and how many are on the wire with it. */
	sending(again = false): Attempt {
		if (this.adaptive) this.leaving = Math.max(0, this.leaving - 1);
		if (!again) this.figures.requests++;
		this.onWire++;
		this.roundBusiest = Math.max(this.roundBusiest, this.onWire);
		this.figures.mostOnWire = Math.max(this.figures.mostOnWire, this.onWire);
		this.edge.leaving(this.sent, this.onWire);
		return { number: this.sent++, onWire: this.onWire };
	}

	/** The platform answered `attempt` after `ms` (whatever it said, but "too many" and "not now"). */
	answered(ms: number, attempt?: Attempt) {
		this.onWire = Math.max(0, this.onWire - 1);
		if (!this.adaptive) return;
		// An attempt at one more held; once enough did, the edge is gone and the limit grows by square roots (a slow
		// start from an edge of 10 sent 7 above it before a refusal came back).
		if (attempt !== undefined && this.edge.tries(attempt.number)) this.edge.probeHeld();
		this.figures.attempts++;
		this.roundMs.push(ms);
		this.times.add(ms);
		if (ms < this.fastestMs) this.fastestMs = ms;
		// Slow start, as TCP's: each answer as fast as the platform's own time (in the first round, this run's fastest)
		// opens one more place (twice as many a round trip), a slower one closes one (a queue: half fast, half late).
		if (this.slowStart && this.waiting.length > 0) {
			const ownMs = this.roundsEnded > 0 || this.byMedian ? this.unloadedMs : undefined;
			if (!slowerThanUnloaded(ms, ownMs ?? this.fastestMs)) this.grow(this.limit + 1);
			else this.setLimit(this.limit - 1);
		}
		this.event();
		this.wake();
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
		const probed = this.edge.tries(attempt.number);
		if (why === 'notNow' && probed) {
			// One more at once is still too many: back to the edge that held, the next try twice as far off.
			this.setLimit(this.edge.probeRefused());
			this.calmFrom = this.sent;
			this.remember();
		} else if (why !== 'tooMany' && attempt.number >= this.calmFrom) {
			// Congestion (no answer, a 503 to another attempt) ends a try of one more, the next twice as far off.
			if (this.edge.probing) this.edge.probeRefused();
			this.slowStart = false;
			this.opening = undefined;
			if (why === 'notNow') {
				this.figures.refusedNotNow = true;
				this.setLimit(Math.min(this.limit, this.edge.refusedWith(attempt.onWire - 1)));
			} else this.setLimit(this.limit * MOST_LOWERED);
			this.calmFrom = this.sent;
			this.remember();
		} else if (probed) {
			// Refused for its rate (or before a lowering), an attempt at one more says nothing of it: the next tries it.
			this.edge.probeUntold();
		}
		this.event();
		this.wake();
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
		const found = concurrencyFound.of(key);
		if (!found || this.roundsEnded > 0) return;
		this.figures.fromEarlierRun = true;
		this.unloadedMs = found.unloadedMs;
		this.byMedian = found.byMedian;
		this.edge.most = found.cap;
		this.slowStart = found.slowStart;
		const limit = Math.min(found.limit, found.cap ?? Infinity);
		if (limit > this.limit) this.raise(limit, OPEN_REMEMBERED_SHARE);
		else this.setLimit(limit);
		this.figures.start = Math.max(1, Math.floor(this.limit));
		this.roundLimit = this.figures.start;
	}

	/** Keeps what the run found of its platform for the runs after it. */
	private remember() {
		if (this.platformKey === undefined || this.unloadedMs === undefined) return;
		concurrencyFound.keep(this.platformKey, {
			limit: Math.max(1, Math.floor(this.limit)),
			cap: this.edge.held,
			// The run's fastest answer, or the median slow rounds showed to be the platform's own time (its answers
			// vary): judged from its fastest, the next run would lower the number to find that out again.
			unloadedMs: this.byMedian ? this.unloadedMs : Math.min(this.unloadedMs, this.fastestMs),
			byMedian: this.byMedian,
			slowStart: this.slowStart,
		});
	}

	private wake() {
		let allowed = this.allowed;
		// Attempts holding a place first: their turn on the wire.
		while (this.waitingTurn.length > 0 && this.onWire + this.leaving < allowed) {
			this.leaving++;
			this.waitingTurn.shift()!();
			allowed = this.allowed;
		}
		while (this.waiting.length > 0 && this.underWay < allowed) {
			this.underWay++;
			this.waiting.shift()!();
			allowed = this.allowed;
		}
		// Places of a raise still to open: look again when the next one does.
		if (
			(this.waiting.length > 0 || this.waitingTurn.length > 0) &&
			this.opening &&
			!this.openingTimer
		) {
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
			// An earlier run's answer time judges only this run's first round (a platform may now be farther away).
			if (
				this.roundsEnded === 1 &&
				this.figures.fromEarlierRun &&
				!this.byMedian &&
				this.fastestMs < Infinity
			)
				this.unloadedMs = this.fastestMs;
			this.roundLimit = Math.max(1, Math.floor(this.limit));
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
		const ownMs = this.byMedian ? roundMs : Math.min(...times);
		this.unloadedMs = Math.min(this.unloadedMs ?? Infinity, ownMs);
		if (slowerThanUnloaded(roundMs, this.unloadedMs)) {
			this.slowStart = false;
			const next = this.slowRounds.slow(roundMs, this.unloadedMs, this.limit, busiest);
			if (next === 'hold') return;
			if ('lowerTo' in next) this.figures.loweredOnSlowAnswers++;
			// A new own time: the number is found anew from where the slow rounds began, doubling as a first run does.
			if ('platformMs' in next) {
				this.unloadedMs = this.figures.ownTimeMs = next.platformMs;
				this.slowStart = this.byMedian = true;
			}
			return this.setLimit('lowerTo' in next ? next.lowerTo : next.limit);
		}
		this.slowRounds.fine();
		// Only a limit in use is known to be fine: one the run did not fill says nothing about the platform.
		if (busiest < Math.floor(this.limit)) return;
		const atEdge = this.edge.most !== undefined && this.limit >= this.edge.most;
		if (atEdge && this.edge.goodRound() === 'hold') return;
		// In a slow start each answer has raised it already.
		if (this.slowStart) return;
		this.raise(Math.min(this.limit + Math.sqrt(this.limit), this.edge.most ?? Infinity));
	}

	/**
	 * One more place in a slow start: it opens one answer interval after the last place opened, the interval at
	 * which this round's answers come back (the unloaded time ÷ the number the round began with), so the new
	 * places of a round go out over one answer time, as TCP paces its slow start, not as fast as the answers that
	 * came back together: a platform that refuses above some number is heard from before many more go.
	 */
	private grow(limit: number) {
		const allowed = this.allowed;
		const now = Date.now();
		const everyMs = (this.unloadedMs ?? this.fastestMs) / this.roundLimit;
		const lastOpened = this.opening
			? this.opening.at +
				Math.floor((now - this.opening.at) / this.opening.everyMs) * this.opening.everyMs
			: now;
		this.opening = { from: allowed - 1, at: lastOpened, everyMs };
		this.setLimit(Math.min(limit, this.edge.most ?? Infinity));
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
