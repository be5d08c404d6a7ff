/** Errors shaped for n8n, per input item: as an output item, or thrown for the item it belongs to. */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { restated } from '../../shared/transport/failures';
import { describeItems } from './itemNames';

/** An input error found before any request (a date that cannot be read, a field left empty). */
export function inputError(node: INode, message: string, itemIndex: number) {
	return new NodeOperationError(node, `${message}, in ${describeItems([itemIndex])}`, {
		itemIndex,
		description: 'Nothing was sent to the platform.',
	});
}

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
	if (error instanceof NodeOperationError && !more) return error;
	return restated(node, error, { ...more, itemIndex });
}
