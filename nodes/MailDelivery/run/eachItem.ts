/**
 * An operation run item by item on the engine (engine.ts), its simplest case: each item is one entry and one
 * request (the operation's `execute`, which reads the item's parameters and makes its request, or a few), the
 * item's result is its output, and a refusal is explained with one look-up of the records it names. Items
 * acting on the same record run in input order.
 *
 * One rule for a bad item in every operation: while the run reads its items, each item's `execute` runs up to
 * its first request (or `item.sending()`), where it waits. So whatever it finds wrong without the platform
 * (a field's rule, a missing value) refuses the item before the run's first request, as Send's reading does,
 * and under Stop Workflow nothing is sent. The engine then lets each waiting item go on when its request is due.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, apiRequestPages, type RequestOptions } from '../../shared/transport';
import { type Entry, Run } from './engine';
import type { ItemOperationModule, ItemRun } from './operation';
import type { ParameterReader } from '../items/parameterReader';
import { explainRefusal } from './refusals';

/** An item whose `execute` waits at its first request: `send` lets it on, with the run's request options. */
interface HeldItem extends Entry {
	send(request: RequestOptions): Promise<IDataObject | IDataObject[]>;
}

/**
 * Runs the item's `execute` until it first asks for a request (or for `sending()`), and returns it held there.
 * It throws the item's own error when `execute` fails before that: the item is refused before any request.
 */
async function heldItem(
	context: IExecuteFunctions,
	reader: ParameterReader,
	module: ItemOperationModule,
	index: number,
): Promise<HeldItem> {
	let reached!: () => void;
	const waiting = new Promise<void>((resolve) => (reached = resolve));
	let release!: (request: RequestOptions) => void;
	const released = new Promise<RequestOptions>((resolve) => (release = resolve));
	const sending = async () => {
		reached();
		return await released;
	};
	const item: ItemRun = {
		...reader.forItem(index),
		sending: async () => void (await sending()),
		request: async (path, body = {}) => await apiRequest.call(context, path, body, await sending()),
		pages: async (path, body, listKey, paging) =>
			await apiRequestPages.call(context, path, body, listKey, {
				...paging,
				itemIndex: index,
				request: await sending(),
			}),
	};
	const result = module.execute.call(context, item);
	// Settles when the item waits at its first request, or rejects with the error its checks found. A run that
	// stops before this item's turn never releases it: nothing is left to answer.
	await Promise.race([waiting, result]);
	return {
		itemIndex: index,
		send: async (request) => {
			release(request);
			return await result;
		},
	};
}

export async function runEachItem(
	run: Run<Entry, IDataObject | IDataObject[]>,
	module: ItemOperationModule,
): Promise<INodeExecutionData[]> {
	const { context, reader } = run;
	const entries = await run.read<HeldItem>(async (item) => [
		await heldItem(context, reader, module, item.index),
	]);
	run.pack(entries, {
		maxPerRequest: 1,
		// An item whose record cannot be read runs in no particular order (its request fails alone).
		recordOf: (entry) => {
			try {
				return module.recordOf?.(reader.forItem(entry.itemIndex));
			} catch {
				return undefined;
			}
		},
	});
	await run.send({
		send: async ([entry], _fixed, request) => {
			const data = await (entry as HeldItem).send(request);
			return { answer: {}, sandbox: false, fixed: data };
		},
		explain: async ([entry], _fixed, error) =>
			await explainRefusal(context, run.node, module.named, error, reader.forItem(entry.itemIndex)),
	});
	const outputs = run.outputs({ describe: (outcome) => outcome.accepted!.fixed });
	// An operation that asks a person waits once item 0's request was accepted, by this try or an earlier one.
	const sent = run.outcomes.items[0]?.accepted?.fixed;
	if (module.wait && sent && !Array.isArray(sent))
		await module.wait.call(context, reader.forItem(0), sent);
	return outputs;
}
