/**
 * The end of a batch run as the user sees it: every input item's result or error, paired with it; or,
 * under On Error = Stop Workflow, one error that says what happened to the whole batch.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import { whatWasSent } from '../../../shared/transport/failures';
import { continueAdvice, errorForItem, errorItem } from '../itemErrors';
import { asSentence, capitalized, describeItems } from '../itemNames';
import { writeResult } from '../results';
import type { BatchEntry, ItemResult } from './outcomes';

const were = (indexes: number[]) => (indexes.length === 1 ? 'was' : 'were');
const indexesWhere = <R>(results: R[], test: (result: R) => boolean) =>
	results.map((result, index) => (test(result) ? index : -1)).filter((index) => index >= 0);

/** "Items 0–2 and 4 were sent; item 3 may have been sent; item 5 was not sent." */
function sentSummary(sent: number[], uncertain: number[], notSent: number[]): string {
	const parts: string[] = [];
	if (sent.length > 0) parts.push(`${describeItems(sent)} ${were(sent)} sent`);
	if (uncertain.length > 0) parts.push(`${describeItems(uncertain)} may have been sent`);
	if (parts.length === 0) parts.push('no item was sent');
	if (notSent.length > 0) parts.push(`${describeItems(notSent)} ${were(notSent)} not sent`);
	return `${capitalized(parts.join('; '))}.`;
}

/** What an earlier try of the run did, for the error or the notice of a retry. */
export function earlierSummary<T, Fixed>(results: Array<ItemResult<T, Fixed>>): string | undefined {
	const sent = indexesWhere(results, (result) => result.earlier.sent && !result.earlier.failed);
	const uncertain = indexesWhere(results, (result) => result.earlier.failed);
	const parts: string[] = [];
	if (sent.length > 0)
		parts.push(
			`${capitalized(describeItems(sent))} ${were(sent)} sent by an earlier try of this execution (n8n's Retry On Fail) and ${were(sent)} not sent again.`,
		);
	if (uncertain.length > 0)
		parts.push(
			`${capitalized(describeItems(uncertain))} ${were(uncertain)} not sent again either: ${uncertain.length === 1 ? 'its' : 'their'} request in an earlier try failed after it may have reached the platform.`,
		);
	return parts.length > 0 ? parts.join(' ') : undefined;
}

/** What was sent of a batch, in one sentence (for a run that ended early). */
export function sentSummaryOf<T, Fixed>(results: Array<ItemResult<T, Fixed>>): string {
	const isSent = (result: ItemResult<T, Fixed>) =>
		result.sent.length > 0 && result.failed.length === 0;
	const sent = indexesWhere(results, isSent);
	const uncertain = indexesWhere(results, (result) => !isSent(result) && result.uncertain);
	const notSent = indexesWhere(results, (result) => !isSent(result) && !result.uncertain);
	return sentSummary(sent, uncertain, notSent);
}

export const failedItemsOf = <T, Fixed>(results: Array<ItemResult<T, Fixed>>) =>
	indexesWhere(results, (result) => result.failed.length > 0);

/**
 * Under Stop Workflow: the first failed item's error, titled with what happened to the whole batch
 * (n8n shows the message as the node's error title) and saying which items were sent.
 */
export function batchError<T, Fixed>(
	node: INode,
	results: Array<ItemResult<T, Fixed>>,
	effect: string,
): Error {
	const failedItems = failedItemsOf(results);
	const itemIndex = failedItems[0];
	const error = results[itemIndex].error;
	const sent = indexesWhere(results, (result) => result.sent.length > 0 && !result.failed.length);
	// An uncertain item has a failed entry: it is never among the sent.
	const uncertain = results.some((result) => result.uncertain);
	const reason = (error as Error).message;
	const own = (error as { description?: string }).description;
	return errorForItem(node, error, itemIndex, {
		message: `${results.length - sent.length} of ${results.length} items ${uncertain ? 'not confirmed as sent' : 'not sent'}: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
		// With several failures, the one described is the first; with one, it needs no introduction.
		description: [
			sentSummaryOf(results),
			earlierSummary(results),
			failedItems.length > 1
				? `${capitalized(describeItems([itemIndex]))} failed first. ${own ? asSentence(own) : ''}`.trim()
				: own && asSentence(own),
			whatWasSent(error, effect),
			continueAdvice(results.length, failedItems.length),
		]
			.filter(Boolean)
			.join('\n'),
	});
}

interface OutputShape<T, Fixed> {
	/** What entries add to their item's output, e.g. their recipients and what identifies their request. */
	describe: (entries: T[], fixed?: Fixed) => IDataObject;
	effect: string;
	inItemOrder: (a: T, b: T) => number;
	/** Items that failed before any request (continue-on-fail), by index. */
	prepareErrors: Map<number, unknown>;
	/** The input items, when their fields go before each result (Include Input Fields). */
	inputItems?: INodeExecutionData[];
}

/** Every input item's output: its result, or its error (with what was sent of it), paired with it. */
export function batchOutput<T extends BatchEntry, Fixed>(
	results: Array<ItemResult<T, Fixed>>,
	{ describe, effect, inItemOrder, prepareErrors, inputItems }: OutputShape<T, Fixed>,
): INodeExecutionData[] {
	return results.map((result, itemIndex) => {
		if (prepareErrors.has(itemIndex)) return errorItem(prepareErrors.get(itemIndex), itemIndex);
		const requests = result.requests.sort((a, b) => a - b);
		const where: IDataObject = {
			request: requests[0],
			requestSize: result.requestSizes.get(requests[0]),
		};
		if (requests.length > 1) {
			where.requests = requests;
			result.sent.sort(inItemOrder);
			result.failed.sort(inItemOrder);
		}
		if (result.failed.length > 0) {
			const partial =
				result.sent.length > 0
					? { sent: describe(result.sent), notSent: describe(result.failed) }
					: {};
			const failure = errorItem(result.error, itemIndex, { ...where, ...partial });
			const details = failure.json.details as IDataObject;
			details.description = [details.description, whatWasSent(result.error, effect)]
				.filter(Boolean)
				.map((part) => asSentence(String(part)))
				.join(' ');
			return failure;
		}
		const json = writeResult({ sandboxMode: result.sandbox }, result.answer ?? {}, {
			...describe(result.sent, result.fixed),
			...where,
		});
		return {
			json: inputItems ? { ...inputItems[itemIndex]?.json, ...json } : json,
			pairedItem: { item: itemIndex },
		};
	});
}
