/**
 * The most requests at once a platform takes before it answers "not now" (HTTP 503), as a run following the
 * platform (concurrency.ts) finds it, keeps below it and now and then tries one more: by one attempt at a time, each
 * waiting for the answer of the one before, since a platform that refuses only once it looked at a request answers
 * its refusal as late as its answers, and every attempt sent above its number meanwhile would be refused too.
 */
import { EDGE_AGAIN, PROBE_ROUNDS, PROBES_HELD } from './concurrencyTuning';

export class PlatformEdge {
	/** At most this many at once; undefined: no edge known. */
	most: number | undefined;
	private goodRounds = 0;
	private probeRounds = PROBE_ROUNDS;
	/**
	 * While one more than the edge is tried: `next`, the next attempt to leave with that many on the wire tries it;
	 * a number, the attempt trying it, not answered yet (no other goes above the edge meanwhile).
	 */
	private probe: 'next' | number | undefined;
	/** Attempts at one more answered so far. */
	private probesHeld = 0;

	/** One more than the edge is being tried. */
	get probing(): boolean {
		return this.probe !== undefined;
	}

	/** The edge that held: without the one more being tried. */
	get held(): number | undefined {
		return this.probing && this.most !== undefined ? this.most - 1 : this.most;
	}

	/** The most allowed at once under `limit`: while an attempt at one more is on the wire, the edge that held. */
	allowedUnder(limit: number): number {
		return typeof this.probe === 'number' ? Math.min(limit, this.held ?? limit) : limit;
	}

	/** Attempt `number` leaves with `onWire` on the wire, itself included: at one more, it is the one trying it. */
	leaving(number: number, onWire: number) {
		if (this.probe === 'next' && onWire >= (this.most ?? Infinity)) this.probe = number;
	}

	/** Whether attempt `number` is the one trying one more at once. */
	tries(number: number): boolean {
		return number === this.probe;
	}

	/**
	 * The platform said "not now" to an attempt that left with `most` others on the wire: no more than that at once
	 * from now on. Refused again within it: this process counts an attempt on the wire a little before the platform
	 * does (its body and signature on the way), so the edge it saw was too high: a tenth lower. Returns the edge.
	 */
	refusedWith(most: number): number {
		let edge = Math.max(1, most);
		if (this.most !== undefined) edge = Math.min(edge, Math.floor(this.most * EDGE_AGAIN));
		this.goodRounds = 0;
		this.probe = undefined;
		this.most = Math.max(1, edge);
		return this.most;
	}

	/**
	 * The try of one more at once ends refused (or in congestion): back to the edge that held, and twice as many good
	 * rounds before the next try. Returns the edge.
	 */
	probeRefused(): number {
		this.most = Math.max(1, this.held ?? 1);
		this.probe = undefined;
		this.goodRounds = 0;
		this.probeRounds *= 2;
		return this.most;
	}

	/** The attempt at one more got no word on it (refused for its rate): the next attempt there tries again. */
	probeUntold() {
		this.probe = 'next';
	}

	/**
	 * A good round (fast, nothing refused, as many on the wire as allowed) at the edge: `probe` after PROBE_ROUNDS of
	 * them (one more at once is tried now, by one attempt at a time: `probeHeld`, `probeRefused`); otherwise `hold`.
	 */
	goodRound(): 'hold' | 'probe' {
		if (this.probing || ++this.goodRounds < this.probeRounds) return 'hold';
		this.goodRounds = 0;
		this.most = (this.most ?? 0) + 1;
		this.probe = 'next';
		this.probesHeld = 0;
		return 'probe';
	}

	/**
	 * The attempt at one more at once was answered. After PROBES_HELD of them, one after another, the edge is gone:
	 * the platform takes more now (another client of the account stopped, an edge an earlier run found is gone), to
	 * be followed as before the edge was found. One alone is not enough: this process counts an attempt on the wire
	 * until it has read its answer, the platform only until it sent it, so an attempt this process counts one above
	 * the edge may have been at the edge there.
	 */
	probeHeld() {
		if (++this.probesHeld < PROBES_HELD) this.probe = 'next';
		else {
			this.most = undefined;
			this.probe = undefined;
		}
	}
}
