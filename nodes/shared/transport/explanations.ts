/**
 * English explanations of the platform's codes. Section 7 lists conditions for two operations; a contact's
 * look-up and deletion get the likely cause of a 403; every other operation gets the generic explanation of
 * its code. The platform's own message (short, in Chinese) is always kept beside the explanation.
 */
import type { IDataObject } from 'n8n-workflow';

const GENERIC: Record<number, string> = {
	400: 'The request was rejected as invalid: a required field is missing, or a value has a wrong format or is too long.',
	401: "Authentication failed: the API key or signature is wrong, the signature timestamp is older than 5 minutes (check this machine's clock), or the access token is unknown or expired.",
	403: 'The request was refused: a named list, template, sender or task does not exist, or the account lacks a permission or mail credits.',
	404: 'The platform did not find the requested address; check the Base URL of the credential.',
	500: 'The platform had an internal error. Try again later; if it keeps failing, contact the platform.',
};

const namesOnlyTheAddress =
	"The platform answers 403 when a record a request names does not exist, and this request names only the contact's address (the API does not document this operation's errors).";

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

/**
 * Where the API documents no errors and the node can look nothing up, the cause a refusal most likely has, in
 * words naming the request's value: a request that names one record and is refused 403 names a record that
 * does not exist (as the emulator plays the platform: a named thing that does not exist is 403). A contact is
 * looked up by the very request that failed, so no look-up can confirm it.
 */
const LIKELY_CAUSES: Record<
	string,
	Record<number, { cause: (request: IDataObject) => string; why: string }>
> = {
	'/v5/contacts/get': { 403: { cause: noContact, why: namesOnlyTheAddress } },
	'/v5/contacts/delete': { 403: { cause: noContact, why: namesOnlyTheAddress } },
};

function noContact(request: IDataObject): string {
	return `it knows no contact with the address ${String(request.email ?? '')}`;
}

/** The likely cause of a refusal, for the error's title ("most likely it knows no contact with …"). */
export function likelyCause(path: string, code: number, request: IDataObject): string | undefined {
	return LIKELY_CAUSES[path]?.[code]?.cause(request);
}

export function explainCode(path: string, code: number): string {
	const likely = LIKELY_CAUSES[path]?.[code];
	if (likely) return likely.why;
	const conditions = CONDITIONS[path]?.[code];
	if (conditions && conditions.length > 0) {
		return conditions.length === 1
			? `The platform answered code ${code}: ${conditions[0]}.`
			: `The platform answered code ${code}, which for this operation means one of: ${conditions.join('; ')}.`;
	}
	return GENERIC[code] ?? `The platform answered code ${code}, which it does not document.`;
}
