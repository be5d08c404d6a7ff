/**
 * The time limit of a wait (Options → Limit Wait Time) as the person and the next node meet it. Answers count
 * until the limit; the run goes on without one a little later (ANSWER_MARGIN_MS), so that an answer taken just
 * before the limit resumes the run before n8n's wait tracker does: n8n resumes a waiting run once, whichever
 * comes first, and would answer the loser with an error. Meanwhile the node answers a late answer itself with
 * a page saying when the time to answer ended; after the run went on, n8n answers the links itself.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import type { Wait } from './links';

/**
 * How long after the limit the run goes on without an answer: far longer than n8n takes from an answer taken
 * to the run resumed with it (milliseconds), well within the minute n8n's wait tracker may add by itself.
 */
export const ANSWER_MARGIN_MS = 10_000;

/** When n8n resumes the run without an answer: the limit and the margin (never n8n's "no limit" date). */
export function resumeAt(limit: string | null): Date {
	if (limit === null) return WAIT_INDEFINITELY;
	return new Date(Math.min(Date.parse(limit) + ANSWER_MARGIN_MS, WAIT_INDEFINITELY.getTime() - 1));
}

/** Whether the time to answer the wait has ended (a wait kept by an earlier version has no limit here). */
export const timeEnded = (wait: Wait, now = Date.now()) =>
	typeof wait.until === 'string' && now >= Date.parse(wait.until);

/** The limit as the person reads it: "17:01:00 on 28 Nov 2026 (Europe/Berlin)", in the workflow's zone. */
export function limitInWords(until: string, zone = 'UTC'): string {
	const at = new Date(until);
	const format = (options: Intl.DateTimeFormatOptions) => {
		try {
			return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone }).format(at);
		} catch {
			return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(at);
		}
	};
	const time = format({ hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
	return `${time} on ${format({ day: 'numeric', month: 'short', year: 'numeric' })} (${zone})`;
}

/**
 * What the run goes on with when the limit passes without an answer: the input items as they came, each saying
 * so (`timedOut`, `timeLimit`). n8n passes on the input it keeps for the waiting node (the node is skipped as
 * disabled then), so the node puts these items there; an answer replaces them.
 */
export function keepTimedOutItems(context: IExecuteFunctions, limit: string) {
	const items: INodeExecutionData[] = context.getInputData().map((input, index) => ({
		...input,
		json: { ...input.json, timedOut: true, timeLimit: limit } as IDataObject,
		pairedItem: { item: index },
	}));
	const main = context.getExecuteData?.()?.data?.main;
	if (main) main[0] = items;
}
