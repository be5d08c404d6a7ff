/**
 * The account's one webhook configuration, read and saved: a release saves the nearest value the platform
 * takes when it refuses what was there before, and corrects what it did not keep.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { transEventFor } from '../shared/eventKinds';
import { RELEASED_TOKEN, SECRET_PARAMETER } from '../shared/triggerAddresses';
import { apiRequest } from '../shared/transport';
import { asNodeApiError } from '../shared/transport/failures';
import {
	type SenderEntry,
	senderEntries,
	type WebhookConfig as Config,
} from '../shared/webhookConfig';
import { type Address, addressName, changes, sameSender } from './plans';

/** The API's rule for a push address (4.7): it starts with http:// or https://. */
const ACCEPTED_URL = /^https?:\/\//i;

/**
 * The target with every URL the save would write that the API's rule refuses (a prior "" for a cleared
 * address, a leading space) left empty: the default address null, a sender entry removed. `notes` says
 * what, for n8n's log.
 */
function withoutRefusedUrls(config: Config, target: Config) {
	const body = changes(config, target);
	const refused = (url: unknown): url is string =>
		typeof url === 'string' && !ACCEPTED_URL.test(url);
	const notes: string[] = [];
	const note = (url: string, address: Address) =>
		notes.push(
			`the platform refused to take back ${JSON.stringify(url)} at ${addressName(address)} (code 400); saved nothing there instead`,
		);
	const accepted = { ...target };
	if (refused(body.transCallbackUrl)) {
		note(body.transCallbackUrl, { kind: 'default' });
		accepted.transCallbackUrl = null;
	}
	const written = (body.transCallbackUrlExtra as SenderEntry[] | null | undefined) ?? [];
	const dropped = written.filter((entry) => refused(entry.url));
	for (const entry of dropped) note(entry.url, { kind: 'sender', sender: entry.sender });
	if (dropped.length > 0)
		accepted.transCallbackUrlExtra = senderEntries(target).filter(
			(entry) => !dropped.some((gone) => sameSender(gone.sender, entry.sender)),
		);
	return { target: accepted, notes };
}

export async function readConfig(context: IHookFunctions): Promise<Config> {
	return (await apiRequest.call(context, '/v5/webhook/get', {})) as Config;
}

async function saveConfig(context: IHookFunctions, body: IDataObject) {
	try {
		await apiRequest.call(context, '/v5/webhook/save', body);
	} catch (error) {
		throw asNodeApiError(context.getNode(), error);
	}
}

const refusedAsInvalid = (error: unknown) =>
	error instanceof NodeApiError && error.httpCode === '400';

/** In words, what stands in for "nothing configured" (null) in each field (see nearestToNull). */
const NEAREST_IN_WORDS: Record<string, string> = {
	transCallbackUrl:
		"at the account's default push address, this trigger's URL marked released (it accepts no push)",
	transCallbackUrlExtra: 'no per-sender address',
	transEvent: 'every event kind switched off',
	transEnable: 'pushes off',
};

/**
 * The body with each null replaced by the nearest value a platform takes: no kinds, no sender addresses,
 * pushes off, and at the default address this trigger's URL marked released.
 */
function nearestToNull(body: IDataObject, ownAddress: string): IDataObject {
	const nearest: IDataObject = {
		transCallbackUrl: `${ownAddress}?${SECRET_PARAMETER}=${RELEASED_TOKEN}`,
		transCallbackUrlExtra: [],
		transEvent: transEventFor([]),
		transEnable: false,
	};
	const replaced = Object.fromEntries(
		Object.entries(body).map(([key, value]) => [key, value === null ? nearest[key] : value]),
	);
	if (body.transCallbackUrlExtra === null) replaced.transCallbackUrlExtraUpdateMode = 'replace';
	return replaced;
}

const nullsIn = (body: IDataObject) =>
	Object.keys(body)
		.filter((key) => body[key] === null)
		.map((key) => NEAREST_IN_WORDS[key]);

/**
 * Saves what a release puts back, exactly if the platform takes it. When it refuses that as invalid
 * (code 400), the nearest it takes: first every URL its rule refuses left empty (a prior "" or " https://…"),
 * then "nothing configured" (null) replaced by its nearest values. What was saved instead goes to n8n's
 * log. Any other failure (network, 401, 500) is reported as it is and nothing else is changed. Returns
 * the body saved, or undefined when there was nothing to save.
 */
export async function saveNearest(
	context: IHookFunctions,
	config: Config,
	target: Config,
	ownAddress: string,
): Promise<IDataObject | undefined> {
	const exact = changes(config, target);
	if (Object.keys(exact).length === 0) return undefined;
	const accepted = withoutRefusedUrls(config, target);
	const acceptedBody = changes(config, accepted.target);
	const nullNotes = nullsIn(acceptedBody);
	const attempts = [
		{ body: exact, notes: [] as string[] },
		{ body: acceptedBody, notes: accepted.notes },
		{
			body: nearestToNull(acceptedBody, ownAddress),
			notes: [
				...accepted.notes,
				...(nullNotes.length > 0
					? [
							`the platform refused "nothing configured" (null) (code 400); saved instead: ${nullNotes.join('; ')}`,
						]
					: []),
			],
		},
	].filter(
		(attempt, index, all) =>
			index === 0 || JSON.stringify(attempt.body) !== JSON.stringify(all[index - 1].body),
	);
	for (const [index, { body, notes }] of attempts.entries()) {
		try {
			await apiRequest.call(context, '/v5/webhook/save', body);
		} catch (error) {
			if (refusedAsInvalid(error) && index < attempts.length - 1) continue;
			throw asNodeApiError(context.getNode(), error);
		}
		for (const note of notes) context.logger.warn(`Mail Delivery Trigger: ${note}.`);
		return body;
	}
	return undefined;
}

/**
 * After a release, the configuration as the platform keeps it: a field saved as null ("nothing configured")
 * that it kept as it was (a platform that ignores null) gets its nearest value, so no switch a trigger
 * turned on stays on.
 */
export async function correctIgnoredNulls(
	context: IHookFunctions,
	before: Config,
	saved: IDataObject,
	ownAddress: string,
) {
	const after = (await readConfig(context)) as IDataObject;
	const ignored = Object.keys(saved).filter(
		(key) =>
			saved[key] === null &&
			after[key] !== null &&
			after[key] !== undefined &&
			JSON.stringify(after[key]) === JSON.stringify((before as IDataObject)[key]),
	);
	if (ignored.length === 0) return;
	const body = nearestToNull(Object.fromEntries(ignored.map((key) => [key, null])), ownAddress);
	await saveConfig(context, body);
	context.logger.warn(
		`Mail Delivery Trigger: the platform kept what it was given as null ("nothing configured"); saved instead: ${nullsIn(Object.fromEntries(ignored.map((key) => [key, null]))).join('; ')}.`,
	);
}
