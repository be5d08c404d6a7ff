/**
 * The end of a run as the user sees it, in one voice for every operation: every input item's result or error,
 * paired with it; under On Error = Stop Workflow, one error that says what happened to the whole run; after the
 * execution was stopped, what was done before the stop. The words come from data: which items were done, may
 * have been, were refused or not run, and what the operation's requests do.
 */
import type { IDataObject, INode, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ConcurrencyFigures } from '../../shared/transport/concurrencyFigures';
import { whatWasSent } from '../../shared/transport/failures';
import { errorForItem, errorItem } from '../items/itemErrors';
import { asSentence, capitalized, describeItems } from '../items/itemNames';
import type { ItemOutcome } from './outcomes';

/** The settings of a run that its texts speak from (the engine's run has more: engine.ts). */
export interface RunSettings {
	/**
	 * Whether items share requests (Send, Import): what was done is "sent", an error counts the items not
	 * sent, and outputs name their requests. Otherwise each item is one request: what was done is "done".
	 */
	combined: boolean;
	/** What a request that may have reached the platform may have done ("mail may have gone out"). */
	effect?: string;
	/** Who made the earlier tries of the run, in words (neverTwice/ledger.ts, earlierTryWords). */
	earlierTry?: string;
}

type Outcome = ItemOutcome<unknown, unknown>;

const were = (indexes: number[]) => (indexes.length === 1 ? 'was' : 'were');
function indexesWhere(outcomes: Outcome[], test: (outcome: Outcome, index: number) => boolean) {
	const indexes: number[] = [];
	for (let index = 0; index < outcomes.length; index++)
		if (test(outcomes[index], index)) indexes.push(index);
	return indexes;
}
const isDone = (outcome: Outcome) => outcome.sent.length > 0 && outcome.failed.length === 0;
export const isNotRun = (outcome: Outcome) =>
	outcome.sent.length === 0 && outcome.failed.length === 0 && outcome.refused === undefined;

/** "Items 0–2 and 4 were sent; item 3 may have been sent; item 5 was not sent." */
function sentSummary(sent: number[], uncertain: number[], notSent: number[]): string {
	const parts: string[] = [];
	if (sent.length > 0) parts.push(`${describeItems(sent)} ${were(sent)} sent`);
	if (uncertain.length > 0) parts.push(`${describeItems(uncertain)} may have been sent`);
	if (parts.length === 0) parts.push('no item was sent');
	if (notSent.length > 0) parts.push(`${describeItems(notSent)} ${were(notSent)} not sent`);
	return `${capitalized(parts.join('; '))}.`;
}

/** "Items 0–3 were done; items 5–999 were not run." */
function doneSummary(done: number[], notRun: number[]): string {
	const parts: string[] = [];
	if (done.length > 0) parts.push(`${describeItems(done)} ${were(done)} done`);
	if (notRun.length > 0) parts.push(`${describeItems(notRun)} ${were(notRun)} not run`);
	return parts.length > 0 ? `${capitalized(parts.join('; '))}.` : '';
}

/** What was done of a run, in one sentence; `except`: the item whose own error is told apart. */
function whatWasDone(outcomes: Outcome[], settings: RunSettings, except = -1): string {
	const others = (test: (outcome: Outcome) => boolean) =>
		indexesWhere(outcomes, (outcome, index) => index !== except && test(outcome));
	if (!settings.combined) return doneSummary(others(isDone), others(isNotRun));
	return sentSummary(
		others(isDone),
		others((outcome) => !isDone(outcome) && outcome.uncertain),
		others((outcome) => !isDone(outcome) && !outcome.uncertain),
	);
}

/** What an earlier try of the run did, for the error or the notice of a retry. */
export function earlierSummary(outcomes: Outcome[], settings: RunSettings): string | undefined {
	const done = settings.combined ? 'sent' : 'done';
	const sent = indexesWhere(outcomes, (outcome) => outcome.earlier.sent && !outcome.earlier.failed);
	const uncertain = indexesWhere(outcomes, (outcome) => outcome.earlier.failed);
	const parts: string[] = [];
	if (sent.length > 0)
		parts.push(
			`${capitalized(describeItems(sent))} ${were(sent)} ${done} by ${settings.earlierTry ?? "an earlier try of this execution (n8n's Retry On Fail)"} and ${were(sent)} not ${done === 'sent' ? 'sent' : 'run'} again.`,
		);
	if (uncertain.length > 0)
		parts.push(
			`${capitalized(describeItems(uncertain))} ${were(uncertain)} not ${done === 'sent' ? 'sent' : 'run'} again either: ${uncertain.length === 1 ? 'its' : 'their'} request in an earlier try failed after it may have reached the platform.`,
		);
	return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * An error's description with what its request did: a platform failure says whether it may have taken
 * effect; an error found before any request says so itself.
 */
function withWhatWasSent(error: unknown, settings: RunSettings): string | undefined {
	const own = (error as { description?: string }).description ?? undefined;
	if (!(error instanceof NodeApiError)) return own;
	return [own, whatWasSent(error, settings.effect)].filter(Boolean).join(' ');
}

/**
 * What On Error = Stop Workflow (n8n's default) hid, from what this run did: with "Continue (using error
 * output)" the items it stopped before would have been run too, and the failed ones routed apart.
 */
function continueAdvice(outcomes: Outcome[], failedCount: number, settings: RunSettings): string {
	if (outcomes.length < 2) return '';
	const failed = failedCount === 1 ? 'this item' : `the ${failedCount} failed items`;
	const withContinue = `With the node's Settings → On Error → "Continue (using error output)", `;
	const stopped = indexesWhere(outcomes, isNotRun).length;
	if (stopped > 0)
		return `${withContinue}the other ${stopped === 1 ? 'item' : `${stopped} items`} this run stopped before would be ${settings.combined ? 'sent' : 'run'} too, and ${failed} routed to the error output.`;
	const succeeded = outcomes.length - failedCount;
	return `${withContinue}the ${succeeded === 1 ? 'item' : `${succeeded} items`} ${settings.combined ? 'sent' : 'done'} would go to the success output and ${failed} to the error output, and the workflow would go on.`;
}

/** An item's error message without the item it names ("…, in item 2 (the 3rd input item)"). */
const withoutItem = (message: string, itemIndex: number) =>
	message.replace(`, in ${describeItems([itemIndex])}`, '');

/**
 * Under Stop Workflow, the error of a run that stops before its first request because items were refused as
 * they were read: the first one's error, which others were refused too, and what "Continue (using error output)"
 * would do with this run's items (none to send when every item is refused). Undefined when none was.
 */
export function refusedError(node: INode, outcomes: Outcome[], settings: RunSettings) {
	const refused = indexesWhere(outcomes, (outcome) => outcome.refused !== undefined);
	if (refused.length === 0) return undefined;
	const [first, ...others] = refused;
	const error = outcomes[first].refused as Error & { description?: string };
	const parts = [error.description && asSentence(error.description)];
	if (others.length > 0) {
		const next = withoutItem((outcomes[others[0]].refused as Error).message, others[0]);
		parts.push(
			others.length === 1
				? `${capitalized(describeItems(others))} was refused too: ${asSentence(next)}`
				: `${capitalized(describeItems(others))} were refused too (the first: ${next.replace(/\.$/, '')}).`,
		);
	}
	const good = outcomes.length - refused.length;
	const done = settings.combined ? 'sent' : 'run';
	if (good > 0)
		parts.push(
			`The other ${good === 1 ? 'item was' : `${good} items were`} not ${done} either: under On Error → Stop Workflow the node checks every item before its first request, and a refused item stops them all.`,
			`With the node's Settings → On Error → "Continue (using error output)", the other ${good === 1 ? 'item' : `${good} items`} would be ${done} and ${refused.length === 1 ? 'this item' : `these ${refused.length} items`} routed to the error output.`,
		);
	else if (outcomes.length > 1)
		parts.push(
			`Every item has a problem: nothing can be ${done} until they are fixed ("Continue (using error output)" would route all ${outcomes.length} to the error output).`,
		);
	return errorForItem(node, error, first, { description: parts.filter(Boolean).join(' ') });
}

const failedItemsOf = (outcomes: Outcome[]) =>
	indexesWhere(outcomes, (outcome) => outcome.failed.length > 0 || outcome.refused !== undefined);

/**
 * Under Stop Workflow, the run's one error: the first failed item's, titled for a combined run with what
 * happened to the whole of it (n8n shows the message as the node's error title), and saying which items were
 * done and which not. Undefined when no item failed.
 */
export function runError(
	node: INode,
	outcomes: Outcome[],
	settings: RunSettings,
	{ parallel }: { parallel: number },
): Error | undefined {
	const failedItems = failedItemsOf(outcomes);
	if (failedItems.length === 0) return undefined;
	const itemIndex = failedItems[0];
	const failed = outcomes[itemIndex];
	const error = failed.refused ?? failed.error;
	const own = withWhatWasSent(error, settings);
	if (!settings.combined) {
		const others = parallel > 1 ? whatWasDone(outcomes, settings, itemIndex) : '';
		const advice = continueAdvice(outcomes, failedItems.length, settings);
		if (!others && !advice && own === (error as { description?: string }).description)
			return errorForItem(node, error, itemIndex);
		return errorForItem(node, error, itemIndex, {
			description: [own, others, advice].filter(Boolean).join(' '),
		});
	}
	const sent = indexesWhere(outcomes, isDone);
	const reason = (error as Error).message;
	const ownOnly = (error as { description?: string }).description;
	return errorForItem(node, error, itemIndex, {
		message: `${outcomes.length - sent.length} of ${outcomes.length} items ${outcomes.some((outcome) => outcome.uncertain) ? 'not confirmed as sent' : 'not sent'}: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
		// With several failures, the one described is the first; with one, it needs no introduction.
		description: [
			whatWasDone(outcomes, settings),
			earlierSummary(outcomes, settings),
			failedItems.length > 1
				? `${capitalized(describeItems([itemIndex]))} failed first. ${ownOnly ? asSentence(ownOnly) : ''}`.trim()
				: ownOnly && asSentence(ownOnly),
			error instanceof NodeOperationError ? '' : whatWasSent(error, settings.effect),
			continueAdvice(outcomes, failedItems.length, settings),
		]
			.filter(Boolean)
			.join('\n'),
	});
}

/** The execution was stopped while the node ran: no request started after the stop. */
export function stoppedError(outcomes: Outcome[], node: INode, settings: RunSettings) {
	return new NodeOperationError(node, 'The execution was stopped before every item was run', {
		description: [whatWasDone(outcomes, settings), 'No request started after the stop.']
			.filter(Boolean)
			.join(' '),
	});
}

/** What an operation's outputs hold (run.outputs). */
export interface OutputShape<E, RequestData = unknown> {
	/**
	 * What an item's output holds, from its entries the platform accepted and their request's answer;
	 * `requestsOfItem` names the requests that carried them (a combined run), for the output to show.
	 */
	describe: (
		outcome: ItemOutcome<E, RequestData>,
		requestsOfItem: IDataObject,
	) => IDataObject | IDataObject[];
	/** What entries add to a failed item's output (a combined send: the recipients sent and not). */
	describeEntries?: (entries: E[]) => IDataObject;
	/** The input items, when their fields go before each result (Include Input Fields). */
	inputItems?: INodeExecutionData[];
}

/** An operation's output shape with the order of entries within an item, as the run gives it. */
type ReportShape<E> = OutputShape<E> & { inItemOrder: (a: E, b: E) => number };

/** An item's output, or outputs for an operation that gives several. */
export type OutputOf = INodeExecutionData | INodeExecutionData[];

/**
 * Every input item's output: its result, or its error (with what was sent of it), paired with it. `earlyOutputs`:
 * outputs made as items were answered (run.describeAsAnswered), used where there is one.
 */
export function outputsOf<E>(
	outcomes: Array<ItemOutcome<E, unknown>>,
	settings: RunSettings,
	shape: ReportShape<E>,
	earlyOutputs: Array<OutputOf | undefined> = [],
): INodeExecutionData[] {
	const outputs: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < outcomes.length; itemIndex++) {
		const outcome = outcomes[itemIndex];
		if (outcome.refused !== undefined) {
			outputs.push(errorItem(outcome.refused, itemIndex));
			continue;
		}
		const output = earlyOutputs[itemIndex] ?? outputOf(outcome, itemIndex, settings, shape);
		if (!Array.isArray(output)) outputs.push(output);
		else for (const one of output) outputs.push(one);
	}
	return outputs;
}

/** One item's output (or outputs, for an operation that gives several), its result or its error. */
export function outputOf<E>(
	outcome: ItemOutcome<E, unknown>,
	itemIndex: number,
	settings: RunSettings,
	{ describe, describeEntries, inItemOrder, inputItems }: ReportShape<E>,
): OutputOf {
	const requests =
		outcome.requests.length > 1 ? outcome.requests.sort((a, b) => a - b) : outcome.requests;
	const requestsOfItem: IDataObject = settings.combined
		? { request: requests[0], requestSize: outcome.requestSizes.get(requests[0]) }
		: {};
	if (settings.combined && requests.length > 1) {
		requestsOfItem.requests = requests;
		outcome.sent.sort(inItemOrder);
		outcome.failed.sort(inItemOrder);
	}
	if (outcome.failed.length > 0) {
		const partial =
			outcome.sent.length > 0 && describeEntries
				? { sent: describeEntries(outcome.sent), notSent: describeEntries(outcome.failed) }
				: {};
		const failure = errorItem(outcome.error, itemIndex, { ...requestsOfItem, ...partial });
		const description = withWhatWasSent(outcome.error, settings);
		if (description) (failure.json.details as IDataObject).description = description;
		return failure;
	}
	const described = describe(outcome, requestsOfItem);
	const paired = (json: IDataObject): INodeExecutionData => ({
		json: inputItems ? { ...inputItems[itemIndex]?.json, ...json } : json,
		pairedItem: { item: itemIndex },
	});
	return Array.isArray(described) ? described.map(paired) : paired(described);
}

/**
 * The execution hints of a run's pace, each when there is something to say: the number of requests at once when
 * it followed the platform and that mattered (it made more requests than it started with at once, or the number
 * was lowered), and the rate it was paced to after the platform's first 429 (`pacedRate`, requests a second), or
 * from the start, to the rate an earlier run found (`pacedFromEarlierRun`).
 */
export function throughputHints(
	figures: ConcurrencyFigures,
	pacedRate: number | undefined,
	pacedFromEarlierRun = false,
): NodeExecutionHint[] {
	const paced =
		pacedRate === undefined
			? undefined
			: pacedFromEarlierRun
				? `Requests were paced from the start, at ${pacedRate} a second in the end: an earlier run to this platform found the rate it accepts before "too many requests" (HTTP 429). More is probed for every 3 s without a refusal.`
				: `After the platform's first "too many requests" (HTTP 429), requests were paced to ${pacedRate} a second (what it had accepted in the second before refusing), probing for more every 3 s without a refusal.`;
	return [concurrencyHint(figures), paced]
		.filter((message) => message !== undefined)
		.map((message) => ({ message, location: 'outputPane' }));
}

function concurrencyHint(figures: ConcurrencyFigures): string | undefined {
	const { start, highest, attempts, requests, mostOnWire, refusals, keptTo } = figures;
	const lowered = figures.loweredOnSlowAnswers;
	if (!figures.adaptive || (attempts <= start && refusals === 0 && lowered === 0)) return undefined;
	const ms = (value: number) => `${Math.round(value)} ms`;
	const times =
		figures.medianMs === undefined
			? ''
			: ` Answers took ${ms(figures.medianMs)} (median; the fastest ${ms(figures.fastestMs ?? figures.medianMs)}).`;
	const allowed = highest > start ? `, up to ${highest} allowed` : '';
	const earlier = figures.fromEarlierRun ? ', where the run before to this platform ended' : '';
	const said = [
		keptTo !== undefined &&
			(figures.refusedNotNow
				? `The platform answered "unavailable" (HTTP 503) to more at once: the run then kept to ${keptTo} at once, trying one more now and then.`
				: `An earlier run found the platform answering "unavailable" (HTTP 503) to more at once: this run kept to ${keptTo} at once, trying one more now and then.`),
		lowered > 0 &&
			(figures.ownTimeMs === undefined
				? `Fewer went at once ${lowered === 1 ? 'once' : `${lowered} times`} when answers waited at the platform.`
				: `Answers took as long with fewer at once (${ms(figures.ownTimeMs)}): the platform's own time, not a queue of this run's, so the number, lowered ${lowered === 1 ? 'once' : `${lowered} times`} to find that out, went back up.`),
		refusals > 0 &&
			`${refusals} attempt${refusals === 1 ? ' was' : 's were'} refused or not answered (${Math.round((refusals / attempts) * 1000) / 10}%).`,
	].filter(Boolean);
	const made = `${requests} request${requests === 1 ? '' : 's'}${attempts > requests ? ` in ${attempts} attempts` : ''}`;
	return `Requests in parallel followed the platform: ${made}, at most ${mostOnWire} at once (${start} at first${earlier}${allowed}).${times}${said.length ? ` ${said.join(' ')}` : ''} Options → Requests in Parallel sets a fixed number instead.`;
}
