/**
 * A request to one of the mail's links, while the run waits (n8n routes `/webhook-waiting/<execution>/<node>`
 * here after checking n8n's own signature, or the execution's resume token). Nothing is recorded unless a person
 * answers this very wait with its link:
 * - bots and preview services (user agent) get an empty page;
 * - a link of another wait of this node, or with its wait, answer or token changed, is refused (links.ts);
 * - Approve / Disapprove open a page whose button posts the answer (Options → Confirm on a Page, on by
 *   default), so a scanner that opens links like a browser answers nothing; off, opening the link answers;
 * - Free Text and Custom Form open n8n's own form page and record its POST.
 * Everything is read as the mail asked it (the wait keeps it), not from the node's parameters again. An answer
 * resumes the run with `data` as n8n's own send-and-wait nodes give it; n8n then marks the execution running (n8n
 * 2.x refuses a second resume atomically), and later requests meet n8n's own answers (docs/human-review.md).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { answeredHere, answerOf, type EarlierAnswer, keepAnswered } from './answered';
import { formPageData, readAnswer } from './form';
import { checkLink, currentWait, linkKey, type LinkCheck, type Wait } from './links';
import {
	ANSWERED_PAGE,
	confirmationPage,
	EMPTY_PAGE,
	INCOMPLETE_FORM_PAGE,
	INVALID_LINK_PAGE,
	OTHER_WAIT_PAGE,
	RECORDED_PAGE,
	SANDBOX_CSP,
	timeEndedPage,
	UNCHECKED_PAGE,
} from './pages';
import type { Answer } from './settings';
import { limitInWords, timeEnded } from './timeLimit';
import { isAutomated } from './userAgents';

/** What the node uses of n8n's (express) request and response. */
interface WaitingRequest {
	method: string;
	headers: Record<string, string | string[] | undefined>;
}
interface WaitingResponse {
	status(code: number): WaitingResponse;
	setHeader(name: string, value: string): void;
	send(body: string): void;
	render(view: string, data: IDataObject): void;
}

const LINK_PAGES: Record<Exclude<LinkCheck, 'valid'>, [number, string]> = {
	invalid: [401, INVALID_LINK_PAGE],
	otherWait: [410, OTHER_WAIT_PAGE],
};

const respondedAt = () => new Date().toISOString();

/** The wait the link answers, and its check; undefined when n8n could not give what the check needs. */
async function linkOf(context: IWebhookFunctions, query: Record<string, unknown>) {
	try {
		const wait = currentWait(context);
		const key = wait ? await linkKey(context, wait.credential) : undefined;
		const answer: Answer =
			wait && wait.asked.responseType !== 'approval'
				? 'form'
				: query.approved === 'false'
					? 'false'
					: 'true';
		return { wait, answer, check: checkLink(wait, key, context.getNode().id, query, answer) };
	} catch {
		return undefined;
	}
}

/** What a request gets once an answer to its wait was taken here a moment ago (n8n may not say it yet). */
const afterAnswer = (earlier: EarlierAnswer, answer: Answer): [number, string] =>
	earlier.answer === answer && answer !== 'form' ? [200, RECORDED_PAGE] : [409, ANSWERED_PAGE];

export async function sendAndWaitWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject() as WaitingRequest;
	const response = this.getResponseObject() as WaitingResponse;
	const page = (status: number, html: string): IWebhookResponseData => {
		response.status(status).send(html);
		return { noWebhookResponse: true };
	};
	response.setHeader('Content-Security-Policy', SANDBOX_CSP);
	response.setHeader('Cache-Control', 'no-store');
	response.setHeader('X-Robots-Tag', 'noindex, nofollow');
	if (isAutomated(request.headers['user-agent'])) return page(200, EMPTY_PAGE);

	const link = await linkOf(this, this.getQueryData() as Record<string, unknown>);
	if (!link) return page(500, UNCHECKED_PAGE);
	if (link.check !== 'valid') return page(...LINK_PAGES[link.check]);
	const wait = link.wait as Wait;
	const earlier = answeredHere(wait);
	if (earlier) return page(...afterAnswer(earlier, link.answer));
	// Past the limit nothing is recorded: the run goes on without an answer (timeLimit.ts), also for a form or a
	// confirmation page opened before the limit and sent after it.
	const late = () => page(410, timeEndedPage(limitInWords(wait.until!, wait.zone)));
	if (timeEnded(wait)) return late();

	const { asked } = wait;
	if (asked.responseType === 'approval') {
		if (request.method === 'GET' && asked.confirmOnPage) {
			const button = asked.choices.find((choice) => choice.answer === link.answer)!;
			return page(200, confirmationPage(asked.subject, asked.message, button));
		}
		keepAnswered(wait, link.answer);
		return answerOf({ approved: link.answer === 'true', respondedAt: respondedAt() });
	}

	const { fields, texts } = asked.form!;
	if (request.method === 'GET') {
		response.render('form-trigger', formPageData(fields, texts));
		return { noWebhookResponse: true };
	}
	const posted = await readAnswer(this, fields);
	if (!posted) return page(400, INCOMPLETE_FORM_PAGE);
	// Read again after the form's files were copied: another answer, or the limit, may have come meanwhile.
	if (answeredHere(wait)) return page(409, ANSWERED_PAGE);
	if (timeEnded(wait)) return late();
	keepAnswered(wait, 'form');
	if (asked.responseType === 'freeText')
		return answerOf({ text: posted.json.Response, respondedAt: respondedAt() });
	// respondedAt last: no form field may take its name (form.ts refuses it), and it is the time n8n recorded.
	return answerOf({ ...posted.json, respondedAt: respondedAt() }, posted.binary);
}
