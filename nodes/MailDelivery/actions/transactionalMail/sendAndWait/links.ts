/**
 * The mail's response links, bound to one wait.
 *
 * n8n signs them (getSignedResumeUrl: an HMAC of the path and query with the instance's secret, checked by n8n
 * before the node sees the request: on n8n 2.x for every execution it made, on n8n 1.x once the node asks for
 * it with setSignatureValidationRequired). That alone gives the same links to every wait of one node in one
 * execution (a loop, an AI agent's second tool call): an old mail's Approve would answer the new question. So
 * each wait has its own id and secret, kept in the node's context (saved with the waiting execution, read back
 * by the webhook on whichever n8n process serves it), and each link carries the wait's id and a token, an HMAC
 * of the id and the answer with that secret: a link of another wait, or with its answer changed, is refused by
 * the node itself, on every n8n line.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

/** Where the current wait is kept: the node's context (getContext('node')), under this key. */
const WAIT_KEY = 'sendAndWait';

/** The wait a link belongs to: its id, its secret, and the execution its links resume. */
interface Wait {
	id: string;
	secret: string;
	execution: string;
}

/** What a link answers: `true` / `false` for Approve / Disapprove, `form` for the form page. */
export type Answer = 'true' | 'false' | 'form';

const token = (wait: Wait, answer: Answer) =>
	createHmac('sha256', wait.secret).update(`${wait.id}:${answer}`).digest('base64url');

/** A new wait of this run of the node, kept in its context (one at a time: a new one replaces the last). */
export function newWait(context: IExecuteFunctions): Wait {
	const wait = {
		id: randomBytes(9).toString('base64url'),
		secret: randomBytes(32).toString('base64url'),
		execution: context.getExecutionId(),
	};
	context.getContext('node')[WAIT_KEY] = `${wait.id}.${wait.secret}.${wait.execution}`;
	return wait;
}

const parseWait = (value: unknown): Wait | undefined => {
	if (typeof value !== 'string') return undefined;
	const [id, secret, execution] = value.split('.');
	return id && secret ? { id, secret, execution: execution ?? '' } : undefined;
};

/** The wait this run of the node keeps (by execute, or by an earlier try of the run). */
export const keptWait = (context: IExecuteFunctions): Wait | undefined =>
	parseWait(context.getContext('node')[WAIT_KEY]);

/**
 * The wait the node is in now, as the webhook reads it: n8n gives a webhook no node context of its own, but its
 * expressions see the waiting execution's data, the node's context included (`$node[name].context`). Throws
 * when n8n cannot evaluate that: the link cannot be checked then, and nothing is recorded.
 */
export function currentWait(context: IWebhookFunctions): Wait | undefined {
	const expression = `{{ $node[${JSON.stringify(context.getNode().name)}].context[${JSON.stringify(WAIT_KEY)}] }}`;
	return parseWait(context.evaluateExpression(expression, 0));
}

/** n8n 1.x checks a waiting execution's signatures only once a node asks (n8n 2.x always does). */
interface SignatureValidation {
	setSignatureValidationRequired?: () => void;
}

/** Makes n8n check the signature of every request to this wait's links, on the lines where it must be asked. */
export function requireSignatures(context: IExecuteFunctions) {
	(context as SignatureValidation).setSignatureValidationRequired?.();
}

/** The link of an answer: n8n's signed resume URL of this node, with the wait and its token. */
export function answerLink(context: IExecuteFunctions, wait: Wait, answer: Answer): string {
	const parameters = {
		approved: answer === 'false' ? 'false' : 'true',
		wait: wait.id,
		token: token(wait, answer),
	};
	if (typeof context.getSignedResumeUrl === 'function')
		return context.getSignedResumeUrl(parameters);
	// n8n before signed resume links: the execution's resume URL and this node's path; the token guards it.
	const base = String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0));
	const url = new URL(`${base}/${encodeURIComponent(context.getNode().id)}`);
	for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
	return url.toString();
}

/** How a request's link stands against the wait the node is in. */
export type LinkCheck = 'valid' | 'otherWait' | 'invalid';

/** Checks a link's wait and token (constant time); `answer` is what the request asks to record. */
export function checkLink(
	wait: Wait | undefined,
	query: Record<string, unknown>,
	answer: Answer,
): LinkCheck {
	const given = typeof query.token === 'string' ? Buffer.from(query.token) : undefined;
	if (!given || typeof query.wait !== 'string') return 'invalid';
	if (!wait || query.wait !== wait.id) return 'otherWait';
	const expected = Buffer.from(token(wait, answer));
	return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid';
}
