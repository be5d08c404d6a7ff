import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * English explanations of the platform's codes. Section 7 lists conditions for two operations; every
 * other operation gets the generic explanation of its code. The platform's own message (short, in
 * Chinese) is always kept beside the explanation.
 */
const GENERIC: Record<number, string> = {
	400: 'The request was rejected as invalid: a required field is missing, or a value has a wrong format or is too long.',
	401: "Authentication failed: the API key or signature is wrong, the signature timestamp is older than 5 minutes (check this machine's clock), or the access token is unknown or expired.",
	403: 'The request was refused: a named list, template, sender or task does not exist, or the account lacks a permission or mail credits.',
	404: 'The platform did not find the requested address; check the Base URL of the credential.',
	500: 'The platform had an internal error. Try again later; if it keeps failing, contact the platform.',
};

const CONDITIONS: Record<string, Record<number, string[]>> = {
	'/v5/campaign/mail/sends': {
		400: [
			'a required parameter is missing',
			'mailName is longer than 200 characters',
			'sendDate has a wrong format',
			'the attachment lacks fileName or fileData',
			'sendListNames was not given',
		],
		403: ['no contact list matches sendListNames', 'no contact list matches repelListNames'],
		500: [
			'the task could not be created',
			'attaching the file failed (the created task is kept)',
			'the task check failed (the created task is kept)',
		],
	},
	'/v5/transactional/mail/sends_customised': {
		400: [
			'a required parameter is missing',
			'sendDate has a wrong format',
			'category, campaign or uniqueMsgID is longer than allowed',
			'senderName is longer than allowed',
			"a version's to list has no recipient",
			'a to entry has no email',
			"a version's templateName matches no template",
			'replyTo fails the email format check',
			'neither content nor templateName was given',
		],
		403: [
			'senderMail is not a sender configured for the account',
			'the top-level templateName matches no template',
			'the account has too few mail credits',
		],
	},
};

export function explainCode(path: string, code: number): string {
	const conditions = CONDITIONS[path]?.[code];
	if (conditions && conditions.length > 0) {
		return conditions.length === 1
			? `The platform answered code ${code}: ${conditions[0]}.`
			: `The platform answered code ${code}, which for this operation means one of: ${conditions.join('; ')}.`;
	}
	return GENERIC[code] ?? `The platform answered code ${code}, which it does not document.`;
}

/** Codes with which the platform refuses a request without doing any of it. */
const NOT_PROCESSED = new Set([400, 401, 403, 404, 429]);

/**
 * What happened to the connection of a request that got no answer (set by the transport in the
 * error's response): never made, so nothing reached the platform; or broken or not answered in time,
 * after the request may have reached it.
 */
export type ConnectionFailure = 'not made' | 'broken' | 'not answered';

const connectionOf = (error: NodeApiError) =>
	(error.errorResponse as { connection?: ConnectionFailure } | undefined)?.connection;

/**
 * The platform's answer said "not processed, try later" (429, or 503 with Retry-After) to every attempt:
 * the transport marks the error's response, which survives when the error is explained or re-thrown.
 */
export const NOT_PROCESSED_MARK = 'notProcessed';
const markedNotProcessed = (error: NodeApiError) =>
	(error.errorResponse as Record<string, unknown> | undefined)?.[NOT_PROCESSED_MARK] === true;

/**
 * Whether a failed request may still have had an effect: a refusal (4xx) or a connection never made
 * did nothing; an internal error, a time-out or a broken connection may have come after mail went out.
 */
export function mayHaveBeenProcessed(error: unknown): boolean {
	if (error instanceof NodeOperationError) return false;
	if (
		error instanceof NodeApiError &&
		(connectionOf(error) === 'not made' || markedNotProcessed(error))
	)
		return false;
	const code = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
	return !NOT_PROCESSED.has(code);
}

/**
 * Whether a failed request may still have had an effect, in one sentence; `effect` says what that effect
 * would be ("mail may have gone out").
 */
export function whatWasSent(error: unknown, effect = 'it may have taken effect'): string {
	if (error instanceof NodeOperationError)
		return 'Nothing was sent: the item was refused before any request.';
	if (error instanceof NodeApiError && connectionOf(error) === 'not made')
		return 'Nothing of that request reached the platform.';
	if (!mayHaveBeenProcessed(error)) return 'Nothing of that request was sent or changed.';
	return `The platform may still have processed that request (${effect}): check before sending it again.`;
}
