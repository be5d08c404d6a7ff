/** Packing message versions into requests: what goes at the request requestData and what each version keeps. */
import type { IDataObject, NodeApiError } from 'n8n-workflow';

/**
 * Where a version's body comes from. A request never mixes the two kinds: with a request-requestData
 * templateName the platform would use the template over a version's own HTML (4.6).
 */
export function contentSourceOf(version: IDataObject, shared: IDataObject): 'template' | 'content' {
	if (version.templateName) return 'template';
	if (version.content) return 'content';
	return shared.templateName ? 'template' : 'content';
}

/** The value most versions share (the first of equals on a tie), or undefined when none has one. */
function mostShared(versions: IDataObject[], key: string): unknown {
	const counts = new Map<unknown, number>();
	for (const version of versions)
		if (version[key] !== undefined) counts.set(version[key], (counts.get(version[key]) ?? 0) + 1);
	let best: unknown;
	let bestCount = 0;
	for (const [value, count] of counts) if (count > bestCount) [best, bestCount] = [value, count];
	return best;
}

/**
 * The request-requestData body of a chunk, chosen once and kept when a refused request is split: the
 * shared fields, and the template or HTML most versions use (the API wants one at the request requestData;
 * versions that use another keep their own, which overrides it).
 */
export function chosenRequestData(shared: IDataObject, versions: IDataObject[]): IDataObject {
	const body = { ...shared };
	const source = contentSourceOf(versions[0], shared);
	const key = source === 'template' ? 'templateName' : 'content';
	delete body[source === 'template' ? 'content' : 'templateName'];
	body[key] ??= mostShared(versions, key) as string;
	if (
		body.subject === undefined &&
		versions.every(
			(version) => version.subject !== undefined && version.subject === versions[0].subject,
		)
	) {
		body.subject = versions[0].subject;
	}
	return body;
}

/**
 * One request: the request-requestData body, and each version without what it shares with it. A version that
 * shares nothing goes as it is; one that does goes as a copy with those fields undefined, which JSON leaves
 * out. (A copy made key by key, each field added under a computed key, cost n8n's main thread 0.5 ms per
 * request of 100 messages in its CPU profile: most of the send's own time per request.)
 */
export function buildRequest(requestData: IDataObject, versions: IDataObject[]): IDataObject {
	const messageVersions = versions.map((version) => {
		const sharesTemplate =
			version.templateName !== undefined && version.templateName === requestData.templateName;
		const sharesContent = version.content !== undefined && version.content === requestData.content;
		const sharesSubject = version.subject !== undefined && version.subject === requestData.subject;
		if (!sharesTemplate && !sharesContent && !sharesSubject) return version;
		const own = { ...version };
		if (sharesTemplate) own.templateName = undefined;
		if (sharesContent) own.content = undefined;
		if (sharesSubject) own.subject = undefined;
		return own;
	});
	return { ...requestData, messageVersions };
}

/**
 * What identifies a sent message's request, to match the trigger's events (UniqueMsgID, SenderEmail) later,
 * added to the message's output.
 */
export function addRequestIdentity(
	output: IDataObject,
	requestData: IDataObject,
	version: IDataObject,
) {
	output.uniqueMsgID = requestData.uniqueMsgID;
	output.senderMail = requestData.senderMail;
	const templateName =
		version.templateName ?? (version.content === undefined ? requestData.templateName : undefined);
	if (templateName) output.templateName = templateName;
}

/** The request-requestData fields addRequestIdentity reads: what an output needs of a request, kept for a retry. */
export function requestIdentityFields(requestData: IDataObject): IDataObject {
	const fields: IDataObject = {
		uniqueMsgID: requestData.uniqueMsgID,
		senderMail: requestData.senderMail,
	};
	if (requestData.templateName !== undefined) fields.templateName = requestData.templateName;
	return fields;
}

/**
 * Whether a 400 that both halves of a request repeated can only be about a field their messages
 * share. Of the refusals 7.2 lists, the node checks every one a single message can cause before
 * sending, except a version's own template that does not exist: while no version names a template
 * other than the request's, no message can cause it alone.
 */
export function sharedRefusalCause(
	versions: IDataObject[],
	requestData: IDataObject,
	error: NodeApiError,
): string | undefined {
	if (error.httpCode !== '400') return undefined;
	const ownTemplate = versions.some(
		(version) =>
			version.templateName !== undefined && version.templateName !== requestData.templateName,
	);
	if (ownTemplate) return undefined;
	return `a field that all ${versions.length} messages of the request share was refused (Sender Email, Sender Name, Reply To, Category, Campaign Label, Unique Message ID, Send Date, Shared Tag Values, Subject, HTML Content or the attachment)`;
}
