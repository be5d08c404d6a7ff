/**
 * The mail's response links, bound to one wait, answerable only with the mail in hand.
 *
 * n8n signs them (getSignedResumeUrl: an HMAC of the path and query with the instance's secret, checked by n8n
 * before the node sees the request). That is not enough: n8n's waiting route also takes the execution's resume
 * token in place of a signature, and whoever may read the execution (an API key with execution:read, a project
 * viewer) reads that token. So each link also carries the wait's id and a token, an HMAC of the execution, the
 * node, the wait and the answer, keyed with a key derived from the credential's secret: n8n keeps that secret
 * encrypted, gives it to no reader of executions, and the node reads it again when the answer comes. The
 * execution keeps the wait's id and what the mail asked (the node's context, read back by the webhook), never the
 * key. A link of another wait of this node (a loop, an AI agent's next tool call) is refused: its wait is not
 * the one kept.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	IRunExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import type { Answer, Asked } from './settings';

/** Where the current wait is kept: the node's context (getContext('node')), under this key. */
const WAIT_KEY = 'sendAndWait';

/** The wait a link belongs to: its id, the execution its links resume, its credential, what it asked. */
export interface Wait {
	id: string;
	execution: string;
	/** The credential type whose secret keys the links (read again by the webhook). */
	credential: string;
	asked: Asked;
	/** When the time to answer ends (ISO), and the workflow's time zone, in which a page says it. */
	until?: string;
	zone?: string;
}

/**
 * Where each credential type keeps its secret: the key the platform checks signatures with, or the OAuth2
 * client's secret. Never the OAuth2 access token, which n8n replaces when it expires (the links would die).
 */
const SECRET_FIELDS: Record<string, string> = {
	mailDeliverySignatureApi: 'apiSecret',
	mailDeliveryClientCredentialsOAuth2Api: 'apiSecret',
	mailDeliveryAuthCodeOAuth2Api: 'clientSecret',
};

/** The credential has no secret to key the links with, in words naming the field. */
export class LinkKeyError extends Error {}

/**
 * The key of a wait's tokens, derived from the credential's secret (HKDF: the secret is never an HMAC key
 * itself, so a signature the platform's scheme makes with it never equals a link's token).
 */
export async function linkKey(
	context: IExecuteFunctions | IWebhookFunctions,
	credential: string,
): Promise<Buffer> {
	const field = SECRET_FIELDS[credential];
	const secret = field ? (await context.getCredentials(credential))[field] : undefined;
	if (typeof secret !== 'string' || secret === '')
		throw new LinkKeyError(
			`The credential has no ${field === 'clientSecret' ? 'Client Secret' : 'API Secret'}: the response links are keyed with it`,
		);
	return Buffer.from(
		hkdfSync('sha256', secret, 'n8n-nodes-mail-delivery', 'send-and-wait links', 32),
	);
}

const token = (key: Buffer, node: string, wait: Wait, answer: Answer) =>
	createHmac('sha256', key)
		.update([wait.execution, node, wait.id, answer].join('/'))
		.digest('base64url');

/** A new wait of this run of the node, kept in its context (one at a time: a new one replaces the last). */
export function newWait(
	context: IExecuteFunctions,
	credential: string,
	asked: Asked,
	limit: { until: string | null; zone: string },
): Wait {
	const wait: Wait = {
		id: randomBytes(12).toString('base64url'),
		execution: context.getExecutionId(),
		credential,
		asked,
		...(limit.until === null ? {} : { until: limit.until, zone: limit.zone }),
	};
	context.getContext('node')[WAIT_KEY] = wait as unknown as IDataObject;
	return wait;
}

const isWait = (value: unknown): value is Wait => {
	const wait = value as Partial<Wait> | undefined;
	return (
		typeof wait?.id === 'string' &&
		typeof wait.execution === 'string' &&
		typeof wait.credential === 'string' &&
		typeof wait.asked?.responseType === 'string'
	);
};

/** The wait this run of the node keeps (by execute, or by an earlier try of the run). */
export function keptWait(context: IExecuteFunctions): Wait | undefined {
	const kept = context.getContext('node')[WAIT_KEY];
	return isWait(kept) ? kept : undefined;
}

/** A node name as a JavaScript string of escapes: no `{{`, `}}`, quote or word n8n's expressions refuse. */
const escapedName = (name: string) =>
	[...name].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join('');

/**
 * The wait the node is in now, from the waiting execution's data. n8n gives a webhook no getContext, but its
 * webhook context holds the waiting execution (n8n-core's `runExecutionData`, on both lines tested): the node's
 * context is read there by the node itself, whatever its name. Where it is missing, an expression reads it, the
 * name written as escapes. Throws when neither can be read: nothing is recorded then.
 */
export function currentWait(context: IWebhookFunctions): Wait | undefined {
	const { runExecutionData } = context as { runExecutionData?: IRunExecutionData | null };
	const kept = runExecutionData?.executionData
		? NodeHelpers.getContext(runExecutionData, 'node', context.getNode())[WAIT_KEY]
		: context.evaluateExpression(
				`{{ $node["${escapedName(context.getNode().name)}"].context["${WAIT_KEY}"] }}`,
				0,
			);
	return isWait(kept) ? kept : undefined;
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
export function answerLink(
	context: IExecuteFunctions,
	key: Buffer,
	wait: Wait,
	answer: Answer,
): string {
	const parameters = {
		approved: answer === 'false' ? 'false' : 'true',
		wait: wait.id,
		token: token(key, context.getNode().id, wait, answer),
	};
	if (typeof context.getSignedResumeUrl === 'function')
		return context.getSignedResumeUrl(parameters);
	// n8n before signed resume links: the execution's resume URL and this node's path; the token guards it.
	const base = String(context.evaluateExpression('{{ $execution.resumeUrl }}', 0));
	const url = new URL(`${base}/${encodeURIComponent(context.getNode().id)}`);
	for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
	return url.toString();
}

/** How a request's link stands against the wait the node is in. */
export type LinkCheck = 'valid' | 'otherWait' | 'invalid';

/** Checks a link's wait and token (constant time); `answer` is what the request asks to record. */
export function checkLink(
	wait: Wait | undefined,
	key: Buffer | undefined,
	node: string,
	query: Record<string, unknown>,
	answer: Answer,
): LinkCheck {
	const given = typeof query.token === 'string' ? Buffer.from(query.token) : undefined;
	if (!given || typeof query.wait !== 'string') return 'invalid';
	if (!wait || !key || query.wait !== wait.id) return 'otherWait';
	const expected = Buffer.from(token(key, node, wait, answer));
	return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid';
}
