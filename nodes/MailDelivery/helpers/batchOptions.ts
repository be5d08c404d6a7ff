import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS } from '../../shared/transport';
import { inputError } from './validation';

/** Requests of a batch operation under way at once: by default, and at most. */
export const DEFAULT_PARALLEL_REQUESTS = 4;
export const MAX_PARALLEL_REQUESTS = 16;
/** The longest a request may wait over its retries, in seconds (Max Wait's maximum). */
export const MAX_RETRY_WAIT_SECONDS = 3600;
/** The longest Timeout, in seconds: ten minutes, twice n8n's own default. */
export const MAX_TIMEOUT_SECONDS = 600;

/** A whole-number option of a batch operation (read once, for item 0), checked against its range. */
export function wholeNumberOption(
	this: IExecuteFunctions,
	label: string,
	value: unknown,
	fallback: number,
	min: number,
	max: number,
): number {
	const read = value === undefined || value === '' ? fallback : Number(value);
	if (!Number.isInteger(read) || read < min || read > max) {
		throw inputError(
			this.getNode(),
			`Field "${label}" must be a whole number from ${min} to ${max} (it is ${String(value)})`,
			0,
		);
	}
	return read;
}

/** Parallelism, retry policy and time-out of a batch operation, from its Options collection, checked. */
export function batchOptionsOf(this: IExecuteFunctions, options: IDataObject) {
	const number = wholeNumberOption.bind(this);
	return {
		parallel: number(
			'Requests in Parallel',
			options.parallelRequests,
			DEFAULT_PARALLEL_REQUESTS,
			1,
			MAX_PARALLEL_REQUESTS,
		),
		retry: {
			maxAttempts: number(
				'Retry Attempts',
				options.retryAttempts,
				DEFAULT_RETRY.maxAttempts,
				1,
				20,
			),
			maxWaitMs:
				number(
					'Max Wait (Seconds)',
					options.retryMaxWaitSeconds,
					DEFAULT_RETRY.maxWaitMs / 1000,
					0,
					MAX_RETRY_WAIT_SECONDS,
				) * 1000,
		},
		timeoutMs:
			number(
				'Timeout (Seconds)',
				options.timeoutSeconds,
				DEFAULT_TIMEOUT_MS / 1000,
				1,
				MAX_TIMEOUT_SECONDS,
			) * 1000,
	};
}
