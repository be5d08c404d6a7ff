/**
 * An operation run item by item on the engine (engine.ts), its simplest case: each item is one entry and one
 * request (the operation's `execute`, which reads the item's parameters and makes its request, or a few), the
 * item's result is its output, and a refusal is explained with one look-up of the records it names. Items
 * acting on the same record run in input order.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, apiRequestPages, type RequestOptions } from '../../shared/transport';
import { type Entry, Run } from './engine';
import type { ItemOperationModule, ItemRun } from './operation';
import type { ParameterReader } from './parameters';
import { explainRefusal } from './refusals';

/** The item's run as the operation sees it: its parameters, and requests with the run's throughput. */
function itemRun(
	context: IExecuteFunctions,
	reader: ParameterReader,
	index: number,
	request: RequestOptions,
): ItemRun {
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
}

export async function runEachItem(
	run: Run<Entry, IDataObject | IDataObject[]>,
	module: ItemOperationModule,
): Promise<INodeExecutionData[]> {
	const { context, reader } = run;
	const entries = await run.read((item) => [{ itemIndex: item.index }]);
	run.pack(entries, {
		maxPerRequest: 1,
		// An item whose parameters cannot be read fails in its own request instead.
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
			const item = itemRun(context, reader, entry.itemIndex, request);
			const data = await module.execute.call(context, item);
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
