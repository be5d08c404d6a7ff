/**
 * What the account's one webhook configuration must become, worked out without any request: the plans of a
 * registration and of a release, and the save that turns one configuration into another.
 *
 * The account has ONE webhook configuration (platform API 4.7, 6.1): a default push address, one address
 * per sender, seven kind switches and transEnable, shared by every workflow and by the user. Rules (also in
 * the README):
 * - A trigger never takes an address another trigger holds (test URL or production URL alike): it refuses
 *   naming that workflow. So "what was there before" is never another trigger's URL.
 * - A user's own receiver is taken over and put back exactly on removal, per-sender entries in their order.
 * - Switches are shared: a trigger switches on what it needs and switches nothing off while another
 *   trigger is still registered. The last one to leave puts back the switches as they were before the
 *   first trigger came.
 */
import type { IDataObject } from 'n8n-workflow';

import { SWITCH_KEYS, transEventFor } from '../shared/eventKinds';
import {
	type Prior,
	recordOf,
	sameTriggerUrl,
	triggerSecret,
	triggerUrl,
} from '../shared/triggerAddresses';
import {
	restoredSwitches,
	type SenderEntry,
	senderEntries,
	urlsOf,
	type WebhookConfig as Config,
} from '../shared/webhookConfig';
import { type Copies, holderOf, type Identity, isOwn, isTaken, type Ownership } from './holders';

export type Address = { kind: 'default' } | { kind: 'sender'; sender: string };

export interface RegistrationSettings {
	mode: 'default' | 'senders';
	senders: string[];
	events: string[];
	/** Options → Give Way to Others: any other trigger may take this one's addresses. */
	givesWay: boolean;
}

/** What the address held before this trigger's URL came (null: nothing). */
const previousOf = (url: string) => recordOf(url)?.previous ?? null;

/**
 * Another trigger's URLs that no longer answer (probe.ts), asked when a release would put them back: a test
 * listener hands the address back to the trigger that gave it way, unless that one was unpublished meanwhile.
 */
type Gone = ReadonlySet<string>;

/** What goes back when `url` leaves: its previous, past every trigger URL that no longer answers. */
function putBackOf(url: string, gone: Gone): string | null {
	let previous = previousOf(url);
	for (let depth = 0; previous !== null && gone.has(previous) && depth < 8; depth++)
		previous = previousOf(previous);
	return previous;
}

/** The other triggers' URLs a release of `records` would put back: those to ask whether they still answer. */
export function handedBack(records: string[]): string[] {
	return records
		.map((record) => previousOf(record))
		.filter((previous): previous is string => triggerSecret(previous) !== undefined);
}

export const sameSender = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function urlAt(config: Config, address: Address): string | null {
	if (address.kind === 'default') return config.transCallbackUrl ?? null;
	return (
		senderEntries(config).find((entry) => sameSender(entry.sender, address.sender))?.url ?? null
	);
}

export function addressName(address: Address) {
	return address.kind === 'default'
		? "the account's default push address"
		: `the push address of sender ${address.sender}`;
}

export function addressesOf(settings: RegistrationSettings): Address[] {
	return settings.mode === 'default'
		? [{ kind: 'default' }]
		: settings.senders.map((sender) => ({ kind: 'sender', sender }));
}

export function kindsOn(config: Config, events: string[]): boolean {
	const current = config.transEvent ?? {};
	return Object.entries(transEventFor(events)).every(([key, on]) => !on || current[key] === true);
}

/** The switches before the first trigger: from a URL of this trigger, else another's, else as they are. */
function priorOf(config: Config, own: Ownership): Prior {
	const triggers = urlsOf(config).filter((url) => triggerSecret(url) !== undefined) as string[];
	const ordered = [...triggers.filter((url) => isOwn(url, own)), ...triggers];
	for (const url of ordered) {
		const prior = recordOf(url)!.prior;
		if (prior) return prior;
	}
	return {
		transEvent: config.transEvent ?? null,
		transEnable: config.transEnable ?? null,
		noSenderList: !Array.isArray(config.transCallbackUrlExtra),
	};
}

/**
 * Which record a URL is released by: the URL itself (what it carries), or, where the platform did not keep
 * the URL as saved, the URL this trigger meant to save there. Undefined: the URL stays.
 */
export type Releasing = (url: string, address: Address) => string | undefined;

/**
 * The configuration with what was there before put back at every address `releasing` picks; a sender
 * entry that was not there before goes away, every other keeps its place.
 */
function putBack(
	config: Config,
	releasing: Releasing,
	prior: Prior,
	gone: Gone = new Set(),
): Config {
	const target = { ...config };
	const defaultUrl = config.transCallbackUrl;
	const record = typeof defaultUrl === 'string' && releasing(defaultUrl, { kind: 'default' });
	if (record) target.transCallbackUrl = putBackOf(record, gone);
	const entries = senderEntries(config);
	const recordOfEntry = (entry: SenderEntry) =>
		releasing(entry.url, { kind: 'sender', sender: entry.sender });
	if (entries.some(recordOfEntry)) {
		const list = entries.flatMap((entry) => {
			const released = recordOfEntry(entry);
			if (!released) return [entry];
			const previous = putBackOf(released, gone);
			return previous === null ? [] : [{ sender: entry.sender, url: previous }];
		});
		target.transCallbackUrlExtra = list.length === 0 && prior.noSenderList ? null : list;
	}
	return target;
}

const sameSwitches = (a: Config['transEvent'], b: Config['transEvent']) =>
	a === b || (!!a && !!b && SWITCH_KEYS.every((key) => a[key] === b[key]));

/** The sender entries' part of a save: changed and added entries in "save" mode while every entry keeps its place, else the whole list. */
function senderChanges(before: SenderEntry[] | null, after: SenderEntry[] | null): IDataObject {
	if (before === after) return {};
	if (after === null) return before === null ? {} : { transCallbackUrlExtra: null };
	const old = before ?? [];
	if (old.every((entry, index) => after[index]?.sender === entry.sender)) {
		const changed = after.filter((entry, index) => old[index]?.url !== entry.url);
		return changed.length === 0
			? {}
			: { transCallbackUrlExtra: changed, transCallbackUrlExtraUpdateMode: 'save' };
	}
	return { transCallbackUrlExtra: after, transCallbackUrlExtraUpdateMode: 'replace' };
}

/** The save that turns `config` into `target`: only what differs. */
export function changes(config: Config, target: Config): IDataObject {
	const body: IDataObject = {};
	if ((target.transCallbackUrl ?? null) !== (config.transCallbackUrl ?? null))
		body.transCallbackUrl = target.transCallbackUrl ?? null;
	Object.assign(
		body,
		senderChanges(config.transCallbackUrlExtra ?? null, target.transCallbackUrlExtra ?? null),
	);
	if (!sameSwitches(config.transEvent ?? null, target.transEvent ?? null))
		body.transEvent = target.transEvent ?? null;
	if ((target.transEnable ?? null) !== (config.transEnable ?? null))
		body.transEnable = target.transEnable ?? null;
	return body;
}

type Plan = { target: Config } | { taken: { address: Address; holder: string } };

/** This trigger's URLs at `settings`' addresses, each replacing what the address holds now. */
function withOwnUrls(
	config: Config,
	base: Config,
	id: Identity,
	settings: RegistrationSettings,
	prior: Prior,
): Config {
	const target = { ...base };
	const urlReplacing = (holder: string | null) => {
		const kind = holderOf(holder, id);
		if (kind === 'current') return holder!;
		// A published trigger taking the address of one that gives way keeps what that one replaced, never a
		// trigger's URL; a test listener keeps the one that gave way, which gets the address back when the
		// test ends (if it still answers then: see Gone).
		const handedOn = (url: string | null) =>
			!id.test && recordOf(url)?.givesWay === true ? previousOf(url!) : url;
		const previous =
			kind === 'user'
				? holder
				: kind === 'givesWay' && id.test
					? holder
					: kind === 'leftover' || kind === 'givesWay'
						? handedOn(previousOf(holder!))
						: null;
		const record = { ...id, prior, previous };
		return triggerUrl(id.webhookUrl, id.secret, record);
	};
	if (settings.mode === 'default')
		target.transCallbackUrl = urlReplacing(urlAt(config, { kind: 'default' }));
	else {
		const chosen = (sender: string) => settings.senders.some((one) => sameSender(one, sender));
		const list = senderEntries(target).map((entry) =>
			chosen(entry.sender) ? { sender: entry.sender, url: urlReplacing(entry.url) } : entry,
		);
		for (const sender of settings.senders)
			if (!list.some((entry) => sameSender(entry.sender, sender)))
				list.push({ sender, url: urlReplacing(null) });
		target.transCallbackUrlExtra = list;
	}
	return target;
}

/** What the configuration must become for this trigger, or the address another trigger holds. */
export function registrationPlan(
	config: Config,
	id: Identity,
	settings: RegistrationSettings,
	copies: Copies = new Set(),
): Plan {
	for (const address of addressesOf(settings)) {
		const holder = urlAt(config, address);
		if (isTaken(holder, id, copies)) return { taken: { address, holder: holder! } };
	}
	const prior = priorOf(config, id);
	const needed = (address: Address) =>
		address.kind === 'default'
			? settings.mode === 'default'
			: settings.mode === 'senders' &&
				settings.senders.some((sender) => sameSender(sender, address.sender));
	const ours = (url: string) => ['current', 'leftover'].includes(holderOf(url, id, copies));
	// This trigger's URLs where it is no longer needed (settings changed, a test URL left behind) go.
	const cleared = putBack(
		config,
		(url, address) => (ours(url) && !needed(address) ? url : undefined),
		prior,
	);
	const target = withOwnUrls(config, cleared, id, settings, prior);
	if (!kindsOn(config, settings.events)) {
		// Switch on what this trigger needs; every other kind stays as it is (someone else may need it).
		const transEvent = { ...(config.transEvent ?? transEventFor([])) };
		for (const [key, on] of Object.entries(transEventFor(settings.events)))
			if (on) transEvent[key] = true;
		target.transEvent = transEvent;
	}
	target.transEnable = true;
	return { target };
}

/** The records by which the URLs `releasing` picks are released. */
export function releasedRecords(config: Config, releasing: Releasing): string[] {
	return [
		config.transCallbackUrl && releasing(config.transCallbackUrl, { kind: 'default' }),
		...senderEntries(config).map((entry) =>
			releasing(entry.url, { kind: 'sender', sender: entry.sender }),
		),
	].filter((record): record is string => typeof record === 'string');
}

/**
 * What the configuration becomes when this trigger lets go of the URLs `releasing` picks: what was there
 * before them (past the `gone` triggers' URLs), and the prior switches when no trigger is left. Undefined
 * when it holds none of them.
 */
export function releasePlan(
	config: Config,
	own: Ownership,
	releasing: Releasing,
	gone: Gone = new Set(),
): Config | undefined {
	const records = releasedRecords(config, releasing);
	if (records.length === 0) return undefined;
	const prior = recordOf(records[0])?.prior ?? priorOf(config, own);
	const target = putBack(config, releasing, prior, gone);
	if (urlsOf(target).every((url) => triggerSecret(url) === undefined))
		Object.assign(target, restoredSwitches(config, prior));
	return target;
}

/**
 * Where the platform did not keep this trigger's URL as planned (a platform that shortens or rewrites
 * addresses): the URL it meant to save there, by which what it replaced is put back. Undefined elsewhere.
 */
export function notKeptBy(plan: Config, own: Ownership): Releasing {
	return (url, address) => {
		const meant = urlAt(plan, address);
		const ours = isOwn(url, own) || (!!url && !!meant && meant.startsWith(url));
		return ours && !sameTriggerUrl(url, meant) ? meant! : undefined;
	};
}
