/**
 * What runs found of a platform (one credential's account at its address), kept in this process for the runs after
 * them (transport/concurrency.ts), as Envoy's adaptive concurrency filter and Netflix's concurrency-limits keep their
 * limit with the client, not with one batch of requests: a run starts at the number the one before ended with,
 * below the edge it found, instead of finding them again from the start. Kept for an hour after it was last seen
 * (Linux keeps what a TCP connection learnt of a destination that long too), for the latest PLATFORMS_KEPT
 * platforms. Each n8n process (each worker in queue mode) keeps its own; a restart forgets.
 */

interface PlatformFound {
	/** The number of requests at once the run ended with. */
	limit: number;
	/** The most at once the platform took before answering "not now" (503), if it did. */
	cap: number | undefined;
	/** The platform's own answer time, in ms. */
	unloadedMs: number;
	/** Still doubling when last seen: the next run doubles on from there. */
	slowStart: boolean;
}

const KEPT_MS = 60 * 60_000;
const PLATFORMS_KEPT = 64;

const foundByPlatform = new Map<string, PlatformFound & { at: number }>();

/** What runs found of the platform `key`, within the hour; undefined: nothing, or too long ago. */
export function foundOf(key: string): PlatformFound | undefined {
	const found = foundByPlatform.get(key);
	if (!found || Date.now() - found.at > KEPT_MS) return undefined;
	return found;
}

/** Keeps what a run found of the platform `key`, as the latest. */
export function keepFound(key: string, found: PlatformFound) {
	foundByPlatform.delete(key);
	foundByPlatform.set(key, { ...found, at: Date.now() });
	if (foundByPlatform.size > PLATFORMS_KEPT)
		foundByPlatform.delete(foundByPlatform.keys().next().value!);
}
