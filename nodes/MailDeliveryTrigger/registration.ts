import { randomBytes } from 'node:crypto';
import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { SWITCHABLE_KINDS, transEventFor } from '../shared/eventKinds';
import {
	parseUrl,
	RELEASED_TOKEN,
	SECRET_PARAMETER,
	TOKEN_PREFIX,
	triggerSecret,
	withoutSecret,
} from '../shared/triggerAddresses';
import { apiRequest } from '../shared/transport';

/**
 * The account has ONE webhook configuration (platform API 4.7, 6.1): a default push address, one
 * address per sender, seven kind switches and transEnable, shared by every workflow and by the user.
 *
 * Rules (also in the README):
 * - A trigger's registered URL carries a secret starting with TOKEN_PREFIX (helpers/triggerAddresses), so
 *   any trigger can tell "another Mail Delivery trigger holds this address" from "the user's own receiver holds it".
 * - A trigger never takes an address another trigger holds (test URL or production URL alike): it
 *   refuses with an explanation. So "what was there before" is never another trigger's URL.
 * - A user's own receiver is taken over and put back exactly on removal.
 * - Switches are shared: a trigger switches on what it needs and switches nothing off while another
 *   trigger is still registered. The last one to leave puts back the switches as they were before the
 *   first trigger came; that prior state travels in each trigger's URL (PRIOR_PARAMETER), because the
 *   configuration is the only state the workflows share.
 */
const PRIOR_PARAMETER = 'prior';

type Address = { kind: 'default' } | { kind: 'sender'; sender: string };

interface Switches {
	transEvent: Record<string, boolean> | null;
	transEnable: boolean | null;
}

interface Registration {
	/** The full URL saved on the platform (with secret and prior switches). */
	url: string;
	mode: 'default' | 'senders';
	senders: string[];
	/** The addresses as they were before this trigger took them (never another trigger's URL). */
	previous: {
		transCallbackUrl: string | null;
		senderUrls: Record<string, string | null>;
		noSenderUrls: boolean;
	};
	/** The account's switches before the first trigger registered. */
	prior: Switches;
}

export interface RegistrationSettings {
	mode: 'default' | 'senders';
	senders: string[];
	events: string[];
}

interface Config {
	transCallbackUrl?: string | null;
	transEvent?: Record<string, boolean> | null;
	transEnable?: boolean | null;
	transCallbackUrlExtra?: Array<{ sender: string; url: string }> | null;
}

// ---- URLs of triggers ----------------------------------------------------------------------------

/** Same workflow (secret) and same kind of URL (test or production path); the host may have moved. */
function sameTrigger(url: unknown, own: string): boolean {
	const secret = triggerSecret(url);
	return (
		secret !== undefined &&
		secret === triggerSecret(own) &&
		parseUrl(url)!.pathname === parseUrl(own)!.pathname
	);
}

const SWITCH_KEYS = SWITCHABLE_KINDS.map((kind) => kind.transEventKey as string);
const flag = (value: boolean | null | undefined) =>
	value === true ? '1' : value === false ? '0' : 'n';

function encodeSwitches({ transEvent, transEnable }: Switches): string {
	const kinds = transEvent ? SWITCH_KEYS.map((key) => flag(transEvent[key])).join('') : 'n';
	return `${kinds}-${flag(transEnable)}`;
}

function decodeSwitches(text: string | null | undefined): Switches | undefined {
	const match = /^(n|[01n]{7})-([01n])$/.exec(text ?? '');
	if (!match) return undefined;
	const read = (char: string) => (char === '1' ? true : char === '0' ? false : null);
	const transEvent =
		match[1] === 'n'
			? null
			: Object.fromEntries(SWITCH_KEYS.map((key, index) => [key, read(match[1][index]) === true]));
	return { transEvent, transEnable: read(match[2]) };
}

function senderEntries(config: Config): Array<{ sender: string; url: string }> {
	return Array.isArray(config.transCallbackUrlExtra) ? config.transCallbackUrlExtra : [];
}

const sameSender = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function urlAt(config: Config, address: Address): string | null {
	if (address.kind === 'default') return config.transCallbackUrl ?? null;
	return (
		senderEntries(config).find((entry) => sameSender(entry.sender, address.sender))?.url ?? null
	);
}

/** Every trigger URL on the account other than `own`'s, default address first. */
function otherTriggerUrls(config: Config, own: string): string[] {
	return [config.transCallbackUrl, ...senderEntries(config).map((entry) => entry.url)].filter(
		(url): url is string => triggerSecret(url) !== undefined && !sameTrigger(url, own),
	);
}

// ---- static data ---------------------------------------------------------------------------------

function staticData(context: IHookFunctions) {
	return context.getWorkflowStaticData('node') as IDataObject & {
		secret?: string;
		registrations?: Record<string, Registration>;
	};
}

/** This workflow's secret; made once and kept in the workflow's static data. */
function ensureSecret(context: IHookFunctions): string {
	const data = staticData(context);
	if (typeof data.secret !== 'string' || !data.secret.startsWith(TOKEN_PREFIX)) {
		data.secret = `${TOKEN_PREFIX}${randomBytes(24).toString('hex')}`;
	}
	return data.secret;
}

/** Registrations by webhook URL without query: test and production URLs register separately. */
function registrations(context: IHookFunctions): Record<string, Registration> {
	const data = staticData(context);
	data.registrations ??= {};
	return data.registrations;
}

const webhookUrlOf = (context: IHookFunctions) => context.getNodeWebhookUrl('default') as string;

function buildUrl(webhookUrl: string, secret: string, prior: Switches): string {
	const url = new URL(webhookUrl);
	url.searchParams.set(SECRET_PARAMETER, secret);
	url.searchParams.set(PRIOR_PARAMETER, encodeSwitches(prior));
	return url.toString();
}

// ---- the platform's configuration ----------------------------------------------------------------

async function readConfig(context: IHookFunctions): Promise<Config> {
	return (await apiRequest.call(context, '/v5/webhook/get', {})) as Config;
}

function addressesOf(settings: Pick<RegistrationSettings, 'mode' | 'senders'>): Address[] {
	return settings.mode === 'default'
		? [{ kind: 'default' }]
		: settings.senders.map((sender) => ({ kind: 'sender', sender }));
}

function kindsOn(config: Config, events: string[]): boolean {
	const current = config.transEvent ?? {};
	return Object.entries(transEventFor(events)).every(([key, on]) => !on || current[key] === true);
}

function addressName(address: Address) {
	return address.kind === 'default'
		? "the account's default push address"
		: `the push address of sender ${address.sender}`;
}

/**
 * The refusal, remedy included: n8n 2.x shows only an activation error's message, not its description.
 */
function takenError(
	context: IHookFunctions,
	address: Address,
	holder: string,
	ownUrl: string,
): NodeOperationError {
	const isTest = context.getMode() === 'manual';
	const holderIsThisWorkflow = triggerSecret(holder) === triggerSecret(ownUrl);
	const where = `${addressName(address)} is held by ${holderIsThisWorkflow ? "this workflow's other" : 'another'} Mail Delivery Trigger (${withoutSecret(holder)})`;
	if (isTest) {
		return new NodeOperationError(
			context.getNode(),
			`Cannot listen for test events: ${where}. To test, deactivate that workflow while you test, or set Register For to Chosen Senders with a sender you use only for tests, or set Registration to Manual and post sample pushes to the test URL.`,
			{
				description:
					'The platform keeps one push address per account (and one per sender). Listening here would move the pushes away from that production trigger, which would miss events until the test ends.',
			},
		);
	}
	return new NodeOperationError(
		context.getNode(),
		`Cannot register this workflow: ${where}. Deactivate that workflow first, or set Register For to Chosen Senders, or handle every event kind in one workflow (Output: One Output per Event Kind).`,
		{
			description:
				'The platform keeps one push address per account (and one per sender), so two workflows cannot both receive the same events. ' +
				"If the workflow holding the address no longer exists, save another address with the Mail Delivery node's Webhook → Save operation (option Replace Anyway), then activate again.",
		},
	);
}

// ---- lifecycle -----------------------------------------------------------------------------------

/** checkExists: true when this URL holds every address it needs and the chosen kinds are pushed. */
export async function isRegistered(
	context: IHookFunctions,
	settings: RegistrationSettings,
): Promise<boolean> {
	const webhookUrl = webhookUrlOf(context);
	const registration = registrations(context)[webhookUrl];
	if (!registration || withoutSecret(registration.url) !== withoutSecret(webhookUrl)) return false;
	const config = await readConfig(context);
	const held = addressesOf(settings).every(
		(address) => urlAt(config, address) === registration.url,
	);
	return held && config.transEnable === true && kindsOn(config, settings.events);
}

export async function register(
	context: IHookFunctions,
	settings: RegistrationSettings,
): Promise<void> {
	const webhookUrl = webhookUrlOf(context);
	const secret = ensureSecret(context);
	const existing = registrations(context)[webhookUrl];
	const config = await readConfig(context);
	// Without a record yet, any URL of ours found on the account is left over: judge by a fresh one.
	const probe =
		existing?.url ?? buildUrl(webhookUrl, secret, { transEvent: null, transEnable: null });
	const addresses = addressesOf(settings);
	for (const address of addresses) {
		const holder = urlAt(config, address);
		if (holder && triggerSecret(holder) !== undefined && !sameTrigger(holder, probe)) {
			throw takenError(context, address, holder, probe);
		}
	}
	const others = otherTriggerUrls(config, probe);
	const prior: Switches = existing?.prior ??
		others
			.map((url) => decodeSwitches(parseUrl(url)?.searchParams.get(PRIOR_PARAMETER)))
			.find(Boolean) ?? {
			transEvent: config.transEvent ?? null,
			transEnable: config.transEnable ?? null,
		};
	// The same URL as before, unless n8n's webhook address moved (then the same secret at the new one).
	const url =
		existing && withoutSecret(existing.url) === withoutSecret(webhookUrl)
			? existing.url
			: buildUrl(webhookUrl, secret, prior);
	const previousAt = (address: Address) => {
		const current = urlAt(config, address);
		const released = parseUrl(current)?.searchParams.get(SECRET_PARAMETER) === RELEASED_TOKEN;
		return current !== null && (released || sameTrigger(current, url)) ? null : current;
	};
	const registration: Registration = existing ?? {
		url,
		mode: settings.mode,
		senders: settings.senders,
		previous: {
			transCallbackUrl: settings.mode === 'default' ? previousAt({ kind: 'default' }) : null,
			senderUrls: Object.fromEntries(
				settings.senders.map((sender) => [sender, previousAt({ kind: 'sender', sender })]),
			),
			noSenderUrls:
				config.transCallbackUrlExtra === null || config.transCallbackUrlExtra === undefined,
		},
		prior,
	};
	registration.url = url;

	// Save only what is not yet as needed: after a restart nothing is saved at all.
	const body: IDataObject = {};
	if (settings.mode === 'default' && config.transCallbackUrl !== url) body.transCallbackUrl = url;
	const missingSenders = settings.senders.filter(
		(sender) => urlAt(config, { kind: 'sender', sender }) !== url,
	);
	if (missingSenders.length > 0) {
		body.transCallbackUrlExtra = missingSenders.map((sender) => ({ sender, url }));
		body.transCallbackUrlExtraUpdateMode = 'save';
	}
	if (!kindsOn(config, settings.events)) {
		// Switch on what this trigger needs; every other kind stays as it is (someone else may need it).
		const transEvent = { ...(config.transEvent ?? transEventFor([])) };
		for (const [key, on] of Object.entries(transEventFor(settings.events)))
			if (on) transEvent[key] = true;
		body.transEvent = transEvent;
	}
	if (config.transEnable !== true) body.transEnable = true;
	if (Object.keys(body).length > 0) await apiRequest.call(context, '/v5/webhook/save', body);
	registrations(context)[webhookUrl] = registration;
}

/** The switches the last trigger leaves: what triggers switched on goes back to the prior state. */
function restoredSwitches(config: Config, prior: Switches): IDataObject {
	const restore: IDataObject = {};
	const current = config.transEvent;
	if (current) {
		const target = { ...current };
		let changed = false;
		for (const key of SWITCH_KEYS) {
			if (target[key] === true && prior.transEvent?.[key] !== true) {
				target[key] = false;
				changed = true;
			}
		}
		if (changed)
			restore.transEvent =
				prior.transEvent === null && SWITCH_KEYS.every((key) => !target[key]) ? null : target;
	}
	if (config.transEnable === true && prior.transEnable !== true)
		restore.transEnable = prior.transEnable;
	return restore;
}

export async function unregister(context: IHookFunctions): Promise<void> {
	const webhookUrl = webhookUrlOf(context);
	const registration = registrations(context)[webhookUrl];
	if (!registration) return;
	const config = await readConfig(context);
	const isOurs = (url: unknown) => sameTrigger(url, registration.url);
	const restore: IDataObject = {};
	const after: Config = { ...config };
	if (registration.mode === 'default' && isOurs(config.transCallbackUrl)) {
		restore.transCallbackUrl = registration.previous.transCallbackUrl;
		after.transCallbackUrl = registration.previous.transCallbackUrl;
	}
	const entries = senderEntries(config);
	const ownEntry = (entry: { sender: string; url: string }) =>
		isOurs(entry.url) && registration.senders.some((sender) => sameSender(sender, entry.sender));
	if (registration.mode === 'senders' && entries.some(ownEntry)) {
		// Each entry keeps its place: ours go back to what they were, or away if there was none.
		const list = entries.flatMap((entry) => {
			if (!ownEntry(entry)) return [entry];
			const sender = registration.senders.find((name) => sameSender(name, entry.sender))!;
			const previous = registration.previous.senderUrls[sender];
			return typeof previous === 'string' ? [{ sender: entry.sender, url: previous }] : [];
		});
		restore.transCallbackUrlExtra =
			list.length === 0 && registration.previous.noSenderUrls ? null : list;
		restore.transCallbackUrlExtraUpdateMode = 'replace';
		after.transCallbackUrlExtra = list;
	}
	const stillHeldAnAddress = Object.keys(restore).length > 0;
	const lastTrigger = otherTriggerUrls(after, registration.url).length === 0;
	if (stillHeldAnAddress && lastTrigger)
		Object.assign(restore, restoredSwitches(config, registration.prior));
	if (Object.keys(restore).length > 0)
		await saveRestoring(context, restore, withoutSecret(registration.url));
	delete registrations(context)[webhookUrl];
}

/**
 * Saves what a removal puts back. "Nothing configured" is put back as null; only when the platform
 * refuses that save as invalid (code 400) is each null replaced by its nearest value: no kinds, no
 * sender addresses, pushes off, and at the default address this trigger's URL marked released. Any
 * other failure (network, 401, 500) is reported as it is and nothing else is changed.
 */
async function saveRestoring(context: IHookFunctions, restore: IDataObject, ownAddress: string) {
	try {
		await apiRequest.call(context, '/v5/webhook/save', restore);
	} catch (error) {
		const refusedAsInvalid = error instanceof NodeApiError && error.httpCode === '400';
		if (!refusedAsInvalid || !Object.values(restore).some((value) => value === null)) {
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
			Object.entries(restore).map(([key, value]) => [key, value === null ? nearest[key] : value]),
		);
		await apiRequest.call(context, '/v5/webhook/save', fallback);
	}
}
