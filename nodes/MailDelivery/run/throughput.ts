/** How a run sends its requests: how many at once, how long to wait out "try later", how long for an answer. */
import type { IDataObject, INode } from 'n8n-workflow';

import { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, type RetryPolicy } from '../../shared/transport';
import { inputError } from './itemErrors';

/** Requests under way at once: by default, and at most. */
export const DEFAULT_PARALLEL_REQUESTS = 4;
export const MAX_PARALLEL_REQUESTS = 16;
/** The longest a request may wait over its retries, in seconds (Max Wait's maximum). */
export const MAX_RETRY_WAIT_SECONDS = 3600;
/** The longest Timeout, in seconds: ten minutes, twice n8n's own default. */
export const MAX_TIMEOUT_SECONDS = 600;

export interface Throughput {
	/** Requests under way at once, at most; after a 429 the run is also paced to the rate the platform accepts. */
	parallel: number;
	retry: RetryPolicy;
	/** How long each request waits for an answer. */
	timeoutMs: number;
}

/** A whole-number option of a run (read once, for item 0), checked against its range. */
export function wholeNumberOption(
	node: INode,
	label: string,
	value: unknown,
	fallback: number,
	min: number,
	max: number,
): number {
	const read = value === undefined || value === '' ? fallback : Number(value);
	if (!Number.isInteger(read) || read < min || read > max) {
		throw inputError(
			node,
			`Field "${label}" must be a whole number from ${min} to ${max} (it is ${String(value)})`,
			0,
		);
	}
	return read;
}

/** Parallelism, retry policy and time-out of a run, from its Options collection, checked. */
export function throughputOf(
	node: INode,
	options: IDataObject,
	defaultParallel = DEFAULT_PARALLEL_REQUESTS,
): Throughput {
	const number = (label: string, value: unknown, fallback: number, min: number, max: number) =>
		wholeNumberOption(node, label, value, fallback, min, max);
	return {
		parallel: number(
			'Requests in Parallel',
			options.parallelRequests,
			defaultParallel,
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
