/** What the number of requests at once (concurrency.ts) reports of a run, and of each attempt. */

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
	/** The run started where an earlier run to the same platform ended (its number, and the edge it had found). */
	fromEarlierRun: boolean;
	/** Whether this run itself was refused with "not now" (otherwise `keptTo` is an earlier run's finding). */
	refusedNotNow: boolean;
	/** Times lowered: on slower answers. */
	loweredOnSlowAnswers: number;
	/** Answers as slow with fewer at once: the platform's own time they showed, in ms (the number went back up). */
	ownTimeMs?: number;
	/** Attempts refused (429, 503) or not answered (time-out, connection broken). */
	refusals: number;
	/** The fastest answer (the platform's own time) and the median of every answer, in ms. */
	fastestMs?: number;
	medianMs?: number;
	/** Attempts made (answered or refused), and the requests they were (a refused one goes again). */
	attempts: number;
	requests: number;
}

/** An attempt on the wire: its number in the run, and how many were on the wire with it when it left. */
export interface Attempt {
	number: number;
	onWire: number;
}
