/**
 * Runs an operation item by item, several items at once (Options → Requests in Parallel), each request paced
 * with the others after a 429. Outputs keep the input's order and pairing. Items that act on the same record
 * run in input order. An operation that changes something keeps what each item's request did in the run's
 * ledger, so n8n's Retry On Fail never makes it again. Under Stop Workflow no item starts after a failure,
 * the items under way are finished and kept, and the error names the item and what happened to the others.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, apiRequestPages, type RequestOptions } from '../../shared/transport';
import { RequestPacer } from '../../shared/transport/pacing';
import { mayHaveBeenProcessed } from '../../shared/transport/failures';
import { errorForItem, errorItem, withWhatHappened } from './itemErrors';
import { capitalized, describeItems } from './itemNames';
import { earlierFailure, keptFailure, SentLedger } from './ledger';
import type { ItemOperationModule, ItemRun } from './operation';
import type { ParameterReader } from './parameters';
import { explainRefusal } from './refusals';
import { throughputOf } from './throughput';

/** Requests in Parallel as the operation's Options field offers it (actions/common.descriptions.ts). */
function parallelByDefault(properties: INodeProperties[]): number {
	const options = properties.find((property) => property.name === 'options')?.options ?? [];
	const field = (options as INodeProperties[]).find((option) => option.name === 'parallelRequests');
	return typeof field?.default === 'number' ? field.default : 1;
}

type Outcome = { data: IDataObject | IDataObject[] } | { error: unknown };

/** "Items 0–3 were done; items 5–999 were not run." for an error that stops a run of several at once. */
function othersSummary(outcomes: Array<Outcome | undefined>, failedItem: number): string {
	const done: number[] = [];
	const notRun: number[] = [];
	outcomes.forEach((outcome, index) => {
		if (index === failedItem) return;
		if (outcome === undefined) notRun.push(index);
		else if ('data' in outcome) done.push(index);
	});
	const parts: string[] = [];
	if (done.length > 0)
		parts.push(`${describeItems(done)} ${done.length === 1 ? 'was' : 'were'} done`);
	if (notRun.length > 0)
		parts.push(`${describeItems(notRun)} ${notRun.length === 1 ? 'was' : 'were'} not run`);
	return parts.length > 0 ? `${capitalized(parts.join('; '))}.` : '';
}

export async function runPerItem(
	context: IExecuteFunctions,
	reader: ParameterReader,
	module: ItemOperationModule,
	scope: string,
): Promise<INodeExecutionData[]> {
	const { node } = reader;
	const items = context.getInputData();
	const continueOnFail = context.continueOnFail();
	// Throughput options are read once, for item 0: they shape the whole run.
	const throughput = throughputOf(
		node,
		(reader.get('options', 0, {}) as IDataObject) ?? {},
		parallelByDefault(module.properties),
	);
	const pacer = new RequestPacer();
	const ledger = module.effect
		? SentLedger.open<IDataObject | IDataObject[]>(context, scope, items.length)
		: undefined;
	const outcomes: Array<Outcome | undefined> = new Array(items.length);
	let stopped = false;

	const itemRun = (index: number): ItemRun => {
		const request: RequestOptions = {
			itemIndex: index,
			pacer,
			retry: throughput.retry,
			timeoutMs: throughput.timeoutMs,
		};
		return {
			...reader.forItem(index),
			request: async (path, body = {}) => await apiRequest.call(context, path, body, request),
			pages: async (path, body, listKey, paging) =>
				await apiRequestPages.call(context, path, body, listKey, {
					...paging,
					itemIndex: index,
					request,
				}),
		};
	};
	const runOne = async (index: number): Promise<Outcome> => {
		const earlier = ledger?.earlierOutcome(index, 0);
		if (earlier?.sent) return { data: earlier.sent.fixed };
		if (earlier)
			return {
				error: withWhatHappened(node, earlierFailure(node, earlier.failed!), module.effect),
			};
		const item = itemRun(index);
		try {
			const data = await module.execute.call(context, item);
			ledger?.keep({
				number: index + 1,
				size: 1,
				entries: [index, 0],
				sent: { answer: {}, sandbox: false, fixed: data },
			});
			return { data };
		} catch (caught) {
			if (ledger && mayHaveBeenProcessed(caught))
				ledger.keep({
					number: index + 1,
					size: 1,
					entries: [index, 0],
					failed: keptFailure(caught),
				});
			const explained = await explainRefusal(context, node, module.named, caught, item);
			return { error: withWhatHappened(node, explained, module.effect) };
		}
	};

	/** The record an item acts on; an item whose parameters cannot be read fails in its own run instead. */
	const recordOf = (index: number) => {
		try {
			return module.recordOf?.(reader.forItem(index));
		} catch {
			return undefined;
		}
	};
	// Items acting on the same record wait for the one before them; the others only for a free place.
	const lastOfRecord = new Map<string, Promise<unknown>>();
	let next = 0;
	const worker = async () => {
		while (!stopped && next < items.length) {
			const index = next++;
			const record = recordOf(index);
			const before = record === undefined ? undefined : lastOfRecord.get(record);
			const run = (async () => {
				await before;
				return await runOne(index);
			})();
			if (record !== undefined) lastOfRecord.set(record, run);
			const outcome = await run;
			outcomes[index] = outcome;
			if ('error' in outcome && !continueOnFail) stopped = true;
		}
	};
	await Promise.all(Array.from({ length: Math.min(throughput.parallel, items.length) }, worker));

	const failed = outcomes.findIndex((outcome) => outcome !== undefined && 'error' in outcome);
	if (failed !== -1 && !continueOnFail) {
		const error = (outcomes[failed] as { error: unknown }).error;
		if (throughput.parallel === 1) throw errorForItem(node, error, failed);
		const own = (error as { description?: string }).description;
		throw errorForItem(node, error, failed, {
			description: [own, othersSummary(outcomes, failed)].filter(Boolean).join(' '),
		});
	}
	if (failed === -1) ledger?.close();
	return outcomes.flatMap((outcome, index) =>
		'data' in outcome!
			? context.helpers.constructExecutionMetaData(context.helpers.returnJsonArray(outcome.data), {
					itemData: { item: index },
				})
			: [errorItem(outcome!.error, index)],
	);
}
