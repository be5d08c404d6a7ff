/**
 * The node's row of n8n's deduplication store, as the never-twice rule reads and writes it (storeClaims.ts,
 * journal.ts), and the node's turns in this process: calls on a row one at a time, verdicts one at a time per
 * workflow.
 */
import type { ICheckProcessedOptions, IExecuteFunctions } from 'n8n-workflow';

import { MAX_ENTRIES, type StoreRow } from './storeClaims';

const STORE: ICheckProcessedOptions = { mode: 'entries', maxEntries: MAX_ENTRIES };

/**
 * The node's row of n8n's store (by the node's ID). Its calls are made one at a time in this process (n8n reads and
 * writes a row whole, and a count before and after a call tells what it did only with no other call in between).
 */
export function nodeRow(context: IExecuteFunctions): StoreRow {
	const key = rowKey(context);
	const direct: StoreRow = {
		record: async (entries) => {
			const { processed } = await againIfRowRaced(
				async () => await context.helpers.checkProcessedAndRecord(entries, 'node', STORE),
			);
			const recordedBefore = new Set(processed.map(String));
			return entries.map((entry) => recordedBefore.has(entry));
		},
		remove: async (entries) => await context.helpers.removeProcessed(entries, 'node', STORE),
		count: async () => await context.helpers.getProcessedDataCount('node', STORE),
		alone: async (calls) => await calls(direct),
	};
	const queued = <T>(call: (row: StoreRow) => Promise<T>) =>
		inTurn(rowQueues, key, async () => await call(direct));
	return {
		record: async (entries) => await queued(async (row) => await row.record(entries)),
		remove: async (entries) => await queued(async (row) => await row.remove(entries)),
		count: async () => await queued(async (row) => await row.count()),
		alone: async (calls) => await queued(calls),
	};
}

/**
 * n8n creates a row with a plain INSERT at its first write. When another process (a second worker) made the same new
 * row's first write at the same moment, this INSERT fails on the row's key and wrote nothing: the call is made once
 * more, and finds the row. Other failures are the caller's (a write that failed may have been made).
 */
async function againIfRowRaced<T>(call: () => Promise<T>): Promise<T> {
	// Any other failure goes on to the caller as it came (its own catch maps it).
	return await call().catch(async (error: unknown) =>
		rowKeyTaken(error) ? await call() : await Promise.reject(error),
	);
}

/** A unique-key violation, as n8n's database layer tells it (@n8n/db's isUniqueConstraintError). */
function rowKeyTaken(error: unknown): boolean {
	const codes = [error, (error as { driverError?: unknown } | undefined)?.driverError].map(
		(one) => (one as { code?: unknown } | undefined)?.code,
	);
	const message = error instanceof Error ? error.message : '';
	return (
		codes.includes('23505') ||
		codes.includes('SQLITE_CONSTRAINT_UNIQUE') ||
		codes.includes('ER_DUP_ENTRY') ||
		(codes.includes('SQLITE_CONSTRAINT') && /UNIQUE constraint/i.test(message))
	);
}

const rowKey = (context: IExecuteFunctions) =>
	`${String(context.getWorkflow().id)}:${context.getNode().id}`;

/** Calls on each row of the store, one at a time. */
const rowQueues = new Map<string, Promise<unknown>>();

/** Runs `work` after everything queued under `key` before it. */
export async function inTurn<T>(
	queues: Map<string, Promise<unknown>>,
	key: string,
	work: () => Promise<T>,
): Promise<T> {
	const queued = (queues.get(key) ?? Promise.resolve()).then(work, work);
	const settled = queued.catch(() => undefined);
	queues.set(key, settled);
	try {
		return await queued;
	} finally {
		if (queues.get(key) === settled) queues.delete(key);
	}
}
