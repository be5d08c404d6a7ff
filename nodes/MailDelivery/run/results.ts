import type { IDataObject } from 'n8n-workflow';

/** The answer of a write operation as an output item: the platform's code and message, plus context. */
export function writeResult(
	body: IDataObject,
	answer: IDataObject,
	extra: IDataObject = {},
): IDataObject {
	return {
		success: true,
		...(body.sandboxMode === true ? { sandboxMode: true } : {}),
		...extra,
		code: answer.code,
		message: answer.message ?? '',
	};
}
