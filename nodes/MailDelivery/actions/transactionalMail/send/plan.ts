/** How a transactional send packs its messages into requests, sends them, and explains a failure. */
import { randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest } from '../../../../shared/transport';
import { type BatchPlan, groupKey } from '../../../run/batch/runner';
import { type AttachmentReference, readAttachment } from '../../../helpers/attachments';
import { LIMITS } from '../../../helpers/validation';
import { diagnoseSendFailure, type LookupMemo } from './diagnosis';
import { MissingTagCheck, missingTagsOutput } from './missingTags';
import { readSendItem } from './readItem';
import {
	buildRequest,
	contentSourceOf,
	requestIdentity,
	requestIdentityFields,
	requestLevel,
	sharedRefusalCause,
} from './requests';

const PATH = '/v5/transactional/mail/sends_customised';

/** One message version and the input item it came from, with the request-level fields it needs. */
interface VersionEntry {
	itemIndex: number;
	shared: IDataObject;
	version: IDataObject;
	attachment?: AttachmentReference;
	/** Tags its content uses that none of its tag values fill. */
	missingTags: string[];
}

const versionsOf = (chunk: VersionEntry[]) => chunk.map((entry) => entry.version);

/**
 * The send's plan; `failMissingTags`: a message whose content uses a tag it has no value for fails instead of
 * going out. `tagCheck` sums the missing tags up for the run's hint, once the run is over.
 */
export function sendPlan(
	context: IExecuteFunctions,
	failMissingTags: boolean,
): BatchPlan<VersionEntry, IDataObject> & { tagCheck: MissingTagCheck } {
	const lookups: LookupMemo = new Map();
	const items = context.getInputData();
	const tagCheck = new MissingTagCheck(context, failMissingTags, lookups);
	return {
		tagCheck,
		maxPerRequest: LIMITS.messageVersionsPerRequest,
		// Equal request-level fields, the same kind of content, the same attachment file.
		keyOf: (entry) =>
			groupKey([
				entry.shared,
				contentSourceOf(entry.version, entry.shared),
				entry.attachment?.identity ?? null,
			]),
		prepare: async (item) => {
			const { shared, versions, attachment } = readSendItem(item, items[item.index]);
			const missing = await tagCheck.check(item.index, shared, versions);
			return versions.map((version, index) => ({
				itemIndex: item.index,
				shared,
				version,
				attachment,
				missingTags: missing[index],
			}));
		},
		fix: (chunk) => {
			const level = requestLevel(chunk[0].shared, versionsOf(chunk));
			// Events carry the request's UniqueMsgID: one per request when the user gives none, so every
			// output item can be matched with the trigger's events. Halves of a refused request keep it.
			level.uniqueMsgID ??= randomUUID();
			return level;
		},
		remember: requestIdentityFields,
		send: async (chunk, level, options) => {
			const body = buildRequest(level, versionsOf(chunk));
			// The file is read now, request by request, so memory holds one request's attachment at a time.
			if (chunk[0].attachment)
				body.attachment = await readAttachment.call(context, chunk[0].attachment);
			return { body, answer: await apiRequest.call(context, PATH, body, options) };
		},
		failures: {
			effect: 'mail may have gone out',
			// 7.2: every 400 is a refusal of the whole request before anything is sent.
			refusedWhole: (error) => error instanceof NodeApiError && error.httpCode === '400',
			sharedCause: (chunk, level, error) => sharedRefusalCause(versionsOf(chunk), level, error),
			diagnose: async (chunk, level, error) =>
				await diagnoseSendFailure.call(context, versionsOf(chunk), level, error, lookups),
		},
		describe: (entries, level) => ({
			recipients: entries.flatMap((entry) =>
				['to', 'cc', 'bcc'].flatMap((field) =>
					(entry.version[field] as IDataObject[]).map((recipient) => recipient.email as string),
				),
			),
			...(level ? requestIdentity(level, entries[0].version) : {}),
			...missingTagsOutput(entries.flatMap((entry) => entry.missingTags)),
		}),
	};
}
