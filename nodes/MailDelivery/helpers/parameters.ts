/** Helpers that operations call to read their parameters and shape their output. */
import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS } from '../actions/common.descriptions';
import { DEFAULT_RETRY } from '../transport';
import { toApiDateTime, toApiDay } from './dates';
import { inputError } from './limits';

/** Adds `sandboxMode: true` to the body when the toggle is on; off, nothing is sent. */
export function applySandboxMode(this: IExecuteFunctions, body: IDataObject, itemIndex: number) {
	if (this.getNodeParameter('sandboxMode', itemIndex, false) === true) body.sandboxMode = true;
	return body;
}

/** The answer of a write operation as an output item: the platform's code and message, plus context. */
export function writeResult(body: IDataObject, answer: IDataObject, extra: IDataObject = {}): IDataObject {
	return {
		success: true,
		...(body.sandboxMode === true ? { sandboxMode: true } : {}),
		...extra,
		code: answer.code,
		message: answer.message ?? '',
	};
}

export function pagingOf(this: IExecuteFunctions, itemIndex: number) {
	return {
		returnAll: this.getNodeParameter('returnAll', itemIndex, false) as boolean,
		// The tool version has its own Limit field (toolLimit, 10 by default) instead of limit.
		limit: (this.getNodeParameter('limit', itemIndex, null) ?? this.getNodeParameter('toolLimit', itemIndex, 50)) as number,
		itemIndex,
	};
}

/** Reads a resource locator (or a plain string from older workflows) as a trimmed name. */
export function locatorValue(this: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = this.getNodeParameter(name, itemIndex, '', { extractValue: true }) as unknown;
	return typeof value === 'string' ? value.trim() : String(value ?? '').trim();
}

/** Sets `target[key]` when the value is not empty, so only what the user filled in is sent. */
export function setIfPresent(target: IDataObject, key: string, value: unknown) {
	if (value === undefined || value === null || value === '') return;
	if (Array.isArray(value) && value.length === 0) return;
	target[key] = value as IDataObject[keyof IDataObject];
}

export function dateTimeParam(this: IExecuteFunctions, field: string, value: unknown, itemIndex: number) {
	try {
		return toApiDateTime(value, this.getTimezone());
	} catch {
		throw inputError(this.getNode(), `Field "${field}" is not a date and time that can be read: "${String(value)}"`, itemIndex);
	}
}

function dayParam(this: IExecuteFunctions, field: string, value: unknown, itemIndex: number) {
	try {
		return toApiDay(value, this.getTimezone());
	} catch {
		throw inputError(this.getNode(), `Field "${field}" is not a day that can be read: "${String(value)}"`, itemIndex);
	}
}

/** Where an attachment is, checked but not read: files are read only when their request is sent. */
export interface AttachmentReference {
	itemIndex: number;
	property: string;
	fileName: string;
	/** Equal for equal files: n8n's binary id, or a hash of in-memory data. */
	identity: string;
}

/** The platform takes one attachment, from a binary property of the input item. */
export function attachmentReference(this: IExecuteFunctions, itemIndex: number, propertyName: string): AttachmentReference | undefined {
	const property = propertyName.trim();
	if (!property) return undefined;
	const binary = this.getInputData()[itemIndex]?.binary?.[property];
	if (!binary) {
		throw inputError(this.getNode(), `Field "Attachment Binary Property": the input item has no binary property "${property}"`, itemIndex);
	}
	const identity = binary.id ?? createHash('sha1').update(binary.data ?? '').digest('hex');
	return { itemIndex, property, fileName: binary.fileName ?? property, identity };
}

/** Reads the file as the API wants it: { fileName, fileData (base64) }. */
export async function readAttachment(this: IExecuteFunctions, reference: AttachmentReference) {
	const buffer = await this.helpers.getBinaryDataBuffer(reference.itemIndex, reference.property);
	return { fileName: reference.fileName, fileData: buffer.toString('base64') };
}

export async function attachmentFromBinary(this: IExecuteFunctions, itemIndex: number, propertyName: string) {
	const reference = attachmentReference.call(this, itemIndex, propertyName);
	return reference ? await readAttachment.call(this, reference) : undefined;
}

/** Reads a JSON parameter that may arrive as text or as an object. */
export function jsonParam(this: IExecuteFunctions, field: string, value: unknown, itemIndex: number): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		throw inputError(this.getNode(), `Field "${field}" is not valid JSON`, itemIndex);
	}
}

export function readDayRange(this: IExecuteFunctions, itemIndex: number): IDataObject {
	// The fields are labelled in days from version 1.1.
	const [startLabel, endLabel] = this.getNode().typeVersion >= 1.1 ? ['Start Day', 'End Day'] : ['Start Date', 'End Date'];
	const startDate = dayParam.call(this, startLabel, this.getNodeParameter('startDate', itemIndex, ''), itemIndex);
	const endDate = dayParam.call(this, endLabel, this.getNodeParameter('endDate', itemIndex, ''), itemIndex);
	if (!startDate || !endDate) {
		throw inputError(this.getNode(), `Field "${startDate ? endLabel : startLabel}" is required`, itemIndex);
	}
	if (startDate > endDate) {
		throw inputError(this.getNode(), `Field "${startLabel}" (${startDate}) is after "${endLabel}" (${endDate})`, itemIndex);
	}
	return { startDate, endDate };
}

/** A whole-number option of a batch operation (read once, for item 0), checked against its range. */
export function wholeNumberOption(this: IExecuteFunctions, label: string, value: unknown, fallback: number, min: number, max: number): number {
	const read = value === undefined || value === '' ? fallback : Number(value);
	if (!Number.isInteger(read) || read < min || read > max) {
		throw inputError(this.getNode(), `Field "${label}" must be a whole number from ${min} to ${max} (it is ${String(value)})`, 0);
	}
	return read;
}

/** Parallelism and retry policy of a batch operation, from its Options collection, checked. */
export function batchOptionsOf(this: IExecuteFunctions, options: IDataObject) {
	const number = wholeNumberOption.bind(this);
	return {
		parallel: number('Requests in Parallel', options.parallelRequests, DEFAULT_PARALLEL_REQUESTS, 1, MAX_PARALLEL_REQUESTS),
		retry: {
			maxAttempts: number('Retry Attempts', options.retryAttempts, DEFAULT_RETRY.maxAttempts, 1, 20),
			maxWaitMs: number('Max Retry Wait (Seconds)', options.retryMaxWaitSeconds, DEFAULT_RETRY.maxWaitMs / 1000, 0, 3600) * 1000,
		},
	};
}
