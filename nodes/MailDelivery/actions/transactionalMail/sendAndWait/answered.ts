/**
 * Answers this n8n process took, for a moment. Between an answer and n8n marking its execution running, a second
 * request (a double click on the page's button, a second recipient) still finds the execution waiting and reaches
 * the node; n8n would then refuse its resume with HTTP 500 and a stack trace. The node answers it first, with a
 * page. Kept in memory: per process (in queue mode another webhook processor does not see it), bounded, and for
 * a few seconds only, so that an answer whose resume failed is never taken for recorded later.
 */
import type { IBinaryData, IDataObject, IWebhookResponseData } from 'n8n-workflow';

import type { Wait } from './links';
import { RECORDED_PAGE } from './pages';
import { ANSWER_MARGIN_MS } from './timeLimit';
import type { Answer } from './settings';

export interface EarlierAnswer {
	answer: Answer;
	at: number;
}

/** An answer's resume takes moments: a run still waiting this long after an answer lost that answer's resume. */
const KEPT_MS = ANSWER_MARGIN_MS;
const MAX_KEPT = 1000;
const answers = new Map<string, EarlierAnswer>();

const keyOf = (wait: Wait) => `${wait.execution}/${wait.id}`;

/** The answer this process took for the wait less than a minute ago. */
export function answeredHere(wait: Wait): EarlierAnswer | undefined {
	const earlier = answers.get(keyOf(wait));
	return earlier && Date.now() - earlier.at < KEPT_MS ? earlier : undefined;
}

/** Keeps that the wait was answered (just before the answer goes to n8n). */
export function keepAnswered(wait: Wait, answer: Answer) {
	if (answers.size >= MAX_KEPT) answers.delete(answers.keys().next().value!);
	answers.set(keyOf(wait), { answer, at: Date.now() });
}

/** The run resumes with this answer; the person sees that it was recorded. */
export const answerOf = (
	data: IDataObject,
	binary?: Record<string, IBinaryData>,
): IWebhookResponseData => ({
	webhookResponse: RECORDED_PAGE,
	workflowData: [[{ json: { data }, ...(binary ? { binary } : {}) }]],
});
