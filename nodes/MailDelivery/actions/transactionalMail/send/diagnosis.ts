/**
 * After a send failed, finds out with one read-only look-up which documented condition applies (a
 * template that is not there, a sender that is not verified), as a phrase; undefined when it cannot tell.
 */
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import {
	isVerifiedSender as senderLookup,
	templateExists as templateLookup,
} from '../../../run/lookups';

/**
 * What the look-ups of one run found, by question: a send of 10,000 items refused 403 asks whether its
 * sender is verified once, not once per request.
 */
export type LookupMemo = Map<string, Promise<boolean>>;

/** The memo's question whether a template exists (the missing-tags check answers it before sending). */
export const templateQuestion = (name: string) => `template ${name}`;

export async function diagnoseSendFailure(
	this: IExecuteFunctions,
	versions: IDataObject[],
	requestData: IDataObject,
	error: NodeApiError,
	memo: LookupMemo,
): Promise<string | undefined> {
	const remembered = (question: string, ask: () => Promise<boolean>) => {
		if (!memo.has(question)) memo.set(question, ask());
		return memo.get(question)!;
	};
	const templateExists = async (name: string) =>
		await remembered(templateQuestion(name), async () => await templateLookup.call(this, name));
	const isVerifiedSender = async (address: string) =>
		await remembered(`sender ${address}`, async () => await senderLookup.call(this, address));
	const code = Number(error.httpCode);
	const usesTemplate = (version: IDataObject) =>
		version.templateName ?? (version.content === undefined ? requestData.templateName : undefined);
	if (code === 400 && versions.length === 1) {
		const name = usesTemplate(versions[0]) as string | undefined;
		if (name && !(await templateExists(name)))
			return `the template "${name}" this item names is not in the account's template list`;
	}
	if (code === 403) {
		if (!(await isVerifiedSender(String(requestData.senderMail))))
			return `${String(requestData.senderMail)} is not a verified sender of the account`;
		const name = requestData.templateName as string | undefined;
		if (name && !(await templateExists(name)))
			return `the template "${name}" is not in the account's template list`;
	}
	return undefined;
}
