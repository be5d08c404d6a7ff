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
} from './plans';
import { addressName, notKeptError, takenError, unusableError } from './refusals';

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

/**
 * Saves a change. "Nothing configured" is put back as null; only when the platform refuses that save as
 * invalid (code 400) is each null replaced by its nearest value: no kinds, no sender addresses, pushes
 * off, and at the default address this trigger's URL marked released. Any other failure (network, 401,
 * 500) is reported as it is and nothing else is changed.
 */
async function saveConfig(context: IHookFunctions, body: IDataObject, ownAddress: string) {
	try {
		await apiRequest.call(context, '/v5/webhook/save', body);
	} catch (error) {
		const refusedAsInvalid = error instanceof NodeApiError && error.httpCode === '400';
		if (!refusedAsInvalid || !Object.values(body).some((value) => value === null)) {
			throw error instanceof NodeApiError
				? error
				: new NodeApiError(context.getNode(), error as JsonObject);
		}
		const nearest: IDataObject = {
			transCallbackUrl: `${ownAddress}?${SECRET_PARAMETER}=${RELEASED_TOKEN}`,
			transCallbackUrlExtra: [],
			transEvent: transEventFor([]),
			transEnable: false,
		};
		const fallback = Object.fromEntries(
			Object.entries(body).map(([key, value]) => [key, value === null ? nearest[key] : value]),
		);
		await apiRequest.call(context, '/v5/webhook/save', fallback);
	}
}

async function release(
	context: IHookFunctions,
	config: Config,
	own: Ownership,
	releasing: Releasing,
) {
	const target = releasePlan(config, own, releasing);
	if (!target) return;
	const body = changes(config, target);
	if (Object.keys(body).length > 0) await saveConfig(context, body, own.webhookUrl);
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
	const body = changes(config, plan.target);
	if (Object.keys(body).length > 0) await saveConfig(context, body, id.webhookUrl);

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
