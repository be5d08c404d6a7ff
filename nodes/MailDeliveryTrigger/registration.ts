import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { transEventFor } from '../MailDelivery/helpers/events';
import { apiRequest } from '../MailDelivery/transport';

/**
 * The account has one webhook configuration, shared by every workflow and by the user. A trigger
 * remembers what it changed and what was there before (per URL, since test and production URLs
 * register separately) and, on removal, puts back only what is still exactly as it left it.
 */
interface Registration {
	url: string;
	mode: 'default' | 'senders';
	senders: string[];
	/** What the trigger found before saving. */
	previous: {
		transCallbackUrl: unknown;
		transEvent: unknown;
		transEnable: unknown;
		senderUrls: Record<string, string | null>;
		noSenderUrls: boolean;
	};
	/** What the trigger saved, to tell later whether a setting is still its own. */
	saved: { transEvent: unknown; transEnable: unknown };
}

export interface RegistrationSettings {
	mode: 'default' | 'senders';
	senders: string[];
	events: string[];
}

type Config = { transCallbackUrl?: unknown; transEvent?: unknown; transEnable?: unknown; transCallbackUrlExtra?: unknown };

/** Compares settings whatever the order of their keys (the platform answers in its own order). */
function canonical(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonical);
	if (value && typeof value === 'object') {
		return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as IDataObject)[key])]));
	}
	return value ?? null;
}

const sameSetting = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

function senderUrls(config: Config): Array<{ sender: string; url: string }> {
	return Array.isArray(config.transCallbackUrlExtra) ? (config.transCallbackUrlExtra as Array<{ sender: string; url: string }>) : [];
}

function urlOfSender(config: Config, sender: string): string | null {
	return senderUrls(config).find((entry) => entry.sender.toLowerCase() === sender.toLowerCase())?.url ?? null;
}

function registrations(context: IHookFunctions): Record<string, Registration> {
	const data = context.getWorkflowStaticData('node');
	data.registrations ??= {};
	return data.registrations as Record<string, Registration>;
}

async function readConfig(context: IHookFunctions): Promise<Config> {
	return (await apiRequest.call(context, '/v5/webhook/get', {})) as Config;
}

function kindsOn(config: Config, events: string[]): boolean {
	const wanted = transEventFor(events);
	const current = (config.transEvent ?? {}) as Record<string, boolean>;
	return Object.entries(wanted).every(([key, on]) => !on || current[key] === true);
}

/** True when this URL is registered as asked and pushes are on. */
export async function isRegistered(context: IHookFunctions, url: string, settings: RegistrationSettings) {
	const config = await readConfig(context);
	const pointsHere =
		settings.mode === 'default'
			? config.transCallbackUrl === url
			: settings.senders.length > 0 && settings.senders.every((sender) => urlOfSender(config, sender) === url);
	return pointsHere && config.transEnable === true && kindsOn(config, settings.events);
}

export async function register(context: IHookFunctions, url: string, settings: RegistrationSettings) {
	const config = await readConfig(context);
	const chosen = transEventFor(settings.events);
	// Switch on what this trigger needs; leave every other kind as it is (someone else may need it).
	const transEvent = { ...((config.transEvent as Record<string, boolean>) ?? transEventFor([])) };
	for (const [key, on] of Object.entries(chosen)) if (on) transEvent[key] = true;
	const body: IDataObject = { transEvent, transEnable: true };
	if (settings.mode === 'default') body.transCallbackUrl = url;
	else {
		body.transCallbackUrlExtra = settings.senders.map((sender) => ({ sender, url }));
		body.transCallbackUrlExtraUpdateMode = 'save';
	}
	const existing = registrations(context)[url];
	const registration: Registration = {
		url,
		mode: settings.mode,
		senders: settings.senders,
		// Registering again (after a restart) keeps what was there before the first registration.
		previous: existing?.previous ?? {
			transCallbackUrl: config.transCallbackUrl ?? null,
			transEvent: config.transEvent ?? null,
			transEnable: config.transEnable ?? null,
			senderUrls: Object.fromEntries(settings.senders.map((sender) => [sender, urlOfSender(config, sender)])),
			noSenderUrls: config.transCallbackUrlExtra === null || config.transCallbackUrlExtra === undefined,
		},
		saved: { transEvent, transEnable: true },
	};
	await apiRequest.call(context, '/v5/webhook/save', body);
	registrations(context)[url] = registration;
}

export async function unregister(context: IHookFunctions, url: string): Promise<void> {
	const registration = registrations(context)[url];
	if (!registration) return;
	const config = await readConfig(context);
	const restore: IDataObject = {};
	let stillOurs = false;
	if (registration.mode === 'default' && config.transCallbackUrl === url) {
		restore.transCallbackUrl = registration.previous.transCallbackUrl as string | null;
		stillOurs = true;
	}
	if (registration.mode === 'senders') {
		const ours = registration.senders.filter((sender) => urlOfSender(config, sender) === url);
		if (ours.length > 0) {
			stillOurs = true;
			const isOurs = (entry: { sender: string }) => ours.some((sender) => sender.toLowerCase() === entry.sender.toLowerCase());
			const others = senderUrls(config).filter((entry) => !isOurs(entry));
			const putBack = ours
				.map((sender) => ({ sender, url: registration.previous.senderUrls[sender] }))
				.filter((entry): entry is { sender: string; url: string } => typeof entry.url === 'string');
			const list = [...others, ...putBack];
			restore.transCallbackUrlExtra = list.length === 0 && registration.previous.noSenderUrls ? null : list;
			restore.transCallbackUrlExtraUpdateMode = 'replace';
		}
	}
	// Switches go back only when nobody changed them since this trigger saved them.
	if (stillOurs && sameSetting(config.transEvent, registration.saved.transEvent)) restore.transEvent = registration.previous.transEvent as IDataObject;
	if (stillOurs && sameSetting(config.transEnable, registration.saved.transEnable)) restore.transEnable = registration.previous.transEnable as boolean;
	if (Object.keys(restore).length > 0) {
		try {
			await apiRequest.call(context, '/v5/webhook/save', restore);
		} catch (error) {
			// A platform that refuses null for "nothing configured" gets pushes switched off instead.
			if (!Object.values(restore).some((value) => value === null)) throw new NodeApiError(context.getNode(), error as JsonObject);
			const fallback: IDataObject = Object.fromEntries(Object.entries(restore).filter(([, value]) => value !== null));
			fallback.transEnable = false;
			await apiRequest.call(context, '/v5/webhook/save', fallback);
		}
	}
	delete registrations(context)[url];
}
