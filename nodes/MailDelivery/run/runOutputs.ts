/**
 * A run's outputs: every input item's output, paired with it, made from its outcome (outcomes.ts) in the run's
 * words (report.ts); under On Error = Stop Workflow, the error of the first failed item with what happened to the
 * others; after the execution was stopped, what was done before.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import type { ItemOutcome, Outcomes } from './outcomes';
import type { Entry } from './queue';
import {
	earlierSummary,
	isNotRun,
	outputOf,
	type OutputOf,
	type OutputShape,
	outputsOf,
	runError,
	type RunSettings,
	stoppedError,
} from './report';

/** What the run tells its outputs once its requests are over. */
interface RunEnd {
	continueOnFail: boolean;
	throughput: { parallel: number };
	/** Requests not handed out (the run was stopped). */
	requestsLeft: number;
	/** Who made the earlier tries whose outcomes the outputs show, in words (neverTwice/guard.ts). */
	earlierTry: string | undefined;
	/** Told when every item is done: nothing is left for a retry to skip. */
	everyItemDone: () => void;
}

export class RunOutputs<E extends Entry, RequestData> {
	/** Items' outputs made early, as they were answered (describeAsAnswered), for outputs() with that shape. */
	private earlyOutputs:
		{ shape: OutputShape<E, RequestData>; outputs: Array<OutputOf | undefined> } | undefined;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly node: INode,
		private readonly outcomes: Outcomes<E, RequestData>,
		private readonly settings: RunSettings,
		private readonly itemCount: number,
	) {}

	/**
	 * Makes each item's output as its last entry is answered, beside the requests still under way, when the
	 * operation's outputs hold nothing known only later: outputs() with the same shape then gathers them.
	 */
	describeAsAnswered(shape: OutputShape<E, RequestData>) {
		const outputs = new Array<OutputOf | undefined>(this.itemCount);
		const settings = this.settings;
		const reportShape = this.reportShape(shape);
		this.earlyOutputs = { shape, outputs };
		this.outcomes.onAnswered = (itemIndex) => {
			const outcome = this.outcomes.outcomeOf(itemIndex);
			if (outcome.refused === undefined)
				outputs[itemIndex] = outputOf(outcome, itemIndex, settings, reportShape);
		};
	}

	/**
	 * Every input item's output, paired with it; under Stop Workflow, the error of the first failed item with
	 * what happened to the others; after the execution was stopped, what was done before. A run that ends
	 * with every item done leaves nothing for a retry to skip.
	 */
	outputs(shape: OutputShape<E, RequestData>, run: RunEnd): INodeExecutionData[] {
		const { items } = this.outcomes;
		const settings = { ...this.settings, earlierTry: run.earlierTry };
		if (!run.continueOnFail) {
			const error = runError(this.node, items, settings, run.throughput);
			if (error) throw error;
		}
		if (run.requestsLeft > 0 || items.some(isNotRun))
			throw stoppedError(items, this.node, settings);
		// Items an earlier try did keep the record: the operation may fail after this (Send and Wait cannot wait for
		// that try's mail), and a further try of the run (Retry On Fail) must find them done.
		if (
			items.every(
				(outcome) =>
					outcome.failed.length === 0 && outcome.refused === undefined && !outcome.earlier.sent,
			)
		)
			run.everyItemDone();
		const earlier = earlierSummary(items, settings);
		if (earlier)
			this.context.addExecutionHints({
				message: `${earlier} Their results are those of that try.`,
				location: 'outputPane',
			});
		const early = this.earlyOutputs?.shape === shape ? this.earlyOutputs.outputs : undefined;
		return outputsOf(items, settings, this.reportShape(shape), early);
	}

	private reportShape(shape: OutputShape<E, RequestData>) {
		return {
			...shape,
			describe: shape.describe as (
				outcome: ItemOutcome<unknown, unknown>,
				requestsOfItem: IDataObject,
			) => IDataObject,
			inItemOrder: this.outcomes.inItemOrder as (a: unknown, b: unknown) => number,
		};
	}
}
