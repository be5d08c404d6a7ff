/**
 * Who holds an address of the account's webhook configuration, as this trigger sees it (plans.ts decides what to
 * save from it): its own URLs told from others' by its n8n installation and its node's path, an older URL of its
 * own, a copy of this n8n at another public address, another trigger, or the user's receiver.
 */
import {
	isReleasedMark,
	parseUrl,
	recordOf,
	triggerSecret,
	withoutSecret,
} from '../shared/triggerAddresses';
import { urlsOf, type WebhookConfig as Config } from '../shared/webhookConfig';
import type { Liveness } from './probe';

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
