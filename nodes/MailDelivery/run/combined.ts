/**
 * The one driver of the engine's steps (engine.ts): an operation states its steps for a run as data and
 * functions (CombinedSteps), and the driver calls them in their order. An operation that combines items (Send,
 * Import) states them in its module (`steps`, made by combinedSteps); an operation run item by item states its
 * two (operation.ts, ItemSteps), which eachItem.ts makes into these.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Entry, Packing, Requests, Run } from './engine';
import type { ItemParameters } from '../items/parameterReader';
import type { CombinedRun, OpenRun } from './operation';
import type { OutputShape } from './report';

/** What an operation does in a run, in the order the driver takes it. */
interface CombinedSteps<E extends Entry, RequestData> {
	/**
	 * 0. Before any item is read, given the first: starts the requests reading them will wait for (Send: the
	 * look-up of its template), so that their round trip runs beside the reading rather than after it.
	 */
	beforeReading?: (first: ItemParameters) => void;
	/**
	 * 1. Reads and checks one item into its entries (Send: one per message version; Import: one row). An error
	 * it throws refuses the item before the run's first request.
	 */
	readItem: (item: ItemParameters) => E[] | Promise<E[]>;
	/** Whether a look-up the reading started is still under way: reading then lets it go on now and then. */
	lookingUp?: () => boolean;
	/**
	 * 2. A check of every entry once all are read, before any request (Send's missing tags under Fail the Item):
	 * it refuses items through `run.refuse` and returns the entries left to send.
	 */
	check?: (entries: E[]) => Promise<E[]>;
	/** 3. How entries are packed into requests. */
	packing: Packing<E, RequestData>;
	/** 4. How one request is made, and what its failures mean. */
	requests: Requests<E, RequestData>;
	/** 5. Each item's output; `describeAsAnswered`: made as each item is answered (nothing in it is known later). */
	outputs: OutputShape<E, RequestData>;
	describeAsAnswered?: boolean;
	/** After the requests, before the outputs are made (Send's missing tags, when they are only reported). */
	beforeOutputs?: (entries: E[]) => Promise<void>;
	/** Once the outputs are made: the run's hints. */
	hints?: () => void;
	/**
	 * However the run ends (its outputs, or an error such as items refused under Stop Workflow): waits for the
	 * requests it started beside the others (Send: the templates' look-ups), so that none is still under way once
	 * the node has ended.
	 */
	settle?: () => Promise<void>;
}

/**
 * Takes the steps in order: start what reading will wait for, read every item, check them, pack the entries, send the requests, and make every
 * item's output (under Stop Workflow the engine throws instead: engine.ts).
 */
export async function runSteps<E extends Entry, RequestData>(
	run: Run<E, RequestData>,
	steps: CombinedSteps<E, RequestData>,
): Promise<INodeExecutionData[]> {
	try {
		steps.beforeReading?.(run.reader.forItem(0));
		const read = await run.read(steps.readItem, steps.lookingUp);
		const entries = steps.check ? await steps.check(read) : read;
		run.pack(entries, steps.packing);
		if (steps.describeAsAnswered) run.describeAsAnswered(steps.outputs);
		await run.send(steps.requests);
		await steps.beforeOutputs?.(entries);
		const outputs = run.outputs(steps.outputs);
		steps.hints?.();
		return outputs;
	} finally {
		await steps.settle?.();
	}
}

/**
 * The `steps` an operation that combines items exports: `stepsFor` states them for a run, typed with the
 * operation's own entries and request data (`combinedSteps<Message, IDataObject>(…)`), from the run's
 * options and node; the router opens the run and runSteps takes them.
 */
export const combinedSteps = <E extends Entry, RequestData = IDataObject>(
	stepsFor: (this: IExecuteFunctions, run: Run<E, RequestData>) => CombinedSteps<E, RequestData>,
): CombinedRun =>
	async function (this: IExecuteFunctions, openRun: OpenRun) {
		const run = openRun<E, RequestData>();
		return await runSteps(run, stepsFor.call(this, run));
	};
