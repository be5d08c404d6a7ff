/**
 * What this trigger alone knows, kept in the workflow's static data: the SHA-256 digest of the secret its
 * URL carries (a push must carry the secret), and the key that opens its probe (probe.ts), which its URL
 * keeps in the fragment. Not the secret itself: n8n 1.x copies static data into every execution.
 *
 * Static data is written by top-level assignment: n8n saves it only when a change is flagged, and flags no
 * change made inside an object created during the same activation. When a push's secret is not the one
 * static data holds (it was lost while the workflow stays published, saved over by a copy that predates
 * the publication; or the push came before n8n saved a new registration's static data), both are read
 * back from this trigger's URL on the platform (at most once a minute), instead of refusing every push.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { recordOf, TOKEN_PREFIX, triggerSecret, withoutSecret } from '../shared/triggerAddresses';
import { apiRequest } from '../shared/transport';
import { urlsOf, type WebhookConfig as Config } from '../shared/webhookConfig';
import { isOwn, type Ownership } from './holders';

type TriggerStaticData = IDataObject & {
	secretDigest?: string;
	probeKey?: string;
	listeningForTest?: boolean;
};

export function staticData(context: IHookFunctions | IWebhookFunctions) {
	return context.getWorkflowStaticData('node') as TriggerStaticData;
}

export const secretDigest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** What tells this trigger's URLs from others': its n8n installation and its node's path. */
export function ownership(context: IHookFunctions | IWebhookFunctions): Ownership {
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

/**
 * This trigger's secret and probe key for a registration: the secret its URL on the platform carries when
 * that matches the digest kept in static data, else a new one (whose digest is kept); the key kept, else
 * a new one.
 */
export function secretsFor(context: IHookFunctions, config: Config, own: Ownership) {
	const data = staticData(context);
	const probeKey = data.probeKey ?? randomBytes(16).toString('hex');
	if (data.probeKey !== probeKey) data.probeKey = probeKey;
	if (typeof data.secretDigest === 'string') {
		for (const url of urlsOf(config)) {
			const token = isOwn(url, own) ? triggerSecret(url)! : undefined;
			if (token && secretDigest(token).toString('hex') === data.secretDigest)
				return { secret: token, probeKey };
		}
	}
	const secret = `${TOKEN_PREFIX}${randomBytes(24).toString('hex')}`;
	data.secretDigest = secretDigest(secret).toString('hex');
	return { secret, probeKey };
}

/** The secret's digest and the probe key a push is checked with. */
export interface Registered {
	digest: Buffer;
	probeKey: string | undefined;
}

/** Constant-time comparison of a push's token with a SHA-256 digest; an empty digest matches nothing. */
export function sameSecret(given: unknown, expected: Buffer | undefined): boolean {
	if (!expected || expected.length !== 32 || typeof given !== 'string') return false;
	return timingSafeEqual(secretDigest(given), expected);
}

/** Read-backs, by trigger, in this process: whatever strangers post, at most one a minute. */
const readBacks = new Map<string, { at: number; found?: Registered }>();
const READ_BACK_INTERVAL_MS = 60_000;

/** This trigger's URL at its own address on the platform, from a push's context. */
async function ownUrlOnPlatform(context: IWebhookFunctions): Promise<string | undefined> {
	const own = ownership(context);
	const config = (await apiRequest.call(context, '/v5/webhook/get', {})) as Config;
	return urlsOf(config).find(
		(url): url is string => isOwn(url, own) && withoutSecret(url) === own.webhookUrl,
	);
}

/**
 * What the platform holds for this trigger at its address: read at most once a minute, then kept;
 * `fresh` when read now.
 */
async function readBack(context: IWebhookFunctions) {
	const workflow = context.getWorkflow();
	const trigger = `${workflow.id}:${context.getNode().webhookId}`;
	const known = readBacks.get(trigger);
	if (known && Date.now() - known.at < READ_BACK_INTERVAL_MS)
		return { found: known.found, fresh: false };
	readBacks.set(trigger, { at: Date.now() });
	const url = await ownUrlOnPlatform(context).catch(() => undefined);
	const found = url && {
		digest: secretDigest(triggerSecret(url)!),
		probeKey: recordOf(url)?.probeKey ?? undefined,
	};
	readBacks.set(trigger, { at: Date.now(), found: found || undefined });
	return { found: found || undefined, fresh: true };
}

/**
 * The registered secret a push's token matches, or undefined (the push is refused). Static data holds
 * it; when it holds none (lost while the workflow stays published) or another (a push that came before
 * n8n saved a new registration's static data), the secret is the one of this trigger's URL at its own
 * address on the platform, read back and saved again.
 */
export async function acceptedSecret(
	context: IWebhookFunctions,
	given: unknown,
): Promise<Registered | undefined> {
	const data = staticData(context);
	const stored =
		typeof data.secretDigest === 'string'
			? { digest: Buffer.from(data.secretDigest, 'hex'), probeKey: data.probeKey }
			: undefined;
	if (stored && sameSecret(given, stored.digest)) return stored;
	if (context.getMode() === 'manual') return undefined;
	const { found, fresh } = await readBack(context);
	const workflow = context.getWorkflow();
	if (!stored && !found && fresh)
		context.logger.error(
			`Mail Delivery Trigger: workflow "${workflow.name}" (ID ${workflow.id}) refuses every push: it keeps no secret (its static data was lost), and the platform holds no URL of its trigger at ${ownership(context).webhookUrl}. Unpublish and publish it again.`,
		);
	if (!found || !sameSecret(given, found.digest)) return undefined;
	data.secretDigest = found.digest.toString('hex');
	if (found.probeKey) data.probeKey = found.probeKey;
	if (!stored)
		context.logger.warn(
			`Mail Delivery Trigger: workflow "${workflow.name}" (ID ${workflow.id}) had lost its secret's digest (its static data was replaced); it was read back from its URL on the platform, so pushes are accepted again.`,
		);
	return found;
}
