/**
 * An operation run item by item on the engine (engine.ts), its simplest case: each item is one entry and one
 * request (or a few), the item's result is its output, and a refusal is explained with one look-up of the
 * records it names. Items acting on the same record run in input order.
 *
 * The operation states its two steps (operation.ts, ItemSteps), and the engine calls them. While the run reads
 * its items, it calls step 1 (`prepare`) for each: whatever it finds wrong without the platform (a field's
 * rule, a missing value) refuses the item before the run's first request, as Send's reading does, and under
 * Stop Workflow nothing is sent. When an item's request is due, it calls step 2 (`send`, or sendPlan) with
 * the item's plan. The steps go through the one driver of the engine's steps (combined.ts), as those of an
 * operation that combines items do.
 */
import type { IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, apiRequestPages, type RequestOptions } from '../../shared/transport';
import type { ItemParameters } from '../items/parameterReader';
import { runSteps } from './combined';
import type { Entry } from './engine';
import type {
	ItemOperationModule,
	ItemOutput,
	ItemPlatform,
	OpenRun,
	RequestPlan,
} from './operation';
import { explainRefusal } from './refusals';

/** The output of an item an earlier try of the run did: its result stays with that try's execution. */
const DONE_BY_AN_EARLIER_TRY = { success: true, doneByAnEarlierTry: true };

const ASKED_BY_AN_EARLIER_TRY = 'Not sent: an earlier try of this step already sent the mail';

/** An item read and checked: its step 2, bound to the plan its step 1 returned. */
interface PlannedItem extends Entry {
	send: (platform: ItemPlatform) => Promise<ItemOutput>;
}

/** Step 2 of an operation whose plan is one request (a RequestPlan): the request, its answer made the output. */
const sendPlan = async (plan: RequestPlan, platform: ItemPlatform): Promise<ItemOutput> =>
	plan.output(await platform.request(plan.path, plan.body));

/** The item's entry: its step 2 bound to its plan, once step 1's plan is ready. */
function planned<Plan>(
	itemIndex: number,
	plan: Plan | Promise<Plan>,
	send: (plan: Plan, platform: ItemPlatform) => Promise<ItemOutput>,
): PlannedItem | Promise<PlannedItem> {
	const entry = (ready: Plan): PlannedItem => ({
		itemIndex,
		send: async (platform) => await send(ready, platform),
	});
	return plan instanceof Promise ? plan.then(entry) : entry(plan);
}

/** Step 1 of an item, its plan typed as the module's own, for its step 2 (or the engine's, for a RequestPlan). */
function prepared<Plan>(
	context: IExecuteFunctions,
	module: ItemOperationModule<Plan>,
	item: ItemParameters,
): PlannedItem | Promise<PlannedItem> {
	if (module.send === undefined)
		return planned(item.index, module.prepare.call(context, item), sendPlan);
	const send = module.send;
	return planned(
		item.index,
		module.prepare.call(context, item),
		async (plan, platform) => await send.call(context, plan, platform),
	);
}

/** The item's requests with the run's request options (the engine's, for the request now due). */
function platformOf(
	context: IExecuteFunctions,
	node: INode,
	index: number,
	request: RequestOptions,
): ItemPlatform {
	return {
		index,
		node,
		request: async (path, body = {}) => await apiRequest.call(context, path, body, request),
		pages: async (path, body, listKey, paging) =>
			await apiRequestPages.call(context, path, body, listKey, {
				...paging,
				itemIndex: index,
				request,
			}),
	};
}

/** Runs an operation item by item: its two steps made into the driver's steps (combined.ts), then its wait. */
export async function runEachItem<Plan>(
	openRun: OpenRun,
	module: ItemOperationModule<Plan>,
): Promise<INodeExecutionData[]> {
	const run = openRun<PlannedItem, undefined>();
	const { context, reader } = run;
	const outputs = await runSteps(run, {
		readItem: (item) => {
			const entry = prepared(context, module, item);
			return entry instanceof Promise ? entry.then((ready) => [ready]) : [entry];
		},
		packing: {
			maxPerRequest: 1,
			// An item whose record cannot be read runs in no particular order (its request fails alone).
			recordOf: (entry) => {
				try {
					return module.recordOf?.(reader.forItem(entry.itemIndex));
				} catch {
					return undefined;
				}
			},
		},
		requests: {
			send: async ([{ itemIndex, send }], _requestData, request) => {
				const itemOutput = await send(platformOf(context, run.node, itemIndex, request));
				return { answer: {}, sandbox: false, itemOutput };
			},
			explain: async ([entry], _requestData, error) =>
				await explainRefusal(
					context,
					run.node,
					module.named,
					error,
					reader.forItem(entry.itemIndex),
				),
		},
		// An item an earlier try of the run did, as its journal in n8n's store shows, has no result here
		// (neverTwice/runClaim.ts).
		outputs: { describe: (outcome) => outcome.accepted!.itemOutput ?? DONE_BY_AN_EARLIER_TRY },
	});
	// An operation that asks a person waits once item 0's request was accepted, by this try or an earlier one.
	const sent = run.outcomes.items[0]?.accepted?.itemOutput;
	if (module.wait && sent && !Array.isArray(sent))
		await module.wait.call(context, reader.forItem(0), sent);
	else if (module.wait && run.outcomes.items[0]?.earlier.sent)
		throw new NodeOperationError(run.node, ASKED_BY_AN_EARLIER_TRY, {
			itemIndex: 0,
			description:
				'An earlier try of this step sent the mail (n8n stopped during it, or another retry ran it), and its buttons and links answer the execution that sent it, so this retry cannot wait for the answer and sent no second mail. Retry with Options → Sending the Mail → Redo After a Crash on to send a new mail that answers this execution.',
		});
	return outputs;
}
