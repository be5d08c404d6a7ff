import type { IDataObject } from 'n8n-workflow';

/** The answer of a write operation as an output item: the platform's code and message, plus context. */
export function writeResult(
	body: IDataObject,
	answer: IDataObject,
	extra: IDataObject = {},
): IDataObject {
	// Built key by key, in the order the output shows: a send writes one for each of its items.
	const result: IDataObject = { success: true };
	if (body.sandboxMode === true) result.sandboxMode = true;
	for (const key in extra) result[key] = extra[key];
	result.code = answer.code;
	result.message = answer.message ?? '';
	return result;
}
