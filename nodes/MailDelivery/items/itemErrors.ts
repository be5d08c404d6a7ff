/** Errors shaped for n8n, per input item: as an output item, or thrown for the item it belongs to. */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { restated } from '../../shared/transport/failures';
import { describeItems } from './itemNames';

/** An input error found before any request (a date that cannot be read, a field left empty). */
export function inputError(
	node: INode,
	message: string,
	itemIndex: number,
	description = 'Nothing was sent to the platform.',
) {
	return new NodeOperationError(node, `${message}, in ${describeItems([itemIndex])}`, {
		itemIndex,
		description,
	});
}

/**
 * What is wrong with a value, found by code that gets plain values and not the item (helpers/): its message
 * names the field; the engine makes it the item's error (itemError), naming the item, when it refuses the item.
 */
export class ItemProblem extends Error {
	constructor(
		message: string,
		readonly description?: string,
	) {
		super(message);
	}
}

/** An item's error: an ItemProblem becomes the item's input error; any other error is the item's as it is. */
export const itemError = (node: INode, error: unknown, itemIndex: number) =>
	error instanceof ItemProblem
		? inputError(node, error.message, itemIndex, error.description)
		: error;

/** The fields of an error's context that an output item carries: a refusal's reason and what it names. */
const ACTIONABLE = ['reason', 'uniqueMsgID', 'email', 'execution'];

/**
 * A failed item as n8n expects it: `error` (the message) and `details`, and no other key, so that with
 * On Error = "Continue (using error output)" n8n moves it to the error output and puts the input
 * item's fields back beside it (n8n-core's handleNodeErrorOutput). Everything else goes in details,
 * where it cannot overwrite an input field of the same name.
 */
export function errorItem(
	error: unknown,
	itemIndex: number,
	extra: IDataObject = {},
): INodeExecutionData {
	const failed = error as NodeApiError & { description?: string };
	const details: IDataObject = {};
	if (failed.description) details.description = failed.description;
	if (failed instanceof NodeApiError && failed.httpCode)
		details.code = Number(failed.httpCode) || failed.httpCode;
	// An item not sent for an earlier try's sake says why, and where to look, as fields (neverTwice/notSent.ts).
	const context = (failed as { context?: IDataObject }).context;
	for (const field of ACTIONABLE)
		if (context?.[field] !== undefined) details[field] = context[field];
	return {
		json: { error: failed.message, details: { ...details, ...extra } },
		pairedItem: { item: itemIndex },
	};
}

/** Re-throws `error` for the given item, keeping its kind, so n8n points at the right item. */
export function errorForItem(
	node: INode,
	error: unknown,
	itemIndex: number,
	more?: { message?: string; description?: string },
): Error {
	if (error instanceof ItemProblem) error = itemError(node, error, itemIndex);
	if (error instanceof NodeOperationError && !more) return error;
	return restated(node, error, { ...more, itemIndex });
}
