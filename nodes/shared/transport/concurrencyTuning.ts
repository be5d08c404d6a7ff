/**
 * The figures the number of requests at once follows the platform by (concurrency.ts), each with why it is what it
 * is.
 */
/** Requests at once when a run starts following the platform, and the ceiling it follows it up to. */
export const ADAPTIVE_START = 16;
export const DEFAULT_CEILING = 64;

/** The fewest answers a round waits for: fewer make its median noise. */
export const MIN_ROUND = 4;
/** A round answered within this many times the unloaded time may grow; a slower one is lowered towards it. */
export const TOLERANCE = 1.5;
/**
 * Nor is an answer slower by less than this: n8n, busy with answers that came back together, reads some tens of ms
 * late whatever the platform (the emulator answering in 5 ms: a median of 32 ms, the fastest 9 ms), which half again
 * the time of a platform that answers within milliseconds would take for a queue there.
 */
const SLACK_MS = 50;

/** Whether an answer (or a round's median) of `ms` is slower than the platform's own `unloadedMs` allows. */
export const slowerThanUnloaded = (ms: number, unloadedMs: number) =>
	ms > Math.max(unloadedMs * TOLERANCE, unloadedMs + SLACK_MS);

/** The most a round lowers the limit: to this share of it. */
export const MOST_LOWERED = 0.5;
/**
 * Whether answers that stayed slow while the limit was lowered are the platform's own time, not a queue of the run's:
 * lowered to `limitShare` of where the slow rounds began, a queue's answers come back in about that share of the time
 * (Little's law), a platform slower for everyone's as late. Judged once halved: not 15% faster (a queue's, twice).
 */
export const notOurQueue = (limitShare: number, answerShare: number) =>
	limitShare <= MOST_LOWERED && answerShare > 0.85;
/** A refusal within the edge lowers it to this share. */
export const EDGE_AGAIN = 0.9;
/** Good rounds at the edge before one more at once is tried (doubled after each refused try). */
export const PROBE_ROUNDS = 16;
/** Attempts at one more than the edge answered, one after another, before the edge is taken as gone. */
export const PROBES_HELD = 4;
/** The new places of a raise open over this share of the unloaded answer time (or of OPEN_OVER_MS, none known). */
export const OPEN_SHARE = 1;
export const OPEN_OVER_MS = 100;
/**
 * A run that starts where an earlier one ended opens its places over this share of the answer time: n8n starts no
 * request beyond the first ones until they are all answered (pacing.ts), so a slower opening delays the rest; a
 * platform that now refuses above fewer is heard from before most go.
 */
export const OPEN_REMEMBERED_SHARE = 0.25;
