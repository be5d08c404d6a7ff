/** Reading parameters: the values operations send, checked and in the API's formats. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { PastSendDateError, toApiDay, toApiSendDate } from '../../shared/dates';
import { inputError } from './validation';

/** Adds `sandboxMode: true` to the body when the toggle is on; off, nothing is sent. */
export function applySandboxMode(this: IExecuteFunctions, body: IDataObject, itemIndex: number) {
	if (this.getNodeParameter('sandboxMode', itemIndex, false) === true) body.sandboxMode = true;
	return body;
}

export function pagingOf(this: IExecuteFunctions, itemIndex: number) {
	return {
		returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
		// The tool version has its own Limit field (toolLimit, 10 by default) instead of limit.
		limit: (this.getNodeParameter('limit', itemIndex, null) ??
			this.getNodeParameter('toolLimit', itemIndex, 50)) as number,
		itemIndex,
	};
}

/** Reads a resource locator (or a plain string from older workflows) as a trimmed name. */
export function locatorValue(this: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	return typeof value === 'string' ? value.trim() : String(value ?? '').trim();
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
export function sendDateParam(
	this: IExecuteFunctions,
	field: string,
	value: unknown,
	itemIndex: number,
) {
	try {
		return toApiSendDate(value, this.getTimezone());
	} catch (error) {
		throw inputError(
			this.getNode(),
			error instanceof PastSendDateError
				? `Field "${field}" (${error.date}) is in the past; leave it empty to send at once`
				: `Field "${field}" is not a date and time that can be read: ${typeof value === 'number' ? `${value} (numbers are epoch seconds below 10^11, milliseconds from there)` : `"${String(value)}"`}`,
			itemIndex,
		);
	}
}

function dayParam(this: IExecuteFunctions, field: string, value: unknown, itemIndex: number) {
	try {
		return toApiDay(value, this.getTimezone());
	} catch {
		throw inputError(
			this.getNode(),
			`Field "${field}" is not a day that can be read: "${String(value)}"`,
			itemIndex,
		);
	}
}

/** Reads a JSON parameter that may arrive as text or as an object. */
export function jsonParam(
	this: IExecuteFunctions,
	field: string,
	value: unknown,
	itemIndex: number,
): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		throw inputError(this.getNode(), `Field "${field}" is not valid JSON`, itemIndex);
	}
}

export function readDayRange(this: IExecuteFunctions, itemIndex: number): IDataObject {
	const startDate = dayParam.call(
		this,
		'Start Day',
		this.getNodeParameter('startDate', itemIndex, ''),
		itemIndex,
	);
	const endDate = dayParam.call(
		this,
		'End Day',
		this.getNodeParameter('endDate', itemIndex, ''),
		itemIndex,
	);
	if (!startDate || !endDate) {
		throw inputError(
			this.getNode(),
			`Field "${startDate ? 'End Day' : 'Start Day'}" is required`,
			itemIndex,
		);
	}
	if (startDate > endDate) {
		throw inputError(
			this.getNode(),
			`Field "Start Day" (${startDate}) is after "End Day" (${endDate})`,
			itemIndex,
		);
	}
	return { startDate, endDate };
}
