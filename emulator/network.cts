/**
 * A distant, rate-limited, sometimes failing platform, all off by default: latency, HTTP 429 above a
 * rate, HTTP 503 every Nth request, and faults planned for the next request to a path.
 */
import type http from 'node:http';

import { send, type Text } from './reply.cts';
import type { Fault, PlannedFault } from './types.cts';

export interface NetworkSettings {
	/** Added to every /v5 answer, plus up to latencyJitterMs at random. */
	latencyMs: number;
	latencyJitterMs: number;
	/** Requests per second answered; more get HTTP 429 with Retry-After (0: no limit). */
	rateLimitPerSecond: number;
	/** Every Nth /v5 request is answered HTTP 503 with Retry-After: 1, unprocessed (0: never). */
	unavailableEvery: number;
	/**
	 * More /v5 requests under way at once than this (the one arriving included) are answered HTTP 503 with
	 * Retry-After: 1, unprocessed, as a platform that serves so many at once per account (0: no limit).
	 */
	maxUnderWay: number;
	/**
	 * The platform works on this many requests at a time, each for latencyMs; the others wait their turn, first come
	 * first served, as a platform with so many servers: more at once make answers slower, and none is refused
	 * (0: no limit).
	 */
	workersAtOnce: number;
	/**
	 * 1: the platform works on a request within its latency, as a platform whose servers work on requests side by
	 * side: the request is processed as it arrives, and its answer leaves latencyMs after it arrived (or when the
	 * work is done, if later). 0 (the default): the latency is waited first, then the request is processed, one at
	 * a time in this process, so that under many requests at once the emulator's own work adds to every answer.
	 */
	workWithinLatency: number;
	/**
	 * 1: a request over a limit (rateLimitPerSecond, maxUnderWay, unavailableEvery) is refused as it arrives,
	 * without the latency, as a platform that refuses at its edge before any work: its refusals come back before the
	 * answers of the requests it took at the same moment. 0 (the default): a refusal waits the latency too.
	 */
	refuseAtOnce: number;
	/**
	 * With HTTPS on (EmulatorOptions.https), the round trip to the platform in ms: each connection's TCP
	 * handshake, its TLS handshake, and each request and answer pay it (distance.cts). 0: on this machine.
	 */
	distanceMs: number;
}

/**
 * Holds a response's end until `at`: the answer leaves then, whatever time the work took before. `late` hears how
 * long after `at` it really left (this process busy with other requests, or the machine with other processes).
 */
function answerAt(res: http.ServerResponse, at: number, late: (ms: number) => void) {
	const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
	res.end = ((...args: unknown[]) => {
		const wait = at - Date.now();
		if (wait <= 0) {
			late(-wait);
			return end(...args);
		}
		setTimeout(() => {
			late(Date.now() - at);
			end(...args);
		}, wait);
		return res;
	}) as typeof res.end;
}

/** The most answers whose lateness is kept between resets (a bench's largest run makes about a thousand). */
const MAX_LATE_ANSWERS = 100_000;

export class Network {
	settings: NetworkSettings = {
		latencyMs: 0,
		latencyJitterMs: 0,
		rateLimitPerSecond: 0,
		unavailableEvery: 0,
		maxUnderWay: 0,
		workersAtOnce: 0,
		workWithinLatency: 0,
		refuseAtOnce: 0,
		distanceMs: 0,
	};
	/** Answers refused by the settings: 429 (rate limit) and 503 (unavailable). */
	throttled = { 429: 0, 503: 0 };
	/** Planned by POST /__control/fault, each taken by the next request to its path. */
	faults: PlannedFault[] = [];
	/** Sockets held open by `hang` faults, closed when the emulator stops. */
	held = new Set<import('node:net').Socket>();
	/** /v5 requests received and not yet answered, and the most there were at once. */
	underWay = 0;
	peakUnderWay = 0;
	/** /v5 requests received in all. */
	received = 0;
	/** With HTTPS on, the connections opened to the platform's address (each one a TCP and a TLS handshake). */
	connections = 0;
	/**
	 * Each /v5 request as it arrived, in order: when (ms since the epoch) and how many were then under way, itself
	 * included: the client's concurrency as the platform sees it. At most MAX_LATE_ANSWERS are kept.
	 */
	arrivals: Array<{ at: number; underWay: number }> = [];
	/** With workWithinLatency, how late each answer left after its latency, in ms (the stand-in's own delay). */
	lateAnswers: number[] = [];
	private recentRequests: number[] = [];
	/** With workersAtOnce: requests being worked on, and those waiting for a worker. */
	private working = 0;
	private readonly waitingForWorker: Array<() => void> = [];
	private v5Requests = 0;

	constructor(
		private readonly text: Text,
		/** The distance the emulator was started with: a reset comes back to it. */
		distanceMs = 0,
	) {
		this.settings.distanceMs = distanceMs;
	}

	/** Counts a /v5 request as under way until its answer is sent or its connection closed. */
	track(res: http.ServerResponse) {
		this.received++;
		this.underWay++;
		this.peakUnderWay = Math.max(this.peakUnderWay, this.underWay);
		if (this.arrivals.length < MAX_LATE_ANSWERS)
			this.arrivals.push({ at: Date.now(), underWay: this.underWay });
		res.once('close', () => this.underWay--);
	}

	/** Plays distance and limits: the latency, then may refuse the request unprocessed (true). */
	async throttle(res: http.ServerResponse): Promise<boolean> {
		const { latencyMs, latencyJitterMs, maxUnderWay, workWithinLatency, refuseAtOnce } =
			this.settings;
		// Counted as it arrives, answered after the latency as any other answer (or at once: refuseAtOnce).
		const crowded = maxUnderWay > 0 && this.underWay > maxUnderWay;
		if (refuseAtOnce) {
			if (this.refuse(res, crowded)) return true;
		}
		const delay = latencyMs + Math.random() * latencyJitterMs;
		if (this.settings.workersAtOnce > 0) await this.worked(delay);
		else if (delay > 0 && workWithinLatency)
			answerAt(res, Date.now() + delay, (late) => {
				if (this.lateAnswers.length < MAX_LATE_ANSWERS) this.lateAnswers.push(late);
			});
		else if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
		return refuseAtOnce ? false : this.refuse(res, crowded);
	}

	/** Waits for a free worker (first come, first served), then works `ms` on the request. */
	private async worked(ms: number) {
		if (this.working >= this.settings.workersAtOnce)
			await new Promise<void>((resolve) => this.waitingForWorker.push(resolve));
		else this.working++;
		await new Promise((resolve) => setTimeout(resolve, ms));
		const next = this.waitingForWorker.shift();
		if (next) next();
		else this.working--;
	}

	/** Refuses the request unprocessed (true) when the platform is crowded, unavailable, or over its rate. */
	private refuse(res: http.ServerResponse, crowded: boolean): boolean {
		const { rateLimitPerSecond, unavailableEvery } = this.settings;
		this.v5Requests++;
		if (crowded || (unavailableEvery > 0 && this.v5Requests % unavailableEvery === 0)) {
			this.throttled[503]++;
			send(
				res,
				503,
				{ code: 503, message: this.text('服务暂不可用', 'service unavailable, try later') },
				{ 'Retry-After': '1' },
			);
			return true;
		}
		if (rateLimitPerSecond > 0) {
			const now = Date.now();
			this.recentRequests = this.recentRequests.filter((at) => at > now - 1000);
			if (this.recentRequests.length >= rateLimitPerSecond) {
				this.throttled[429]++;
				const retryAfter = Math.max(1, Math.ceil((this.recentRequests[0] + 1000 - now) / 1000));
				send(
					res,
					429,
					{ code: 429, message: this.text('请求过于频繁', 'too many requests') },
					{ 'Retry-After': String(retryAfter) },
				);
				return true;
			}
			this.recentRequests.push(now);
		}
		return false;
	}

	/**
	 * A request to `path` arrived: it takes the first fault planned for it (one whose `skip` is 0), and the
	 * faults planned for later requests to the path come one closer. Each request has at most one fault.
	 */
	arrive(path: string): Fault | undefined {
		const index = this.faults.findIndex((planned) => planned.path === path && planned.skip === 0);
		const taken = index === -1 ? undefined : this.faults.splice(index, 1)[0].fault;
		for (const planned of this.faults)
			if (planned.path === path && planned.skip > 0) planned.skip--;
		return taken;
	}
}
