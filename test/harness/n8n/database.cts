/**
 * n8n's database as the stand-in keeps it: what n8n writes there is JSON (a copy that later changes to the live
 * objects do not reach), read back where n8n reads it. Its tables here: the deduplication store (processed data),
 * each workflow's static data, and executions' data and status. This module runs no engine (it needs n8n-workflow's
 * types only), so that the never-twice checker's model (test/checker/model.cts) keeps its store as this one does.
 */
import type {
	IDataDeduplicator,
	IDataObject,
	IExecutionContext,
	INode,
	IRun,
	IRunExecutionData,
} from 'n8n-workflow';

/** A copy as n8n's database keeps it (JSON): later changes to the live objects are not saved. */
export const saveCopy = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export type Status = 'running' | 'waiting' | 'success' | 'error' | 'canceled' | 'crashed';

/** n8n's final status of a run that ended (shared-hook-functions determineFinalExecutionStatus). */
export function statusOf(run: IRun): Status {
	if (run.waitTill) return 'waiting';
	if (run.status === 'canceled') return 'canceled';
	return run.data.resultData.error ? 'error' : 'success';
}

/**
 * The execution's context as n8n-core establishes it (execution-context.js), naming the node that started it, with
 * its lineage (when it was established, by what): n8n saves it with the execution's data, and a Retry carries it on.
 */
export const executionContextOf = (
	trigger: Pick<INode, 'name' | 'type'>,
	lineage: { establishedAt: number; source: string },
): IExecutionContext =>
	({
		version: 1,
		...lineage,
		triggerNode: { name: trigger.name, type: trigger.type },
	}) as IExecutionContext;

/** n8n refuses to retry an execution that succeeded, whatever else it is (execution.service.js retry). */
export const retryRefusal = (status: Status) =>
	status === 'success' ? 'The execution succeeded, so it cannot be retried.' : undefined;

/**
 * What a Retry starts from (execution.service.js retry): the saved data, its error removed and the last run of its
 * last node popped when that run failed.
 */
export function retryData(saved: IRunExecutionData): IRunExecutionData {
	const data = saveCopy(saved);
	const last = data.resultData.lastNodeExecuted;
	if (last) {
		delete data.resultData.error;
		const runs = data.resultData.runData?.[last];
		if (runs && runs.length > 0 && runs[runs.length - 1].error !== undefined) runs.pop();
	}
	return data;
}

/**
 * A workflow's static data as n8n's database holds it (JSON), read into each new `Workflow` (which wraps it in
 * n8n-workflow's observable object) and written back only where n8n writes it, and only when a change was flagged
 * (WorkflowStaticDataService.saveStaticData). So a record a node keeps where n8n does not see it is lost here as in n8n.
 */
export class StaticDataRow {
	private json: string;

	constructor(initial: IDataObject = {}) {
		this.json = JSON.stringify(initial);
	}

	read(): IDataObject {
		return JSON.parse(this.json) as IDataObject;
	}

	/** WorkflowStaticDataService.saveStaticData: only a flagged change is written. */
	save(staticData: IDataObject) {
		if (staticData.__dataChanged === true) {
			this.json = JSON.stringify(staticData);
			staticData.__dataChanged = false;
		}
	}
}

/**
 * One write of a row of n8n's deduplication store by n8n's helper (`DeduplicationHelper`, mode "entries"): each item
 * looked up in the row as it was before this write (`had`, by default the row itself), each new one appended (an item
 * twice in one write is appended twice), and past `maxEntries` the oldest dropped. Changes `row`; returns the
 * helper's answer and the entries dropped.
 */
export function recordInRow(
	row: string[],
	items: string[],
	maxEntries?: number,
	had: (entry: string) => boolean = (
		(held) => (entry: string) =>
			held.has(entry)
	)(new Set(row)),
) {
	const before = new Set(items.filter(had));
	const processed: string[] = [];
	const added: string[] = [];
	for (const item of items) {
		if (before.has(item)) processed.push(item);
		else {
			added.push(item);
			row.push(item);
		}
	}
	const dropped = maxEntries ? row.splice(0, Math.max(0, row.length - maxEntries)) : [];
	return { new: added, processed, dropped };
}

/** `removeProcessed`: each item's entry taken out of the row (the first, when it is there). */
export function removeFromRow(
	row: string[],
	items: string[],
	had: (entry: string) => boolean = () => true,
) {
	const removed: string[] = [];
	for (const item of items) {
		const index = had(item) ? row.indexOf(item) : -1;
		if (index === -1) continue;
		row.splice(index, 1);
		removed.push(item);
	}
	return removed;
}

/**
 * n8n's deduplication store as n8n's cli keeps it (`DeduplicationHelper`): one record per workflow and node (or
 * workflow), across executions; in mode "entries" an ordered list, new entries appended and, past `maxEntries`,
 * the oldest dropped; `removeProcessed` takes entries out; the count is the list's length. Entries are kept as
 * given (n8n keeps their MD5): what `checkProcessedAndRecord` writes, later executions read.
 */
export const processedData = new Map<string, string[]>();
/**
 * Each row's entries counted, kept beside it (a row of 10,000 read whole at every write is what costs); `size` is
 * the row's length when last counted, so that a test that changed the row itself has it counted again.
 */
const rowCounts = new WeakMap<string[], { counts: Map<string, number>; size: number }>();
function entriesOf(key: string) {
	const entries = processedData.get(key) ?? [];
	processedData.set(key, entries);
	let kept = rowCounts.get(entries);
	if (kept?.size !== entries.length) {
		kept = { counts: new Map(), size: entries.length };
		for (const entry of entries) kept.counts.set(entry, (kept.counts.get(entry) ?? 0) + 1);
		rowCounts.set(entries, kept);
	}
	return { entries, counted: kept };
}
function forget(counts: Map<string, number>, entry: string) {
	const left = (counts.get(entry) ?? 0) - 1;
	if (left > 0) counts.set(entry, left);
	else counts.delete(entry);
}

/** A write of the row `key` as n8n's helper makes it (`recordInRow`), its count kept up. */
export function recordProcessed(key: string, items: string[], maxEntries?: number) {
	const { entries, counted } = entriesOf(key);
	const { counts } = counted;
	const written = recordInRow(entries, items, maxEntries, (item) => counts.has(item));
	for (const item of written.new) counts.set(item, (counts.get(item) ?? 0) + 1);
	for (const dropped of written.dropped) forget(counts, dropped);
	counted.size = entries.length;
	return written;
}

function removeProcessed(key: string, items: string[]) {
	const { entries, counted } = entriesOf(key);
	const { counts } = counted;
	for (const item of removeFromRow(entries, items, (entry) => counts.has(entry)))
		forget(counts, item);
	counted.size = entries.length;
}

const recordKey = (scope: string, contextData: { workflow: { id?: string }; node?: INode }) =>
	`${contextData.workflow.id}:${scope === 'node' ? contextData.node?.id : ''}`;
/** n8n's store is a database: its answer comes in a later turn of the event loop, as a query's does. */
export const databaseTurn = async () => await new Promise((resolve) => setImmediate(resolve));
/**
 * Around each write of the store (the instance facet, n8n/instance.cts): `before` may refuse it (a killed process
 * writes nothing more), `after` may stop the execution that made it (killed once the write is in the database).
 */
export const storeHooks: { before?: () => void; after?: () => Promise<void> } = {};
/**
 * Another process's first write of a row, made at the same moment as this process's (two workers, one PostgreSQL):
 * the next write that would create a row finds these entries written there by the other, and fails on the row's key
 * as n8n's INSERT does, having written nothing. Off when undefined.
 */
export const storeFaults: { rowCreatedElsewhere?: string[] } = {};
function rowKeyTaken(): Error {
	const error = Object.assign(
		new Error('duplicate key value violates unique constraint "PK_processed_data"'),
		{ name: 'QueryFailedError', code: '23505' },
	);
	return Object.assign(error, { driverError: { code: '23505' } });
}
export const deduplicator: IDataDeduplicator = {
	async checkProcessedAndRecord(items, scope, contextData, options) {
		await databaseTurn();
		storeHooks.before?.();
		const key = recordKey(scope, contextData);
		const elsewhere = storeFaults.rowCreatedElsewhere;
		if (elsewhere && !processedData.has(key)) {
			storeFaults.rowCreatedElsewhere = undefined;
			processedData.set(key, [...elsewhere]);
			throw rowKeyTaken();
		}
		const written = recordProcessed(key, items.map(String), options.maxEntries);
		await storeHooks.after?.();
		return { new: written.new, processed: written.processed };
	},
	async removeProcessed(items, scope, contextData) {
		await databaseTurn();
		storeHooks.before?.();
		removeProcessed(recordKey(scope, contextData), items.map(String));
		await storeHooks.after?.();
	},
	async clearAllProcessedItems(scope, contextData) {
		processedData.delete(recordKey(scope, contextData));
	},
	async getProcessedDataCount(scope, contextData) {
		await databaseTurn();
		return processedData.get(recordKey(scope, contextData))?.length ?? 0;
	},
};
