/**
 * After a send failed, finds out with one read-only look-up which documented condition applies (a
 * template that is not there, a sender that is not verified), as a phrase; undefined when it cannot tell.
 */
import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { isVerifiedSender, templateExists } from '../lookups';

export async function diagnoseSendFailure(
	this: IExecuteFunctions,
	versions: IDataObject[],
	level: IDataObject,
	error: NodeApiError,
): Promise<string | undefined> {
	const code = Number(error.httpCode);
	const usesTemplate = (version: IDataObject) =>
		version.templateName ?? (version.content === undefined ? level.templateName : undefined);
	if (code === 400 && versions.length === 1) {
		const name = usesTemplate(versions[0]) as string | undefined;
		if (name && !(await templateExists.call(this, name)))
			return `the template "${name}" this item names is not in the account's template list`;
	}
	if (code === 403) {
		if (!(await isVerifiedSender.call(this, String(level.senderMail))))
			return `${String(level.senderMail)} is not a verified sender of the account`;
		const name = level.templateName as string | undefined;
		if (name && !(await templateExists.call(this, name)))
			return `the template "${name}" is not in the account's template list`;
	}
	return undefined;
}
