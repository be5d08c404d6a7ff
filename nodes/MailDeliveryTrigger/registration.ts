/**
 * The trigger's lifecycle hooks and their requests to the account's one webhook configuration. What to
 * save is worked out in plans.ts, without requests; the record of what a trigger replaced travels in its
 * URL on the platform (shared/triggerAddresses.ts), so it cannot be lost with n8n's data.
 *
 * Static data keeps only the secret's SHA-256 (n8n 1.x copies static data into every execution), written
 * by top-level assignment: n8n saves static data only when a change is flagged, and flags no change made
 * inside an object created during the same activation. The secret itself is read back from this
 * trigger's URL on the platform when its digest matches; else a new one is made.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IDataObject, IHookFunctions, IWebhookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { transEventFor } from '../shared/eventKinds';
import {
	RELEASED_TOKEN,
	SECRET_PARAMETER,
	TOKEN_PREFIX,
	parseUrl,
	sameTriggerUrl,
	triggerSecret,
	withoutSecret,
} from '../shared/triggerAddresses';
import { apiRequest } from '../shared/transport';
import {
	addressName,
	addressesOf,
	changes,
	type Config,
	holderOf,
	type Identity,
	isOwn,
	isTaken,
	kindsOn,
	notKeptBy,
	type Ownership,
	type RegistrationSettings,
	registrationPlan,
	type Releasing,
	releasePlan,
	urlAt,
	urlsOf,
	withoutRefusedUrls,
} from './plans';
import { notKeptError, takenError, unusableError } from './refusals';

export type { RegistrationSettings } from './plans';

type TriggerStaticData = IDataObject & { secretDigest?: string; listeningForTest?: boolean };

function staticData(context: IHookFunctions | IWebhookFunctions) {
	return context.getWorkflowStaticData('node') as TriggerStaticData;
}

export const secretDigest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * The digest a push's secret must have, or undefined when this trigger has registered none (then no
 * push is accepted).
 */
export function registeredSecretDigest(context: IWebhookFunctions): Buffer | undefined {
	const digest = staticData(context).secretDigest;
	return typeof digest === 'string' ? Buffer.from(digest, 'hex') : undefined;
}

/**
 * This trigger's secret: the one its URL on the platform carries when that matches the digest kept in
 * static data, else a new one (whose digest is kept).
 */
function secretFor(context: IHookFunctions, config: Config, own: Ownership): string {
	const data = staticData(context);
	if (typeof data.secretDigest === 'string') {
		for (const url of urlsOf(config)) {
			const token = isOwn(url, own) ? triggerSecret(url)! : undefined;
			if (token && secretDigest(token).toString('hex') === data.secretDigest) return token;
		}
	}
	const secret = `${TOKEN_PREFIX}${randomBytes(24).toString('hex')}`;
	data.secretDigest = secretDigest(secret).toString('hex');
	return secret;
}

function ownership(context: IHookFunctions): Ownership {
	const webhookUrl = withoutSecret(context.getNodeWebhookUrl('default') as string);
	const path = new URL(webhookUrl).pathname;
	const webhookId = context.getNode().webhookId;
	const at = webhookId ? path.lastIndexOf(`/${webhookId}/`) : -1;
	return {
		webhookUrl,
		key: at === -1 ? path : path.slice(at),
		// Stable across restarts and shared by the processes of one installation; not printed as it is.
		instance: createHash('sha256').update(context.getInstanceId()).digest('hex').slice(0, 12),
	};
}

function identity(context: IHookFunctions, config: Config): Identity {
	const workflow = context.getWorkflow();
	const own = ownership(context);
	return {
		...own,
		secret: secretFor(context, config, own),
		workflowId: String(workflow.id ?? ''),
		workflowName: workflow.name ?? '',
		test: context.getMode() === 'manual',
	};
}

async function readConfig(context: IHookFunctions): Promise<Config> {
	return (await apiRequest.call(context, '/v5/webhook/get', {})) as Config;
}

async function saveConfig(context: IHookFunctions, body: IDataObject) {
	try {
		await apiRequest.call(context, '/v5/webhook/save', body);
	} catch (error) {
		throw error instanceof NodeApiError
			? error
			: new NodeApiError(context.getNode(), error as JsonObject);
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
async function saveNearest(
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
			throw error instanceof NodeApiError
				? error
				: new NodeApiError(context.getNode(), error as JsonObject);
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
async function correctIgnoredNulls(
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

async function release(
	context: IHookFunctions,
	config: Config,
	own: Ownership,
	releasing: Releasing,
) {
	const target = releasePlan(config, own, releasing);
	if (!target) return;
	const saved = await saveNearest(context, config, target, own.webhookUrl);
	if (saved) await correctIgnoredNulls(context, config, saved, own.webhookUrl);
}

/** Someone changed the configuration between this trigger's read and its save: n8n tries again. */
function changedMeanwhile(context: IHookFunctions, message: string) {
	return new NodeOperationError(context.getNode(), message, {
		description: 'Someone changed the webhook configuration at the same time. n8n tries again.',
	});
}

/** checkExists: true when the configuration is already as this trigger needs it (nothing to save). */
export async function isRegistered(
	context: IHookFunctions,
	settings: RegistrationSettings,
): Promise<boolean> {
	if (settings.mode === 'senders' && settings.senders.length === 0)
		throw unusableError(context.getNode());
	const config = await readConfig(context);
	const plan = registrationPlan(config, identity(context, config), settings);
	return 'target' in plan && Object.keys(changes(config, plan.target)).length === 0;
}

export async function register(
	context: IHookFunctions,
	settings: RegistrationSettings,
): Promise<void> {
	if (settings.mode === 'senders' && settings.senders.length === 0)
		throw unusableError(context.getNode());
	// Test listening runs on static data of its own; its delete hook must know it (see unregister).
	if (context.getMode() === 'manual') staticData(context).listeningForTest = true;
	const config = await readConfig(context);
	const id = identity(context, config);
	const plan = registrationPlan(config, id, settings);
	if ('taken' in plan) throw takenError(context.getNode(), id, plan.taken);
	await saveNearest(context, config, plan.target, id.webhookUrl);

	// Another workflow or n8n may have saved between that read and this save: the last save wins.
	const after = await readConfig(context);
	for (const address of addressesOf(settings)) {
		const holder = urlAt(after, address);
		const intended = urlAt(plan.target, address);
		if (sameTriggerUrl(holder, intended)) continue;
		// Ours, but not as saved (a platform that shortens or rewrites addresses): what this trigger must
		// put back later is not on the platform. Put it back now, from the URLs it meant to save.
		const notKept = notKeptBy(plan.target, id);
		if (holder !== null && notKept(holder, address)) {
			await release(context, after, id, notKept);
			throw notKeptError(context.getNode(), id.test, address, holder, intended!);
		}
		if (isTaken(holder, id)) {
			await release(context, after, id, (url) =>
				holderOf(url, id) === 'current' ? url : undefined,
			);
			throw takenError(context.getNode(), id, { address, holder: holder! });
		}
		throw changedMeanwhile(
			context,
			`The platform did not keep this workflow's URL at ${addressName(address)}`,
		);
	}
	if (!kindsOn(after, settings.events) || after.transEnable !== true)
		throw changedMeanwhile(
			context,
			'The platform did not keep the event switches this workflow needs',
		);
}

/**
 * The delete hook: every address holding one of this trigger's URLs of this kind (production or test,
 * whatever host or secret it was saved with) gets back what it held before. At the end of test listening
 * a failure is only logged: n8n cannot handle a throw there. The URL left behind is this workflow's
 * own, taken back at its next test listen or publication.
 */
export async function unregister(context: IHookFunctions): Promise<void> {
	try {
		const own = ownership(context);
		const path = new URL(own.webhookUrl).pathname;
		const config = await readConfig(context);
		await release(context, config, own, (url) =>
			isOwn(url, own) && parseUrl(url)!.pathname === path ? url : undefined,
		);
	} catch (error) {
		if (staticData(context).listeningForTest !== true)
			throw error instanceof NodeApiError
				? error
				: new NodeApiError(context.getNode(), error as JsonObject);
		context.logger.warn(
			`Mail Delivery Trigger: the push address could not be put back at the end of test listening (${(error as Error).message}); this workflow takes it back at its next test listen or publication.`,
		);
	}
}
