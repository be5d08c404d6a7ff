/**
 * The steps of a transactional send (send.operation.ts's steps, in their order): items read into messages,
 * their missing tags checked, messages packed into requests, each request made and its failure explained, and
 * each item's output.
 */
import { createHash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../../shared/transport';
import { restated } from '../../../../shared/transport/failures';
import { type AttachmentReference, readAttachment } from '../../../items/attachments';
import { LIMITS } from '../../../helpers/validation';
import {
	groupKey,
	type ItemOutcome,
	type Packing,
	type Requests,
	type Run,
} from '../../../run/engine';
import { writeResult } from '../../../run/results';
import type { ItemParameters } from '../../../items/parameterReader';
import { diagnoseSendFailure, type LookupMemo } from './diagnosis';
import { type MissingTagCheck, missingTagsOutput } from './missingTags';
import { itemPreview, PREVIEWED_ITEMS } from './preview';
import { readSendItem } from './readItem';
import {
	addRequestIdentity,
	buildRequest,
	contentSourceOf,
	requestIdentityFields,
	chosenRequestData,
	sharedRefusalCause,
} from './requests';

const PATH = '/v5/transactional/mail/sends_customised';

/** One message version of an input item, with the request-level fields it needs. */
export interface Message {
	itemIndex: number;
	shared: IDataObject;
	version: IDataObject;
	attachment?: AttachmentReference;
	/** Its item's messages go in requests of their own (readItem.ts, PreparedItem.ownRequest). */
	ownRequest: boolean;
	/** Tags its content uses that none of its tag values fill (known once the tag check ran). */
	missingTags: string[];
}

const versionsOf = (messages: Message[]) => messages.map((message) => message.version);

/** An item read and checked into its messages; the look-up of the templates they use starts meanwhile. */
export function messageReader(inputs: INodeExecutionData[], tags: MissingTagCheck) {
	return (item: ItemParameters): Message[] => {
		const { shared, versions, attachment, ownRequest } = readSendItem(item, inputs[item.index]);
		tags.lookUp(shared, versions, item.index);
		return versions.map((version) => ({
			itemIndex: item.index,
			shared,
			version,
			attachment,
			ownRequest,
			missingTags: [],
		}));
	};
}

/**
 * Each message's missing tags, once the templates' look-ups are over; with Fail the Item, the items one of
 * whose messages lacks a tag fail, and the messages left to send are returned.
 */
export async function checkTags(
	run: Run<Message, IDataObject>,
	tags: MissingTagCheck,
	messages: Message[],
): Promise<Message[]> {
	await tags.ready();
	const refused = new Set<number>();
	// An item's messages are read, and stay, next to each other.
	for (let start = 0; start < messages.length;) {
		let end = start + 1;
		while (end < messages.length && messages[end].itemIndex === messages[start].itemIndex) end++;
		const { itemIndex, shared } = messages[start];
		const versions: IDataObject[] = [];
		for (let index = start; index < end; index++) versions.push(messages[index].version);
		const { missing, error } = tags.check(itemIndex, shared, versions);
		for (let index = start; index < end; index++)
			messages[index].missingTags = missing[index - start];
		if (error) {
			run.refuse(itemIndex, error);
			refused.add(itemIndex);
		}
		start = end;
	}
	return refused.size === 0 ? messages : messages.filter((m) => !refused.has(m.itemIndex));
}

/** Keys by request-level fields object: items without expressions there share one object. */
const keysOfShared = new WeakMap<IDataObject, Map<string, string>>();

/** The key of the last message packed: consecutive messages mostly share it (one object for their fields). */
let lastKey: { shared: IDataObject; known: string; key: string } | undefined;

/**
 * Messages share a request when their request-level fields, kind of content and attachment are equal, and
 * neither's item asks for requests of its own.
 */
export const messagePacking: Packing<Message, IDataObject> = {
	keyOf: ({ shared, version, attachment, ownRequest, itemIndex }) => {
		const source = contentSourceOf(version, shared);
		const identity = attachment?.identity ?? null;
		const own = ownRequest ? itemIndex : null;
		const known = `${source}\u0000${identity}\u0000${own}`;
		if (lastKey?.shared === shared && lastKey.known === known) return lastKey.key;
		let keys = keysOfShared.get(shared);
		if (!keys) keysOfShared.set(shared, (keys = new Map()));
		let key = keys.get(known);
		if (key === undefined) keys.set(known, (key = groupKey([shared, source, identity, own])));
		lastKey = { shared, known, key };
		return key;
	},
	maxPerRequest: LIMITS.messageVersionsPerRequest,
	requestDataOf: (chunk, name) => {
		const requestData = chosenRequestData(chunk[0].shared, versionsOf(chunk));
		// Events carry the request's UniqueMsgID: one per request when the user gives none, so every output item
		// can be matched with the trigger's events. Made from the request's name in its execution, so that a
		// retry that refuses an item can say what the earlier try's request was called. Halves keep it.
		requestData.uniqueMsgID ??= createHash('sha256').update(name).digest('hex').slice(0, 32);
		return requestData;
	},
	eventsName: (requestData) => requestData.uniqueMsgID as string | undefined,
	recipientsOf: ({ version }) =>
		((version.to as IDataObject[] | undefined) ?? []).map((recipient) => String(recipient.email)),
	sharedCause: (chunk, requestData, error) =>
		sharedRefusalCause(versionsOf(chunk), requestData, error),
};

/** One request of a send, and what its failures mean (4.6, 7.2). */
export function messageRequests(
	context: IExecuteFunctions,
	run: Run<Message, IDataObject>,
	lookups: LookupMemo,
): Requests<Message, IDataObject> {
	return {
		send: async (chunk, requestData, options) => {
			const body = buildRequest(requestData, versionsOf(chunk));
			// The file is read now, request by request, so memory holds one request's attachment at a time.
			if (chunk[0].attachment)
				body.attachment = await readAttachment.call(context, chunk[0].attachment);
			const answer = await apiRequest.call(context, PATH, body, options);
			const requestIdentity = requestIdentityFields(requestData);
			return { answer, sandbox: body.sandboxMode === true, requestIdentity };
		},
		// 7.2: every 400 is a refusal of the whole request before anything is sent.
		refusedWhole: (error) => error instanceof NodeApiError && error.httpCode === '400',
		explain: async (chunk, requestData, error) => {
			if (!(error instanceof NodeApiError)) return error;
			const versions = versionsOf(chunk);
			const condition = await diagnoseSendFailure.call(
				context,
				versions,
				requestData,
				error,
				lookups,
			);
			return condition
				? restated(run.node, error, { message: `${error.message}: ${condition}` })
				: error;
		},
	};
}

const RECIPIENT_FIELDS = ['to', 'cc', 'bcc'];

/** The addresses messages go to: each message's To, Cc and Bcc, in that order. */
function addressesOf(messages: Message[]): string[] {
	const addresses: string[] = [];
	for (const { version } of messages)
		for (const field of RECIPIENT_FIELDS)
			for (const recipient of version[field] as IDataObject[])
				addresses.push(recipient.email as string);
	return addresses;
}

/** Adds the tags an item's messages lacked, if any lacked one, to its output. */
function addMissingTags(output: IDataObject, messages: Message[]) {
	let missing: string[] | undefined;
	for (const message of messages)
		if (message.missingTags.length > 0) (missing ??= []).push(...message.missingTags);
	if (missing) Object.assign(output, missingTagsOutput(missing));
}

/** An item's recipients and the tags its messages lacked. */
function recipientsOf(messages: Message[]): IDataObject {
	const described: IDataObject = { recipients: addressesOf(messages) };
	addMissingTags(described, messages);
	return described;
}

/**
 * Each item's output: its recipients, what identifies its request (to match events), its missing tags, and in
 * Sandbox Mode its mail as the recipient would read it, its short columns first (the first items of the run:
 * preview.ts).
 */
export function messageOutputs(
	run: Run<Message, IDataObject>,
	inputs: INodeExecutionData[],
	tags: MissingTagCheck,
) {
	let sandboxed = 0;
	return {
		/** How many items the platform took in Sandbox Mode, once the outputs are made. */
		sandboxed: () => sandboxed,
		describe: (
			{ sent, accepted }: ItemOutcome<Message, IDataObject>,
			requestsOfItem: IDataObject,
		) => {
			const described: IDataObject = { recipients: addressesOf(sent) };
			addRequestIdentity(described, accepted!.requestIdentity!, sent[0].version);
			addMissingTags(described, sent);
			for (const key in requestsOfItem) described[key] = requestsOfItem[key];
			let columns: IDataObject | undefined;
			if (accepted!.sandbox) {
				sandboxed++;
				if (sent[0].itemIndex < PREVIEWED_ITEMS) {
					const shown = itemPreview(sent, tags);
					columns = shown.columns;
					described.preview = shown.preview;
				}
			}
			const result = writeResult({ sandboxMode: accepted!.sandbox }, accepted!.answer, described);
			// The mail's columns first: where n8n's Table view shows them without scrolling (preview.ts).
			return columns ? { ...columns, ...result } : result;
		},
		describeEntries: recipientsOf,
		inputItems: run.options.includeInputFields === true ? inputs : undefined,
	};
}
