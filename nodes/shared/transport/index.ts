import type { IDataObject, IHttpRequestOptions, JsonObject } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { type ApiContext, runCredential } from './credentials';
import { explainCode, likelyCause } from './explanations';
import { type ConnectionFailure, PlatformError, processingOf } from './failures';
import type { ConcurrencyLimit } from './concurrency';
import type { Attempt } from './concurrencyFigures';
import type { RequestPacer } from './pacing';

export type { ApiContext } from './credentials';

/**
 * Retries of answers that mean "not processed, try later": HTTP 429, and 503 with Retry-After.
 * Nothing else is retried: other answers may come after the platform did the work.
 */
export interface RetryPolicy {
	/** Tries in all, the first included. */
	maxAttempts: number;
	/** The most the node waits for one request, over all its retries. */
	maxWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, maxWaitMs: 60_000 };
const BACKOFF_BASE_MS = 500;

/**
 * How long one attempt waits for an answer unless the operation sets its own (Options → Timeout (Seconds)).
 * n8n's own default is 300 s: a platform that never answers would hold a send for five minutes. One
 * minute is ample for a request of 100 messages with an attachment on a slow uplink.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface RequestOptions {
	itemIndex?: number;
	retry?: RetryPolicy;
	/** Shared by the requests of one run: paces every attempt, retries included, to what the platform accepts. */
	pacer?: RequestPacer;
	/** Shared by the requests of one run: hears each attempt's answer time or refusal (concurrency.ts). */
	concurrency?: ConcurrencyLimit;
	/** How long each attempt waits for an answer. */
	timeoutMs?: number;
}

export interface ApiResponse extends IDataObject {
	code?: number;
	message?: string | null;
}

function asObject(value: unknown): ApiResponse | undefined {
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as ApiResponse;
	if (typeof value === 'string') {
		try {
			const parsed: unknown = JSON.parse(value);
			return asObject(parsed);
		} catch {
			return undefined;
		}
	}
	return undefined;
}

/** The title of a platform error, in words: n8n shows it where a person first looks. */
function whatCodeMeans(code: number): string {
	if (code === 400) return 'The platform refused the request as invalid';
	if (code === 401) return 'The platform did not accept the credentials';
	if (code === 403) return 'The platform refused the request';
	if (code === 404) return 'The platform address was not found';
	if (code === 429) return 'The platform asked to slow down';
	if (code >= 500) return 'The platform failed to process the request';
	return 'The platform answered with an error';
}

function platformError(
	context: ApiContext,
	path: string,
	code: number,
	body: ApiResponse | undefined,
	/** The request, whose values a likely cause names ("no contact with the address …"). */
	request: IDataObject,
	{ itemIndex, tryLater }: { itemIndex?: number; tryLater?: string } = {},
): PlatformError {
	const platformMessage = body?.message ? String(body.message) : undefined;
	const explanation = `${explainCode(path, code)} (${path})`;
	const likely = likelyCause(path, code, request);
	return new PlatformError(
		context.getNode(),
		{
			path,
			code,
			...(platformMessage ? { platformMessage } : {}),
			mayHaveBeenProcessed: processingOf({ code, gaveUpTryingLater: tryLater !== undefined }),
		},
		{
			message: `${whatCodeMeans(code)} (code ${code})${likely ? `: most likely ${likely}` : ''}`,
			description: [
				explanation,
				platformMessage && `Platform message: ${platformMessage}`,
				tryLater,
			]
				.filter(Boolean)
				.join(' '),
			itemIndex,
		},
	);
}

/** Seconds or an HTTP date, as Retry-After may be written; undefined when absent or unreadable. */
function retryAfterMs(value: unknown, now = Date.now()): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with full jitter: up to 0.5 s, 1 s, 2 s, ... for attempts 1, 2, 3, ... */
const backoffMs = (attempt: number) => Math.random() * BACKOFF_BASE_MS * 2 ** (attempt - 1);

type HttpFailure = NodeApiError & {
	messages?: string[];
	cause?: {
		code?: string;
		message?: string;
		response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
	};
};

/** Connection errors by which the request never reached the platform (no connection, no name, no trust). */
const NEVER_CONNECTED =
	/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|ERR_TLS_CERT_)/;

/**
 * The error code of a failure of the connection itself (no answer came), with the client's own words;
 * undefined for an answer or any other failure (a credential's). n8n 2.x keeps axios's error as the
 * cause; n8n 1.x drops it and keeps only its code (as the HTTP code) and its message.
 */
function connectionFailureOf(failed: HttpFailure): { code: string; detail: string } | undefined {
	if (failed.cause?.response) return undefined;
	const code =
		failed.cause?.code ??
		(typeof failed.httpCode === 'string' && /^E[A-Z_]+$/.test(failed.httpCode)
			? failed.httpCode
			: undefined);
	if (typeof code !== 'string') return undefined;
	return { code, detail: failed.cause?.message ?? failed.messages?.[0] ?? failed.message };
}

/**
 * A request that got no answer, in the node's own words (n8n's would tell the user to send it again at
 * once). Its error response names what happened to the connection, which says whether the platform may
 * have processed the request (failures.ts); it holds no code, or n8n would put its own text back.
 */
function connectionError(
	context: ApiContext,
	path: string,
	{ code, detail }: { code: string; detail: string },
	timeoutMs: number,
	itemIndex?: number,
): PlatformError {
	const timedOut = (code === 'ECONNABORTED' && /timeout/i.test(detail)) || code === 'ETIMEDOUT';
	const connection: ConnectionFailure = NEVER_CONNECTED.test(code)
		? 'not made'
		: timedOut
			? 'not answered'
			: 'broken';
	const seconds = Math.round(timeoutMs / 100) / 10;
	const [message, description] = {
		'not made': [
			'The platform could not be reached',
			`No connection could be made (${detail}${code && !detail.includes(code) ? `, ${code}` : ''}): check the Base URL of the credential and the network (${path}).`,
		],
		'not answered': [
			`The platform did not answer within ${seconds} s (Timeout)`,
			`The request was sent and no answer came within ${seconds} s (${path}).`,
		],
		broken: [
			'The connection to the platform broke before it answered',
			`The connection was closed while the request was under way (${detail}) (${path}).`,
		],
	}[connection];
	return new PlatformError(
		context.getNode(),
		{ path, connection, mayHaveBeenProcessed: processingOf({ connection }) },
		{ message, description, itemIndex },
	);
}

/** What a failed attempt was: an answer (its status, the platform's code and body, whether to try later) or none. */
function attemptOutcome(failed: HttpFailure) {
	const status = failed.cause?.response?.status ?? Number(failed.httpCode);
	const answer = asObject(failed.cause?.response?.data);
	const code = typeof answer?.code === 'number' && answer.code !== 200 ? answer.code : status;
	const retryAfter = retryAfterMs(failed.cause?.response?.headers?.['retry-after']);
	const tryLater = status === 429 || (status === 503 && retryAfter !== undefined);
	return { status, answer, code, retryAfter, tryLater };
}

/** The error of a request that will not be tried again, in the node's words. */
function failureOf(
	context: ApiContext,
	request: { path: string; body: IDataObject; itemIndex?: number; timeoutMs: number },
	error: unknown,
	{ attempt, waitedMs }: { attempt: number; waitedMs: number },
): Error {
	const { path, body, itemIndex, timeoutMs } = request;
	const failed = error as HttpFailure;
	const { status, answer, code, tryLater } = attemptOutcome(failed);
	if (Number.isFinite(code) && code > 0) {
		// "Try later" to every attempt: the platform said each time that it did not process the request.
		const gaveUp = tryLater
			? `The platform answered ${status} ("try later") to ${attempt} attempt${attempt === 1 ? '' : 's'}; the node waited ${(waitedMs / 1000).toFixed(1)} s in all and gave up.`
			: undefined;
		return platformError(context, path, code, answer, body, { itemIndex, tryLater: gaveUp });
	}
	// No answer came (a connection failure, not an error of a credential): the node says what that means.
	const connection = connectionFailureOf(failed);
	if (connection) return connectionError(context, path, connection, timeoutMs, itemIndex);
	// Neither an answer nor a connection failure (a credential's own error): n8n's words, kept as they are.
	return new NodeApiError(context.getNode(), error as JsonObject, { itemIndex });
}

/** An answer that came: the platform's JSON with code 200, or its error. */
function answerOf(
	context: ApiContext,
	request: { path: string; body: IDataObject; itemIndex?: number },
	response: unknown,
): ApiResponse {
	const { path, body, itemIndex } = request;
	const answer = asObject(response);
	if (!answer) {
		throw new PlatformError(
			context.getNode(),
			{ path, mayHaveBeenProcessed: true },
			{
				message: `Mail Delivery API answered ${path} with something that is not JSON`,
				description: `The answer began: ${String(response).slice(0, 200)}`,
				itemIndex,
			},
		);
	}
	if (answer.code !== 200)
		throw platformError(context, path, Number(answer.code ?? 0), answer, body, { itemIndex });
	return answer;
}

/**
 * The one request function: POST JSON to the Base URL + path with the chosen credential.
 * A body `code` other than 200, or an HTTP error answer, becomes a NodeApiError carrying the code,
 * an English explanation and the platform's own message. HTTP errors are left to throw inside n8n's
 * helper first, so that its re-authentication after a 401 (preAuthentication) still happens.
 * 429, and 503 with Retry-After, are waited out and sent again within the retry policy; with a pacer,
 * every attempt waits its turn and a 429 slows the whole run to the rate the platform accepts.
 */
export async function apiRequest(
	this: ApiContext,
	path: string,
	body: IDataObject = {},
	itemIndexOrOptions?: number | RequestOptions,
): Promise<ApiResponse> {
	const {
		itemIndex,
		retry = DEFAULT_RETRY,
		pacer,
		concurrency,
		timeoutMs = DEFAULT_TIMEOUT_MS,
	} = typeof itemIndexOrOptions === 'number'
		? { itemIndex: itemIndexOrOptions }
		: (itemIndexOrOptions ?? {});
	const request = { path, body, itemIndex, timeoutMs };
	const options: IHttpRequestOptions = {
		method: 'POST',
		url: path,
		body,
		json: true,
		timeout: timeoutMs,
	};
	let waitedMs = 0;
	for (let attempt = 1; ; attempt++) {
		// Read once a run (it never fails: n8n's helper words a credential it cannot read), before the pacer's turn:
		// a run after one to the same platform starts paced to the rate found then.
		const credential = await runCredential(this);
		pacer?.platform(credential.platformKey);
		const startedAt = (await pacer?.beforeAttempt()) ?? 0;
		let response: unknown;
		let sentAt = Date.now();
		let onWire: Attempt | undefined;
		try {
			concurrency?.platform(credential.platformKey);
			await concurrency?.turn();
			sentAt = Date.now();
			onWire = concurrency?.sending(attempt > 1);
			response = await this.helpers.httpRequestWithAuthentication.call(
				this,
				credential.type,
				options,
				credential.options,
			);
		} catch (error) {
			const { status, retryAfter, tryLater } = attemptOutcome(error as HttpFailure);
			// "Too many", "not now" and no answer at all lower how many go at once; any other answer is timed.
			const sent = onWire === undefined ? undefined : concurrency;
			if (status === 429) sent?.refused('tooMany', onWire);
			else if (status === 503) sent?.refused('notNow', onWire);
			else if (connectionFailureOf(error as HttpFailure)) sent?.refused('noAnswer', onWire);
			else if (Number.isFinite(status)) sent?.answered(Date.now() - sentAt, onWire);
			if (status === 429) pacer?.onTooManyRequests(startedAt);
			else if (!tryLater && Number.isFinite(status)) pacer?.onAccepted(startedAt);
			else pacer?.onOtherAnswer();
			const delay = tryLater ? (retryAfter ?? backoffMs(attempt)) : 0;
			if (tryLater && attempt < retry.maxAttempts && waitedMs + delay <= retry.maxWaitMs) {
				await sleep(delay);
				waitedMs += delay;
				continue;
			}
			throw failureOf(this, request, error, { attempt, waitedMs });
		}
		pacer?.onAccepted(startedAt);
		concurrency?.answered(Date.now() - sentAt, onWire);
		return answerOf(this, request, response);
	}
}

/** The largest page the node asks for; the platform's own maximum is not documented. */
const PAGE_SIZE = 100;

export interface PagingOptions {
	returnAll: boolean;
	limit: number;
	itemIndex?: number;
	/** How each page's request is sent (pacing, retries, time-out); by default as any single request. */
	request?: RequestOptions;
	/** Stops at the page that holds a record for which this is true (a look-up by name). */
	until?: (record: IDataObject) => boolean;
}

/**
 * Follows pageSize/pageIndex pages, each once. When the answer has totalRecords, paging goes on until
 * that many records came (a platform may answer fewer than pageSize per page: its maximum is not
 * documented); without it, until an empty page. Paging stops on an empty page in any case, Limit as
 * soon as it has enough, and `until` at the page that holds what it looks for.
 */
export async function apiRequestPages(
	this: ApiContext,
	path: string,
	body: IDataObject,
	listKey: string,
	{ returnAll, limit, itemIndex, until, request }: PagingOptions,
): Promise<IDataObject[]> {
	const wanted = returnAll ? Infinity : Math.max(0, limit);
	const pageSize = returnAll ? PAGE_SIZE : Math.min(PAGE_SIZE, Math.max(1, limit));
	const records: IDataObject[] = [];
	for (let pageIndex = 1; records.length < wanted; pageIndex++) {
		const page = await apiRequest.call(
			this,
			path,
			{ ...body, pageSize, pageIndex },
			request ?? { itemIndex },
		);
		const list = Array.isArray(page[listKey]) ? (page[listKey] as IDataObject[]) : [];
		records.push(...list);
		const total = typeof page.totalRecords === 'number' ? page.totalRecords : Infinity;
		if (list.length === 0 || records.length >= total || (until && list.some(until))) break;
	}
	return returnAll ? records : records.slice(0, wanted);
}
