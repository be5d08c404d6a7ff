import { DateTime } from 'luxon';

/**
 * The one place for the platform's date formats.
 * Requests: date-times are UTC `YYYY-MM-DDThh:mm:ssZ`, days are `YYYY-MM-DD`.
 * Events: time fields arrive as `yyyy-MM-dd HH:mm:ss` with no zone.
 */
const API_DATE_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ss'Z'";
const API_DAY_FORMAT = 'yyyy-MM-dd';

/** Epoch numbers below this are seconds (up to the year 5138), from it milliseconds (from 1973). */
const EPOCH_MILLISECONDS_FROM = 1e11;

/** An epoch number as a date: seconds below 10^11, milliseconds from there; negative ones name no date. */
function fromEpoch(value: number): DateTime {
	if (!Number.isFinite(value) || value < 0) return DateTime.invalid('not an epoch time');
	const date = DateTime.fromMillis(value < EPOCH_MILLISECONDS_FROM ? value * 1000 : value, {
		zone: 'utc',
	});
	// The API's format has four digits for the year.
	return date.isValid && date.year <= 9999 ? date : DateTime.invalid('beyond the year 9999');
}

/**
 * Reads a date from n8n's date picker or an expression. Values without an offset are read in
 * `zone` (the workflow's time zone), which is how n8n's date picker values are meant. Numbers, and
 * text of 10 to 13 digits, are epoch times (fromEpoch).
 */
function parseUserDate(value: unknown, zone: string): DateTime | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	if (DateTime.isDateTime(value)) return value;
	if (value instanceof Date) return DateTime.fromJSDate(value);
	if (typeof value === 'number') return fromEpoch(value);
	if (typeof value === 'string') {
		const trimmed = value.trim();
		if (/^\d{10,13}$/.test(trimmed)) return fromEpoch(Number(trimmed));
		const iso = DateTime.fromISO(trimmed, { zone, setZone: true });
		if (iso.isValid) return iso;
		const sql = DateTime.fromSQL(trimmed, { zone });
		if (sql.isValid) return sql;
		const rfc = DateTime.fromRFC2822(trimmed, { zone });
		if (rfc.isValid) return rfc;
		const http = DateTime.fromHTTP(trimmed, { zone });
		if (http.isValid) return http;
	}
	return DateTime.invalid('unparsable');
}

/** Converts a user date to the API's UTC date-time; undefined stays undefined. */
export function toApiDateTime(value: unknown, zone: string): string | undefined {
	const date = parseUserDate(value, zone);
	if (!date) return undefined;
	if (!date.isValid) throw new Error('not a date');
	return date.toUTC().toFormat(API_DATE_TIME_FORMAT);
}

/**
 * How far in the past a send date may be and still mean "now": a date computed as now, or a minute
 * ahead, is past by the time the item is read. Such a date is left out, which the API documents as
 * sending at once; a date further in the past is most likely a mistake (a wrong unit or zone).
 */
const SEND_NOW_TOLERANCE_MS = 10 * 60_000;

/** A send date further in the past than a moment ago; `date` is it in the API's format. */
export class PastSendDateError extends Error {
	constructor(readonly date: string) {
		super(`${date} is in the past`);
	}
}

/**
 * A send date for the API: undefined when absent or within 10 minutes in the past (sent at once),
 * the UTC date-time when later; a date further in the past throws a PastSendDateError.
 */
export function toApiSendDate(
	value: unknown,
	zone: string,
	now: number = Date.now(),
): string | undefined {
	const date = parseUserDate(value, zone);
	if (!date) return undefined;
	if (!date.isValid) throw new Error('not a date');
	const text = date.toUTC().toFormat(API_DATE_TIME_FORMAT);
	if (date.toMillis() >= now) return text;
	if (date.toMillis() >= now - SEND_NOW_TOLERANCE_MS) return undefined;
	throw new PastSendDateError(text);
}

/** Converts a user date to a calendar day in `zone` (the day the user picked). */
export function toApiDay(value: unknown, zone: string): string | undefined {
	if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return value.trim();
	const date = parseUserDate(value, zone);
	if (!date) return undefined;
	if (!date.isValid) throw new Error('not a date');
	return date.setZone(zone).toFormat(API_DAY_FORMAT);
}

const EVENT_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * Reads an event time (`yyyy-MM-dd HH:mm:ss`) as wall time in `sourceZone`, as ISO 8601. A direct
 * parse: luxon's format parser costs ~15 µs a call, too much for 1000-event pushes.
 */
export function eventTimeToIso(value: unknown, sourceZone: string): string | undefined {
	if (typeof value !== 'string') return undefined;
	const match = EVENT_TIME_PATTERN.exec(value);
	if (!match) return undefined;
	const [, year, month, day, hour, minute, second] = match.map(Number);
	const date = DateTime.fromObject(
		{ year, month, day, hour, minute, second },
		{ zone: sourceZone },
	);
	return date.isValid ? (date.toISO({ suppressMilliseconds: true }) ?? undefined) : undefined;
}
