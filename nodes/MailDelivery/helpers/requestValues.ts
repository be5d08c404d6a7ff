/**
 * The values operations put in their requests: fields several operations share (Sandbox Mode, paging, Send Date,
 * days, JSON) read from the item, checked and in the API's formats, and a request body filled with what was given.
 */
import type { IDataObject } from 'n8n-workflow';

import { PastSendDateError, toApiDay, toApiSendDate } from '../../shared/dates';
import type { ItemParameters } from '../items/parameterReader';
import { inputError } from './validation';

/** Adds `sandboxMode: true` to the body when the toggle is on; off, nothing is sent. */
export function applySandboxMode(body: IDataObject, item: ItemParameters) {
	if (item.get<boolean>('sandboxMode', false) === true) body.sandboxMode = true;
	return body;
}

/** Return All, or at most Limit records. */
export interface Paging {
	returnAll: boolean;
	limit: number;
}

export function pagingOf(item: ItemParameters): Paging {
	return {
		returnAll: item.get<boolean>('returnAll', false),
		// The tool version has its own Limit field (toolLimit, 10 by default: common.descriptions.ts) instead of limit.
		limit: (item.get<number | null>('limit', null) ?? item.get<number>('toolLimit', 10)) as number,
	};
}

/** Text trimmed; any other value (a number from an expression) as it is, for the field rules to name. */
export const trimmed = (value: unknown) =>
	(typeof value === 'string' ? value.trim() : value) as IDataObject[string];

/** Sets `target[key]` when the value is not empty, so only what the user filled in is sent. */
export function setIfPresent(target: IDataObject, key: string, value: unknown) {
	if (value === undefined || value === null || value === '') return;
	if (Array.isArray(value) && value.length === 0) return;
	target[key] = value as IDataObject[keyof IDataObject];
}

/**
 * A Send Date in the API's format: a date, or a number of epoch seconds (below 10^11) or milliseconds;
 * undefined when empty or a moment past (sent at once); refused when further in the past.
 */
export function sendDateParam(item: ItemParameters, field: string, value: unknown) {
	try {
		return toApiSendDate(value, item.timezone);
	} catch (error) {
		throw inputError(
			item.node,
			error instanceof PastSendDateError
				? `Field "${field}" (${error.date}) is in the past; leave it empty to send at once`
				: `Field "${field}" is not a date and time that can be read: ${typeof value === 'number' ? `${value} (numbers are epoch seconds below 10^11, milliseconds from there)` : `"${String(value)}"`}`,
			item.index,
		);
	}
}

function dayParam(item: ItemParameters, field: string, name: string) {
	const value = item.get(name, '');
	try {
		return toApiDay(value, item.timezone);
	} catch {
		throw inputError(
			item.node,
			`Field "${field}" is not a day that can be read: "${String(value)}"`,
			item.index,
		);
	}
}

/** Reads a JSON parameter that may arrive as text or as an object. */
export function jsonParam(item: ItemParameters, field: string, value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		throw inputError(item.node, `Field "${field}" is not valid JSON`, item.index);
	}
}

export function readDayRange(item: ItemParameters): IDataObject {
	const startDate = dayParam(item, 'Start Day', 'startDate');
	const endDate = dayParam(item, 'End Day', 'endDate');
	if (!startDate || !endDate) {
		throw inputError(
			item.node,
			`Field "${startDate ? 'End Day' : 'Start Day'}" is required`,
			item.index,
		);
	}
	if (startDate > endDate) {
		throw inputError(
			item.node,
			`Field "Start Day" (${startDate}) is after "End Day" (${endDate})`,
			item.index,
		);
	}
	return { startDate, endDate };
}
