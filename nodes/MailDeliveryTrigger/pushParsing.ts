import type { IDataObject } from 'n8n-workflow';

import { eventTimeToIso } from '../shared/dates';

/**
 * Quotes every integer literal outside strings whose digits a JavaScript number would not keep (the
 * platform writes MailSeqId as a bare 19-digit integer), so JSON.parse keeps all of them.
 */
export function quoteUnsafeIntegers(text: string): string {
	if (!/\d{16}/.test(text)) return text;
	let out = '';
	let copiedUpTo = 0;
	let i = 0;
	const n = text.length;
	while (i < n) {
		const c = text.charCodeAt(i);
		if (c === 34) {
			i++;
			while (i < n) {
				const d = text.charCodeAt(i);
				if (d === 92) i += 2;
				else if (d === 34) {
					i++;
					break;
				} else i++;
			}
			continue;
		}
		if (c === 45 || (c >= 48 && c <= 57)) {
			const start = i;
			i++;
			while (i < n) {
				const d = text.charCodeAt(i);
				if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) i++;
				else break;
			}
			const token = text.slice(start, i);
			if (token.length >= 16 && /^-?\d+$/.test(token) && String(Number(token)) !== token) {
				out += `${text.slice(copiedUpTo, start)}"${token}"`;
				copiedUpTo = i;
			}
			continue;
		}
		i++;
	}
	return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo);
}

type ParsedPush = { ok: true; events: IDataObject[] } | { ok: false; problem: string };

const isEvent = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);
/** A MailSeqId key and its value as written; a key cannot stand like this inside a JSON string. */
const MAIL_SEQ_ID =
	/"MailSeqId"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|true|false|null)/g;

/**
 * Whether a key is written with an escape (`"MailSeq\u0049d"`), which the MailSeqId scan would not see.
 * One pass over the string literals: a regular expression for it backtracks on long runs of backslashes,
 * and this runs in webhook() on bodies anyone with the URL can send.
 */
function hasEscapedKey(text: string): boolean {
	let at = text.indexOf('"');
	while (at !== -1) {
		let end = at + 1;
		let escaped = false;
		while (end < text.length && text.charCodeAt(end) !== 34 /* " */) {
			if (text.charCodeAt(end) === 92 /* \ */) {
				escaped = true;
				end++;
			}
			end++;
		}
		let next = end + 1;
		while (next < text.length && ' \t\r\n'.includes(text[next])) next++;
		if (escaped && text[next] === ':') return true;
		at = text.indexOf('"', end + 1);
	}
	return false;
}

/**
 * The fast path: n8n has already parsed the JSON body (losing the last digits of MailSeqId), so the
 * node takes the events from it and only the digits of each MailSeqId from the raw text, in order.
 * Taken only when that is exact: flat events, every key written without escapes and one MailSeqId key
 * per event that has one (a key written twice counts twice: JSON keeps the last, the exact path too),
 * no other integer beyond 2^53. Otherwise undefined, and the body is parsed again exactly.
 */
export function eventsFromParsedBody(body: unknown, rawBody: string): IDataObject[] | undefined {
	const events = isEvent(body) ? [body] : Array.isArray(body) ? body : undefined;
	if (!events) return undefined;
	if (rawBody.includes('\\') && hasEscapedKey(rawBody)) return undefined;
	let withSeqId = 0;
	for (const event of events) {
		if (!isEvent(event)) return undefined;
		for (const key in event) {
			const value = event[key];
			if (value !== null && typeof value === 'object') return undefined;
			if (
				typeof value === 'number' &&
				!Number.isSafeInteger(value) &&
				Number.isInteger(value) &&
				key !== 'MailSeqId'
			)
				return undefined;
		}
		if (event.MailSeqId !== undefined) withSeqId++;
	}
	if (withSeqId === 0) return events;
	const written: string[] = [];
	MAIL_SEQ_ID.lastIndex = 0;
	for (let match = MAIL_SEQ_ID.exec(rawBody); match; match = MAIL_SEQ_ID.exec(rawBody))
		written.push(match[1]);
	if (written.length !== withSeqId) return undefined;
	let next = 0;
	for (const event of events) {
		if (event.MailSeqId === undefined) continue;
		const literal = written[next++];
		if (typeof event.MailSeqId === 'number')
			event.MailSeqId = /^-?\d+$/.test(literal) ? literal : String(event.MailSeqId);
	}
	return events;
}

/**
 * Reads a push body: a JSON array of event objects, or one event object alone. `parsedBody` is the
 * body as n8n already parsed it (JSON requests), used when that loses nothing.
 */
export function parsePush(rawBody: string, parsedBody?: unknown): ParsedPush {
	const reused = parsedBody === undefined ? undefined : eventsFromParsedBody(parsedBody, rawBody);
	if (reused) return { ok: true, events: reused };
	let parsed: unknown;
	try {
		parsed = JSON.parse(
			quoteUnsafeIntegers(rawBody.charCodeAt(0) === 0xfeff ? rawBody.slice(1) : rawBody),
		);
	} catch {
		return { ok: false, problem: 'The body is not valid JSON' };
	}
	const events = isEvent(parsed) ? [parsed as IDataObject] : parsed;
	if (!Array.isArray(events))
		return {
			ok: false,
			problem: 'The body must be a JSON array of event objects, or one event object',
		};
	const wrong = events.findIndex((entry) => !isEvent(entry));
	if (wrong !== -1)
		return { ok: false, problem: `Entry ${wrong} of the body is not an event object` };
	for (const [index, event] of (events as IDataObject[]).entries()) {
		// MailSeqId is an identifier: always a string, whether or not a number could have held it.
		if (typeof event.MailSeqId === 'number') event.MailSeqId = String(event.MailSeqId);
		// Events are flat (API 6.1); a nested value is kept as its JSON text, so that every execution
		// n8n stores is one it can read back. Too deep a nesting is refused.
		for (const key in event) {
			const value = event[key];
			if (value === null || typeof value !== 'object') continue;
			if (nestsDeeper(value, MAX_NESTING))
				return {
					ok: false,
					problem: `Entry ${index} of the body nests field ${key} deeper than ${MAX_NESTING} levels`,
				};
			event[key] = JSON.stringify(value);
		}
	}
	return { ok: true, events: events as IDataObject[] };
}

const MAX_NESTING = 32;

/** Whether objects and arrays in `value` nest more than `limit` levels, walked without recursion. */
function nestsDeeper(value: object, limit: number): boolean {
	const stack: Array<[object, number]> = [[value, 1]];
	while (stack.length > 0) {
		const [current, depth] = stack.pop()!;
		if (depth > limit) return true;
		for (const inner of Object.values(current))
			if (inner !== null && typeof inner === 'object') stack.push([inner as object, depth + 1]);
	}
	return false;
}

const TIME_FIELDS = ['TriggeredDateTimeV2', 'SubmitDateTimeV2', 'DeliveredTimeV2'];

interface EnrichOptions {
	decodeFailedCause: boolean;
	isoTimeZone?: string;
	/** Per push: event times repeat (same second), so each distinct one is converted once. */
	isoCache?: Map<string, string | undefined>;
}

/** The codes section 6 documents, in words a workflow can branch on. */
const REASON_WORDS = new Map([
	['Bounced 100', 'Hard bounce'],
	['Bounced 101', 'Soft bounce'],
	['Dropped 110', 'Hard bounce history'],
	['Dropped 111', 'Send policy'],
	['Dropped 112', 'Expired'],
	['Dropped 210', 'Unsubscribed'],
]);
const EVENT_TYPE_WORDS = new Map([
	['3', 'Transactional'],
	['5', 'Marketing'],
]);

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Control characters other than tab and line breaks: a decoded message has none. */
function hasControlCharacters(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return true;
	}
	return false;
}

/** The text a base64 FailedCause encodes, or undefined when it is not base64 of UTF-8 text. */
function decodedText(value: string): string | undefined {
	if (value.length % 4 !== 0 || !BASE64.test(value)) return undefined;
	const bytes = Buffer.from(value, 'base64');
	const text = bytes.toString('utf8');
	// Bytes that are not UTF-8 come back changed (as U+FFFD); control characters are no message either.
	if (!Buffer.from(text, 'utf8').equals(bytes) || hasControlCharacters(text)) return undefined;
	return text;
}

/**
 * Keeps every field as sent and adds, on the event itself (each push's events are its own): the codes
 * in words (ReasonText, EventTypeText), the FailedCause as text and, when asked, ISO 8601 times.
 */
export function enrichEvent(event: IDataObject, options: EnrichOptions): IDataObject {
	if (event.Reason !== undefined) {
		const reason = REASON_WORDS.get(`${event.EventCode} ${event.Reason}`);
		if (reason !== undefined) event.ReasonText = reason;
	}
	const type = EVENT_TYPE_WORDS.get(String(event.EventType));
	if (type !== undefined) event.EventTypeText = type;
	if (options.decodeFailedCause && typeof event.FailedCause === 'string') {
		// A cause that is not base64 of text is kept as the text it is, not decoded to noise.
		event.FailedCauseText = decodedText(event.FailedCause) ?? event.FailedCause;
	}
	if (options.isoTimeZone) {
		for (const field of TIME_FIELDS) {
			const value = event[field];
			if (typeof value !== 'string') continue;
			let iso = options.isoCache?.get(value);
			if (iso === undefined && !options.isoCache?.has(value)) {
				iso = eventTimeToIso(value, options.isoTimeZone);
				options.isoCache?.set(value, iso);
			}
			if (iso) event[`${field}Iso`] = iso;
		}
	}
	return event;
}
