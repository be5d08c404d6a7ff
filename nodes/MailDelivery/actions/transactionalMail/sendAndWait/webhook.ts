/**
 * A request to one of the mail's links, while the run waits (n8n routes `/webhook-waiting/<execution>/<node>`
 * here after checking n8n's own signature). Nothing is recorded unless a person answers this very wait:
 * - bots and preview services (user agent) get an empty page;
 * - a link of another wait of this node, or with its wait, answer or token changed, is refused (links.ts);
 * - Approve / Disapprove open a page whose button posts the answer (Options → Confirm on a Page, on by
 *   default), so a scanner that opens links like a browser answers nothing; off, opening the link answers;
 * - Free Text and Custom Form open n8n's own form page and record its POST.
 * An answer resumes the run with `data` as n8n's own send-and-wait nodes give it; n8n then marks the execution
 * running (n8n 2.x refuses a second resume atomically), and later requests meet n8n's "No action required".
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { readAsMeant } from '../../../../shared/parameterKinds';
import { properties } from './description';
import { type FormField, formPageData, readAnswer } from './form';
import { type Answer, checkLink, currentWait, type LinkCheck } from './links';
import {
	confirmationPage,
	EMPTY_PAGE,
	INCOMPLETE_FORM_PAGE,
	INVALID_LINK_PAGE,
	OTHER_WAIT_PAGE,
	RECORDED_PAGE,
	SANDBOX_CSP,
	UNCHECKED_PAGE,
} from './pages';
import {
	choicesOf,
	confirmsOnPage,
	formFieldsFor,
	formTextsOf,
	type Read,
	responseTypeOf,
} from './settings';
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

/** The node's parameters as the webhook reads them: as their fields' kinds, like the send (ParameterReader). */
function readerOf(context: IWebhookFunctions): Read {
	const { parameters } = context.getNode();
	return <T>(name: string, fallback: T) => {
		const value = context.getNodeParameter(name, fallback as never) as unknown;
		const read = readAsMeant(properties, parameters, name, value);
		return ('value' in read ? read.value : fallback) as T;
	};
}

const LINK_PAGES: Record<Exclude<LinkCheck, 'valid'>, [number, string]> = {
	invalid: [401, INVALID_LINK_PAGE],
	otherWait: [410, OTHER_WAIT_PAGE],
};

const respondedAt = () => new Date().toISOString();

/** The run resumes with this answer; the person sees that it was recorded. */
const recorded = (data: IDataObject, binary?: IDataObject): IWebhookResponseData => ({
	webhookResponse: RECORDED_PAGE,
	workflowData: [[{ json: { data }, ...(binary ? { binary } : {}) } as never]],
});

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

	const read = readerOf(this);
	const type = responseTypeOf(read);
	const query = this.getQueryData() as Record<string, unknown>;
	const answer: Answer =
		type !== 'approval' ? 'form' : query.approved === 'false' ? 'false' : 'true';
	let check: LinkCheck;
	try {
		check = checkLink(currentWait(this), query, answer);
	} catch {
		return page(500, UNCHECKED_PAGE);
	}
	if (check !== 'valid') return page(...LINK_PAGES[check]);

	if (type === 'approval') {
		if (request.method === 'GET' && confirmsOnPage(read)) {
			const button = choicesOf(read).find((choice) => choice.answer === answer)!;
			const subject = read<string>('subject', '');
			return page(200, confirmationPage(subject, read<string>('message', ''), button));
		}
		return recorded({ approved: answer === 'true', respondedAt: respondedAt() });
	}

	let fields: FormField[];
	try {
		fields = formFieldsFor(read);
	} catch {
		return page(500, UNCHECKED_PAGE);
	}
	if (request.method === 'GET') {
		response.render('form-trigger', formPageData(fields, formTextsOf(read)));
		return { noWebhookResponse: true };
	}
	const posted = await readAnswer(this, fields);
	if (!posted) return page(400, INCOMPLETE_FORM_PAGE);
	if (type === 'freeText')
		return recorded({ text: posted.json.Response, respondedAt: respondedAt() });
	// respondedAt last: a form field of that name cannot replace the time n8n recorded the answer.
	return recorded({ ...posted.json, respondedAt: respondedAt() }, posted.binary);
}
