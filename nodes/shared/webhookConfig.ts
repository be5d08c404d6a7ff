/**
 * The account's one webhook configuration (platform API 2.7, 4.7) as both nodes read it: a default push
 * address, one address per sender, seven kind switches and transEnable.
 */
import { SWITCH_KEYS } from './eventKinds';
import type { Prior } from './triggerAddresses';

export interface SenderEntry {
	sender: string;
	url: string;
}

export interface WebhookConfig {
	transCallbackUrl?: string | null;
	transEvent?: Record<string, boolean> | null;
	transEnable?: boolean | null;
	transCallbackUrlExtra?: SenderEntry[] | null;
}

export function senderEntries(config: WebhookConfig): SenderEntry[] {
	return Array.isArray(config.transCallbackUrlExtra) ? config.transCallbackUrlExtra : [];
}

/** Every address's URL, the default address first. */
export function urlsOf(config: WebhookConfig): Array<string | null | undefined> {
	return [config.transCallbackUrl, ...senderEntries(config).map((entry) => entry.url)];
}

/** The switches the last trigger leaves: what triggers switched on goes back to the prior state. */
export function restoredSwitches(config: WebhookConfig, prior: Prior): WebhookConfig {
	const restore: WebhookConfig = {};
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
