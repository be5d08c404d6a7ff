/**
 * Webhook → Save beside Mail Delivery Triggers, which keep in their URLs on the platform the record of
 * what they replaced (shared/triggerAddresses.ts): a save takes nothing from a trigger without Replace
 * Anyway, never writes a URL as Get shows it (secret masked), and keeps the triggers' record true, so
 * that the last trigger to leave puts back what the user set, not what the triggers set.
 */
import type { IDataObject } from 'n8n-workflow';

import { SWITCHABLE_KINDS } from '../../../shared/eventKinds';
import {
	holdingWorkflow,
	isMasked,
	maskSecret,
	type Prior,
	recordOf,
	triggerSecret,
	withoutSecret,
	withPrior,
} from '../../../shared/triggerAddresses';
import {
	restoredSwitches,
	type SenderEntry,
	senderEntries,
	urlsOf,
	type WebhookConfig,
} from '../../../shared/webhookConfig';

const sameSender = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const held = (url: unknown): url is string => triggerSecret(url) !== undefined;
const bodyEntries = (body: IDataObject) => body.transCallbackUrlExtra as SenderEntry[] | undefined;

/** The configuration as the platform keeps it after this save (API 4.7: only the fields sent change). */
function afterSave(current: WebhookConfig, body: IDataObject): WebhookConfig {
	const next: WebhookConfig = { ...current };
	if (body.transCallbackUrl !== undefined)
		next.transCallbackUrl = body.transCallbackUrl as string | null;
	if (body.transEnable !== undefined) next.transEnable = body.transEnable as boolean | null;
	if (body.transEvent !== undefined)
		next.transEvent =
			body.transEvent === null
				? null
				: { ...(current.transEvent ?? {}), ...(body.transEvent as Record<string, boolean>) };
	const entries = bodyEntries(body);
	if (entries !== undefined) {
		if (body.transCallbackUrlExtraUpdateMode === 'replace') next.transCallbackUrlExtra = entries;
		else {
			const merged = [...senderEntries(current)];
			for (const entry of entries) {
				const at = merged.findIndex((old) => sameSender(old.sender, entry.sender));
				if (at === -1) merged.push(entry);
				else merged[at] = entry;
			}
			next.transCallbackUrlExtra = merged;
		}
	}
	return next;
}

/**
 * The body with each masked URL (as Get shows a trigger's) put back as the platform holds it, and the
 * fields whose masked URL no trigger holds now, by their labels.
 */
export function unmasked(current: WebhookConfig, body: IDataObject) {
	const real = (url: unknown) => urlsOf(current).find((held) => maskSecret(held) === url);
	const refused: string[] = [];
	const result = { ...body };
	if (isMasked(body.transCallbackUrl)) {
		result.transCallbackUrl = real(body.transCallbackUrl);
		if (result.transCallbackUrl === undefined) refused.push('Default Push URL');
	}
	const entries = bodyEntries(body);
	if (entries?.some((entry) => isMasked(entry.url)))
		result.transCallbackUrlExtra = entries.map((entry) => {
			if (!isMasked(entry.url)) return entry;
			const url = real(entry.url);
			if (url === undefined) refused.push(`URL (sender ${entry.sender})`);
			return { ...entry, url: url ?? entry.url };
		});
	return { body: result, refused };
}

/** A trigger by its URL (without the secret) and the workflow it names. */
function triggerNamed(url: string): string {
	const workflow = holdingWorkflow(url);
	return `a Mail Delivery Trigger (${withoutSecret(url)})${workflow ? ` of ${workflow}` : ''}`;
}

/**
 * What the save would take away from Mail Delivery Triggers (recognised by their URLs): an address
 * one holds, pushes as a whole, or a kind that is on while one is registered (which kinds each
 * trigger needs is not recorded on the platform, so every kind that is on counts).
 */
export function triggerConflicts(current: WebhookConfig, body: IDataObject): string[] {
	const conflicts: string[] = [];
	const next = afterSave(current, body);
	if (held(current.transCallbackUrl) && next.transCallbackUrl !== current.transCallbackUrl)
		conflicts.push(
			`the account's default push address is held by ${triggerNamed(current.transCallbackUrl)}`,
		);
	for (const entry of senderEntries(current).filter((candidate) => held(candidate.url))) {
		const after = senderEntries(next).find((candidate) =>
			sameSender(candidate.sender, entry.sender),
		);
		if (after?.url !== entry.url)
			conflicts.push(
				`the push address of sender ${entry.sender} is held by ${triggerNamed(entry.url)}`,
			);
	}
	const triggerUrls = urlsOf(current).filter(held);
	if (triggerUrls.length > 0 && body.transEnable === false && current.transEnable === true) {
		conflicts.push(
			`turning pushes off would stop every Mail Delivery Trigger on the account (${triggerUrls.map((url) => holdingWorkflow(url) ?? withoutSecret(url)).join(', ')})`,
		);
	}
	if (triggerUrls.length > 0 && body.transEvent) {
		const switched = body.transEvent as Record<string, boolean>;
		const switchedOff = SWITCHABLE_KINDS.filter(
			(kind) =>
				current.transEvent?.[kind.transEventKey] === true && switched[kind.transEventKey] === false,
		);
		if (switchedOff.length > 0) {
			conflicts.push(
				`the change would switch off ${switchedOff.map((kind) => kind.code).join(', ')}, which the Mail Delivery Triggers on the account may receive`,
			);
		}
	}
	return conflicts;
}

/**
 * The triggers' record of the state before them, with the switches this save changes (those it sends as
 * they already are may be on for a trigger, and keep their record).
 */
function withUserChanges(prior: Prior, current: WebhookConfig, body: IDataObject): Prior {
	const result = { ...prior };
	const sent = body.transEvent as Record<string, boolean> | null | undefined;
	if (sent === null && current.transEvent !== null) result.transEvent = null;
	else if (sent) {
		const changed = Object.entries(sent).filter(([key, on]) => current.transEvent?.[key] !== on);
		if (changed.length > 0)
			result.transEvent = { ...(prior.transEvent ?? {}), ...Object.fromEntries(changed) };
	}
	if (body.transEnable !== undefined && body.transEnable !== current.transEnable)
		result.transEnable = body.transEnable as boolean | null;
	return result;
}

/** The body with the triggers' URLs left after the save rewritten to record the switches the user changes. */
function recordingUserSwitches(
	current: WebhookConfig,
	next: WebhookConfig,
	body: IDataObject,
): IDataObject {
	const rewrite = (url: string) => {
		const prior = recordOf(url)?.prior;
		return prior ? withPrior(url, withUserChanges(prior, current, body)) : url;
	};
	const result = { ...body };
	if (held(next.transCallbackUrl) && rewrite(next.transCallbackUrl) !== next.transCallbackUrl)
		result.transCallbackUrl = rewrite(next.transCallbackUrl);
	const rewritten = senderEntries(next)
		.filter((entry) => held(entry.url) && rewrite(entry.url) !== entry.url)
		.map((entry) => ({ sender: entry.sender, url: rewrite(entry.url) }));
	if (rewritten.length === 0) return result;
	const renewed = (entry: SenderEntry) =>
		rewritten.find((one) => sameSender(one.sender, entry.sender)) ?? entry;
	// Replacing: the whole list as it will be; else the body's entries and the rewritten ones.
	const updated =
		body.transCallbackUrlExtraUpdateMode === 'replace'
			? senderEntries(next).map(renewed)
			: [
					...(bodyEntries(body) ?? []).map(renewed),
					...rewritten.filter(
						(one) =>
							!(bodyEntries(body) ?? []).some((entry) => sameSender(entry.sender, one.sender)),
					),
				];
	result.transCallbackUrlExtra = updated;
	return result;
}

/**
 * What the save writes so the triggers' record stays true. While triggers hold addresses after it, the
 * switches it changes become their record of the state before them (so they stay when the last one
 * leaves).
 * When it takes the last address a trigger holds (Replace Anyway), nothing would put back what the
 * triggers switched on: the save puts the switches and the flag back itself, but those it sets.
 */
export function keepingRecords(current: WebhookConfig, body: IDataObject): IDataObject {
	const next = afterSave(current, body);
	if (urlsOf(next).some(held)) {
		if (body.transEvent === undefined && body.transEnable === undefined) return body;
		return recordingUserSwitches(current, next, body);
	}
	const prior = urlsOf(current)
		.filter(held)
		.map((url) => recordOf(url)?.prior)
		.find((one) => one !== undefined);
	if (!prior) return body;
	const restore = restoredSwitches(next, prior);
	const result = { ...body };
	if (body.transEvent === undefined && restore.transEvent !== undefined)
		result.transEvent = restore.transEvent;
	if (body.transEnable === undefined && restore.transEnable !== undefined)
		result.transEnable = restore.transEnable;
	return result;
}

/** The body as the output shows it: every trigger's secret masked. */
export function maskedBody(body: IDataObject): IDataObject {
	const entries = bodyEntries(body);
	return {
		...body,
		...(body.transCallbackUrl !== undefined
			? { transCallbackUrl: maskSecret(body.transCallbackUrl) }
			: {}),
		...(entries
			? { transCallbackUrlExtra: entries.map((e) => ({ ...e, url: maskSecret(e.url) })) }
			: {}),
	};
}
