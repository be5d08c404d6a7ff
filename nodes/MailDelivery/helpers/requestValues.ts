/**
 * Values put in requests, from plain values (items/ reads them from the item): what was given set in a body,
 * a Send Date and JSON in the API's formats. A value that cannot be used throws an ItemProblem naming the field;
 * the engine names the item (items/itemErrors.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { PastSendDateError, toApiSendDate } from '../../shared/dates';
import { hasKeys } from '../../shared/parameterKinds';
import { ItemProblem } from '../items/itemErrors';

/** Text trimmed; any other value (a number from an expression) as it is, for the field rules to name. */
export const trimmed = (value: unknown) =>
	(typeof value === 'string' ? value.trim() : value) as IDataObject[string];

/** Whether a value was given: not empty, and not an empty list. */
const isGiven = (value: unknown) =>
	value !== undefined &&
	value !== null &&
	value !== '' &&
	!(Array.isArray(value) && value.length === 0);

/** The values that were given, so only what the user filled in is sent. */
export function givenOnly(values: IDataObject): IDataObject {
	const given: IDataObject = {};
	for (const key in values) if (isGiven(values[key])) given[key] = values[key];
	return given;
}

/** Sets `target[key]` when the value is not empty, so only what the user filled in is sent. */
export function setIfPresent(target: IDataObject, key: string, value: unknown) {
	if (isGiven(value)) target[key] = value as IDataObject[keyof IDataObject];
}

/**
 * A Send Date in the API's format: a date, or a number of epoch seconds (below 10^11) or milliseconds;
 * undefined when empty or a moment past (sent at once); refused when further in the past.
 */
export function sendDateOf(field: string, value: unknown, timezone: string) {
	let failure: unknown;
	try {
		return toApiSendDate(value, timezone);
	} catch (error) {
		failure = error;
	}
	// Thrown outside the catch: the engine makes an ItemProblem the item's error (items/itemErrors.ts).
	throw new ItemProblem(
		failure instanceof PastSendDateError
			? `Field "${field}" (${failure.date}) is in the past; leave it empty to send at once`
			: `Field "${field}" is not a date and time that can be read: ${typeof value === 'number' ? `${value} (numbers are epoch seconds below 10^11, milliseconds from there)` : `"${String(value)}"`}`,
	);
}

/** A JSON value that may arrive as text or as an object; empty text is undefined. */
export function jsonOf(field: string, value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		// Nothing of the parser's message is kept: it names a position, not the field.
	}
	throw new ItemProblem(`Field "${field}" is not valid JSON`);
}

/** A JSON object: an empty object or none is undefined; anything but an object is refused. */
export function jsonObjectOf(field: string, value: unknown): IDataObject | undefined {
	const parsed = jsonOf(field, value);
	if (parsed === undefined || parsed === null) return undefined;
	if (typeof parsed !== 'object' || Array.isArray(parsed))
		throw new ItemProblem(`Field "${field}" must be a JSON object such as {"name": "Ada"}`);
	return hasKeys(parsed) ? (parsed as IDataObject) : undefined;
}
