/**
 * A failed request to the platform, as data. The transport alone makes one (index.ts); every later reader
 * (the runners, the ledger of what was sent, refusals explained in the user's words) reads its fields,
 * never its text. It reaches n8n as a PlatformError, a NodeApiError made in one place: here.
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * What happened to the connection of a request that got no answer: never made, so nothing reached the
 * platform; or broken or not answered in time, after the request may have reached it.
 */
export type ConnectionFailure = 'not made' | 'broken' | 'not answered';

export interface RequestFailure extends IDataObject {
	/** The API path of the request ("/v5/contacts/upsert"). */
	path: string;
	/** The platform's code (its answer's `code`, else the HTTP status); absent when no answer came. */
	code?: number;
	/** The platform's own words (short, often in Chinese), when it gave any. */
	platformMessage?: string;
	/** Set when no answer came. */
	connection?: ConnectionFailure;
	/** Whether the platform may have done the work before the failure (mail may have gone out). */
	mayHaveBeenProcessed: boolean;
}

/** Codes with which the platform refuses a request without doing any of it. */
const NOT_PROCESSED = new Set([400, 401, 403, 404, 429]);

/**
 * Whether a request with this outcome may have had an effect: a refusal (4xx), a "try later" to every
 * attempt, or a connection never made did nothing; an internal error, a time-out or a broken connection
 * may have come after mail went out.
 */
export function processingOf(
	outcome: Pick<RequestFailure, 'code' | 'connection'> & { gaveUpTryingLater?: boolean },
): boolean {
	if (outcome.gaveUpTryingLater || outcome.connection === 'not made') return false;
	if (outcome.connection) return true;
	return !NOT_PROCESSED.has(outcome.code ?? NaN);
}

interface ErrorTexts {
	message: string;
	description?: string;
	itemIndex?: number;
}

/** A platform failure as n8n shows it: the title, the description, the code and the item. */
export class PlatformError extends NodeApiError {
	constructor(
		node: INode,
		readonly requestFailure: RequestFailure,
		{ message, description, itemIndex }: ErrorTexts,
	) {
		// The response n8n keeps holds no `code` of a connection failure, or n8n would put its own text back.
		super(node, requestFailure as unknown as JsonObject, {
			message,
			description,
			httpCode: requestFailure.code === undefined ? undefined : String(requestFailure.code),
			itemIndex,
		});
	}
}

/** The request failure an error carries, if the transport made it. */
export const requestFailureOf = (error: unknown): RequestFailure | undefined =>
	error instanceof PlatformError ? error.requestFailure : undefined;

/**
 * Whether a failed request may still have had an effect. An error the node made before any request
 * did nothing; one the transport did not make (n8n's own, a credential's) may have.
 */
export function mayHaveBeenProcessed(error: unknown): boolean {
	if (error instanceof NodeOperationError) return false;
	return requestFailureOf(error)?.mayHaveBeenProcessed ?? true;
}

/**
 * Whether a failed request may still have had an effect, in one sentence; `effect` says what that effect
 * would be ("mail may have gone out").
 */
export function whatWasSent(error: unknown, effect = 'it may have taken effect'): string {
	if (error instanceof NodeOperationError)
		return 'Nothing was sent: the item was refused before any request.';
	if (requestFailureOf(error)?.connection === 'not made')
		return 'Nothing of that request reached the platform.';
	if (!mayHaveBeenProcessed(error)) return 'Nothing of that request was sent or changed.';
	return `The platform may still have processed that request (${effect}): check before sending it again.`;
}

/** An error of a hook's platform I/O as n8n shows an API failure: a NodeApiError as it is, anything else made one. */
export const asNodeApiError = (node: INode, error: unknown): NodeApiError =>
	error instanceof NodeApiError ? error : new NodeApiError(node, error as JsonObject);

/**
 * The same error with other words (and the item it belongs to), of the same kind: a platform failure keeps
 * its data. The one place where the node makes a NodeApiError from another.
 */
export function restated(
	node: INode,
	error: unknown,
	texts: Partial<ErrorTexts>,
): NodeApiError | NodeOperationError {
	const failed = error as NodeApiError;
	const message = texts.message ?? failed.message;
	const description = texts.description ?? failed.description ?? undefined;
	if (error instanceof PlatformError)
		return new PlatformError(node, error.requestFailure, {
			message,
			description,
			itemIndex: texts.itemIndex,
		});
	if (error instanceof NodeApiError)
		return new NodeApiError(node, (error.errorResponse ?? {}) as JsonObject, {
			message,
			description,
			httpCode: error.httpCode ?? undefined,
			itemIndex: texts.itemIndex,
		});
	// n8n's constructor gives back a NodeOperationError it is handed, unchanged: a new one carries the words.
	if (error instanceof NodeOperationError)
		return new NodeOperationError(node, message, { description, itemIndex: texts.itemIndex });
	return new NodeOperationError(node, error as Error, {
		message,
		description,
		itemIndex: texts.itemIndex,
	});
}
