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
	isReleasedMark,
	parseUrl,
	type Prior,
	recordOf,
	sameTriggerUrl,
	triggerSecret,
	triggerUrl,
	withoutSecret,
} from '../shared/triggerAddresses';
import {
	restoredSwitches,
	type SenderEntry,
	senderEntries,
	urlsOf,
	type WebhookConfig as Config,
} from '../shared/webhookConfig';
import type { Liveness } from './probe';

export type Address = { kind: 'default' } | { kind: 'sender'; sender: string };

export interface RegistrationSettings {
	mode: 'default' | 'senders';
	senders: string[];
	events: string[];
	/** Options → Give Way to Others: any other trigger may take this one's addresses. */
	givesWay: boolean;
}

/** What tells this trigger's URLs from others': its n8n installation and its node's path (secrets.ts). */
export interface Ownership {
	/** This context's webhook URL (production or test), without query. */
	webhookUrl: string;
	/** The end of the path that names this trigger node: `/<webhookId>/events`. */
	key: string;
	instance: string;
}

/** Everything this trigger writes into its URL. */
export interface Identity extends Ownership {
	secret: string;
	probeKey: string;
	workflowId: string;
	workflowName: string;
	test: boolean;
	/** As RegistrationSettings says: written into its URL, for other triggers to read. */
	givesWay: boolean;
}

/**
 * Who holds an address, as this trigger sees it: nothing (or a released mark), the user's receiver,
 * this trigger's URL as it is now, an older URL of this trigger (another host, secret or name, a test URL
 * left behind, or one an earlier version wrote) that it takes back, this workflow's published trigger
 * (seen by a test listener), this workflow's trigger live on a copy of this n8n at another public
 * address, another trigger that gives way (Options → Give Way to Others), or another trigger.
 */
type Holder =
	'free' | 'user' | 'current' | 'leftover' | 'published' | 'copy' | 'givesWay' | 'other';

/** This trigger's URLs that another live copy of this n8n answers at (see liveCopies). */
export type Copies = ReadonlySet<string>;

export function isOwn(url: unknown, own: Ownership): url is string {
	const record = recordOf(url);
	return record?.instance === own.instance && parseUrl(url)!.pathname.endsWith(own.key);
}

export function holderOf(url: unknown, id: Identity, copies: Copies = new Set()): Holder {
	if (url === null || url === undefined || isReleasedMark(url)) return 'free';
	if (triggerSecret(url) === undefined) return 'user';
	if (!isOwn(url, id)) return recordOf(url)!.givesWay ? 'givesWay' : 'other';
	if (copies.has(url)) return 'copy';
	const record = recordOf(url)!;
	const current =
		!record.inQuery &&
		record.test === id.test &&
		triggerSecret(url) === id.secret &&
		withoutSecret(url) === id.webhookUrl &&
		record.probeKey === id.probeKey &&
		record.workflowId === id.workflowId &&
		record.workflowName === id.workflowName &&
		record.givesWay === id.givesWay;
	if (current) return 'current';
	return id.test && !record.test ? 'published' : 'leftover';
}

/** Whether an address holds another trigger, as far as registering there goes. */
export const isTaken = (url: unknown, id: Identity, copies?: Copies) =>
	['other', 'published', 'copy'].includes(holderOf(url, id, copies));

/** Where an n8n receives pushes: a URL's origin and path before its endpoint (`/webhook` of `/webhook/<id>/events`). */
export function publicAddressOf(url: string, own: Ownership): string {
	const parsed = parseUrl(url)!;
	const path = parsed.pathname.endsWith(own.key)
		? parsed.pathname.slice(0, -own.key.length)
		: parsed.pathname;
	const cut = path.lastIndexOf('/');
	return `${parsed.origin}${cut <= 0 ? '' : path.slice(0, cut)}`;
}

/**
 * This trigger's production URLs at another public address than its own: left by a restart elsewhere,
 * or held by a copy of this n8n. They are taken or released only when no trigger answers there.
 */
export function ownElsewhere(config: Config, own: Ownership): string[] {
	const here = publicAddressOf(own.webhookUrl, own);
	return urlsOf(config).filter(
		(url): url is string =>
			isOwn(url, own) && !recordOf(url)!.test && publicAddressOf(url, own) !== here,
	);
}

/** The URLs a trigger other than this one answered at: not this n8n itself, reached at an older address. */
export function liveCopies(probes: ReadonlyMap<string, Liveness>, own: Ownership): Copies {
	const here = publicAddressOf(own.webhookUrl, own);
	const copies = new Set<string>();
	for (const [url, liveness] of probes)
		if (
			liveness.answered &&
			(!liveness.answer || publicAddressOf(liveness.answer.url, own) !== here)
		)
			copies.add(url);
	return copies;
}

/** What the address held before this trigger's URL came (null: nothing). */
const previousOf = (url: string) => recordOf(url)?.previous ?? null;

const sameSender = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

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
function putBack(config: Config, releasing: Releasing, prior: Prior): Config {
	const target = { ...config };
	const defaultUrl = config.transCallbackUrl;
	const record = typeof defaultUrl === 'string' && releasing(defaultUrl, { kind: 'default' });
	if (record) target.transCallbackUrl = previousOf(record);
	const entries = senderEntries(config);
	const recordOfEntry = (entry: SenderEntry) =>
		releasing(entry.url, { kind: 'sender', sender: entry.sender });
	if (entries.some(recordOfEntry)) {
		const list = entries.flatMap((entry) => {
			const released = recordOfEntry(entry);
			if (!released) return [entry];
			const previous = previousOf(released);
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
		// A trigger that gives way hands on what it replaced: what goes back is never another trigger's URL.
		const previous =
			kind === 'user'
				? holder
				: kind === 'leftover' || kind === 'givesWay'
					? previousOf(holder!)
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

/**
 * What the configuration becomes when this trigger lets go of the URLs `releasing` picks: what was there
 * before them, and the prior switches when no trigger is left. Undefined when it holds none of them.
 */
export function releasePlan(
	config: Config,
	own: Ownership,
	releasing: Releasing,
): Config | undefined {
	const records = [
		config.transCallbackUrl && releasing(config.transCallbackUrl, { kind: 'default' }),
		...senderEntries(config).map((entry) =>
			releasing(entry.url, { kind: 'sender', sender: entry.sender }),
		),
	].filter((record): record is string => typeof record === 'string');
	if (records.length === 0) return undefined;
	const prior = recordOf(records[0])?.prior ?? priorOf(config, own);
	const target = putBack(config, releasing, prior);
	if (urlsOf(target).every((url) => triggerSecret(url) === undefined))
		Object.assign(target, restoredSwitches(config, prior));
	return target;
}

/** The API's rule for a push address (4.7): it starts with http:// or https://. */
const ACCEPTED_URL = /^https?:\/\//i;

/**
 * The target with every URL the save would write that the API's rule refuses (a prior "" for a cleared
 * address, a leading space) left empty: the default address null, a sender entry removed. `notes` says
 * what, for n8n's log.
 */
export function withoutRefusedUrls(config: Config, target: Config) {
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
