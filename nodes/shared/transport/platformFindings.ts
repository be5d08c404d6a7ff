/**
 * What runs found of a platform (one credential's account at its address), kept in this process for the runs after
 * them, as Envoy's adaptive concurrency filter and Netflix's concurrency-limits keep their limit with the client,
 * not with one batch of requests: a run starts at the number at once the one before ended with, below the edge it
 * found (concurrency.ts), and paced to the rate the platform accepted (pacing.ts), instead of finding them again
 * from the start. Kept for an hour after it was last seen (Linux keeps what a TCP connection learnt of a
 * destination that long too), for the latest PLATFORMS_KEPT platforms. Each n8n process (each worker in queue
 * mode) keeps its own; a restart forgets.
 */

interface PlatformFound {
	/** The number of requests at once the run ended with. */
	limit: number;
	/** The most at once the platform took before answering "not now" (503), if it did. */
	cap: number | undefined;
	/** The platform's own answer time, in ms: its fastest answer, or (`byMedian`) a round's median, as its answers vary. */
	unloadedMs: number;
	byMedian: boolean;
	/** Still doubling when last seen: the next run doubles on from there. */
	slowStart: boolean;
}

const KEPT_MS = 60 * 60_000;
const PLATFORMS_KEPT = 64;

/** One kind of finding per platform, the latest PLATFORMS_KEPT platforms, each for KEPT_MS after it was kept. */
class Findings<Found> {
	private readonly byPlatform = new Map<string, { found: Found; at: number }>();

	/** What runs found of the platform `key`, within the hour; undefined: nothing, or too long ago. */
	of(key: string): Found | undefined {
		const kept = this.byPlatform.get(key);
		if (!kept || Date.now() - kept.at > KEPT_MS) return undefined;
		return kept.found;
	}

	/** Keeps what a run found of the platform `key`, as the latest. */
	keep(key: string, found: Found) {
		this.byPlatform.delete(key);
		this.byPlatform.set(key, { found, at: Date.now() });
		if (this.byPlatform.size > PLATFORMS_KEPT)
			this.byPlatform.delete(this.byPlatform.keys().next().value!);
	}
}

/** How many at once each platform took (concurrency.ts). */
export const concurrencyFound = new Findings<PlatformFound>();
/** The requests a second each platform accepted, once it answered "too many requests" (429; pacing.ts). */
export const rateFound = new Findings<number>();
