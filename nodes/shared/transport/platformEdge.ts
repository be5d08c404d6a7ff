/**
 * The most requests at once a platform takes before it answers "not now" (HTTP 503), as a run following the
 * platform (concurrency.ts) finds it, keeps below it and now and then tries one more.
 */
import { EDGE_AGAIN, PROBE_ROUNDS } from './concurrencyTuning';

export class PlatformEdge {
	/** At most this many at once; undefined: no edge known. */
	most: number | undefined;
	private goodRounds = 0;
	private probeRounds = PROBE_ROUNDS;
	/** One more than the edge is being tried. */
	private probing = false;

	/**
	 * The platform said "not now" to an attempt that left with `most` others on the wire: no more than that at once
	 * from now on. Refused again within it: this process counts an attempt on the wire a little before the platform
	 * does (its body and signature on the way), so the edge it saw was too high: a tenth lower. Refused where a probe
	 * went: twice as long before the next. Returns the edge.
	 */
	refusedWith(most: number): number {
		let edge = Math.max(1, most);
		if (this.most !== undefined) {
			if (most >= this.most) this.probeRounds *= 2;
			edge = Math.min(edge, Math.floor(this.most * EDGE_AGAIN));
		}
		this.goodRounds = 0;
		this.probing = false;
		this.most = Math.max(1, edge);
		return this.most;
	}

	/**
	 * A good round (fast, nothing refused, as many on the wire as allowed) at the edge: `probe` after PROBE_ROUNDS of
	 * them (one more at once is tried now); `gone` when it was a round at that one more: the platform takes more now
	 * (another client of the account stopped, an edge an earlier run found is gone), to be followed as before the
	 * edge was found; otherwise `hold`.
	 */
	goodRound(): 'hold' | 'probe' | 'gone' {
		if (this.probing) {
			this.probing = false;
			this.most = undefined;
			return 'gone';
		}
		if (++this.goodRounds < this.probeRounds) return 'hold';
		this.goodRounds = 0;
		this.most = (this.most ?? 0) + 1;
		this.probing = true;
		return 'probe';
	}
}
