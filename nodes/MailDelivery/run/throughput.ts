/** How a run sends its requests: how many at once, how long to wait out "try later", how long for an answer. */
import type { IDataObject, INode } from 'n8n-workflow';

import { DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, type RetryPolicy } from '../../shared/transport';
import { ConcurrencyLimit } from '../../shared/transport/concurrency';
import { ADAPTIVE_START, DEFAULT_CEILING } from '../../shared/transport/concurrencyTuning';
import { inputError } from '../items/itemErrors';

/** The most requests under way at once, fixed or as the ceiling of a number that follows the platform. */
export const MAX_PARALLEL_REQUESTS = 128;
/** The longest a request may wait over its retries, in seconds (Max Wait's maximum). */
export const MAX_RETRY_WAIT_SECONDS = 3600;
/** The longest Timeout, in seconds: ten minutes, twice n8n's own default. */
export const MAX_TIMEOUT_SECONDS = 600;

/**
 * How many requests an operation runs at once when its Options set none: a fixed number (campaigns are created
 * one after another), or `adaptive`: from ADAPTIVE_START, following the platform up to DEFAULT_CEILING.
 */
export type DefaultParallel = number | 'adaptive';

/** Requests in Parallel's value that follows the platform: the default of most operations. */
export const FOLLOW_THE_PLATFORM = 0;

export interface Throughput {
	/**
	 * The most requests under way at once: the fixed number, or the ceiling of one that follows the platform;
	 * after a 429 the run is also paced to the rate the platform accepts.
	 */
	parallel: number;
	/** Whether the number follows the platform (run/engine.ts, transport/concurrency.ts), from `start`. */
	adaptive: boolean;
	/** Requests under way at once at the start. */
	start: number;
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

/**
 * Parallelism, retry policy and time-out of a run, from its Options collection, checked. Requests in Parallel
 * 1 to 128: exactly that many at once; 0: following the platform up to DEFAULT_CEILING; not set: the
 * operation's default, which for most follows the platform.
 */
export function throughputOf(
	node: INode,
	options: IDataObject,
	defaultParallel: DefaultParallel = 'adaptive',
): Throughput {
	const number = (label: string, value: unknown, fallback: number, min: number, max: number) =>
		wholeNumberOption(node, label, value, fallback, min, max);
	const chosen = number(
		'Requests in Parallel',
		options.parallelRequests,
		defaultParallel === 'adaptive' ? FOLLOW_THE_PLATFORM : defaultParallel,
		FOLLOW_THE_PLATFORM,
		MAX_PARALLEL_REQUESTS,
	);
	const adaptive = chosen === FOLLOW_THE_PLATFORM;
	const parallel = adaptive ? DEFAULT_CEILING : chosen;
	return {
		parallel,
		adaptive,
		start: adaptive ? Math.min(ADAPTIVE_START, parallel) : parallel,
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

/** The run's number of requests at once: fixed, or following the platform from `start` up to `parallel`. */
export const concurrencyOf = (throughput: Throughput) =>
	new ConcurrencyLimit(throughput.start, throughput.parallel, throughput.adaptive);
