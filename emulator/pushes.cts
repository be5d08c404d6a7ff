/**
 * Webhook pushes (platform API section 6): events are queued, then POSTed as JSON arrays of at most
 * 1000 to the sender's transCallbackUrlExtra address or else transCallbackUrl, only for the kinds
 * switched on in transEvent (TaskStatus always), only while transEnable is true. Events that cannot
 * be pushed are recorded as discarded; a failing receiver is retried, then the push recorded as failed.
 */
import http from 'node:http';
import https from 'node:https';

import { EVENT_SWITCHES, type EmulatorEvent, type WebhookConfig } from './types.cts';

export type { EmulatorEvent } from './types.cts';

export const MAX_EVENTS_PER_PUSH = 1000;

/** JSON as the platform writes it: MailSeqId is a bare integer, even above 2^53. */
export function serializeEvents(events: EmulatorEvent[]): string {
	const parts = events.map((event) => {
		const visible: Record<string, string | number> = {};
		for (const [key, value] of Object.entries(event))
			if (!key.startsWith('__')) visible[key] = value;
		return JSON.stringify(visible).replace(/"MailSeqId":"(\d+)"/, '"MailSeqId":$1');
	});
	return `[${parts.join(',')}]`;
}

export interface PushRecord {
	url: string;
	count: number;
	eventCodes: Record<string, number>;
	status: number | null;
	ok: boolean;
	attempts: number;
	error?: string;
	at: string;
	body: string;
}

export interface DiscardRecord {
	reason: 'push disabled' | 'kind switched off' | 'no address';
	eventCode: string;
}

export class PushDispatcher {
	pushes: PushRecord[] = [];
	discarded: DiscardRecord[] = [];
	retries = 2;
	retryDelayMs = 200;
	/**
	 * How long the platform waits for a receiver's answer before it gives up on that attempt and tries again.
	 * The receiver may still be processing the attempt it gave up on: a short wait plays a platform whose
	 * retry races a slow first answer (each push then comes more than once).
	 */
	answerTimeoutMs = 30_000;
	autoPush = true;
	private queue: Array<{ url: string; event: EmulatorEvent }> = [];
	private scheduled = false;
	private inFlight = new Set<Promise<void>>();

	constructor(private readonly config: () => WebhookConfig) {}

	/** Routes one event now, by the configuration in force when the event happens. */
	enqueue(event: EmulatorEvent, sender: string) {
		const config = this.config();
		const code = String(event.EventCode);
		if (config.transEnable !== true) {
			this.discarded.push({ reason: 'push disabled', eventCode: code });
			return;
		}
		const kindSwitch = EVENT_SWITCHES[code];
		if (kindSwitch && config.transEvent?.[kindSwitch] !== true) {
			this.discarded.push({ reason: 'kind switched off', eventCode: code });
			return;
		}
		const own = (config.transCallbackUrlExtra ?? []).find(
			(e) => e.sender.toLowerCase() === sender.toLowerCase(),
		);
		const url = own?.url ?? config.transCallbackUrl;
		if (!url) {
			this.discarded.push({ reason: 'no address', eventCode: code });
			return;
		}
		this.queue.push({ url, event });
		if (this.autoPush && !this.scheduled) {
			this.scheduled = true;
			setImmediate(() => void this.flush());
		}
	}

	get pending() {
		return this.queue.length;
	}

	/** Sends everything queued, batched per address, and waits for all pushes under way. */
	async flush(): Promise<void> {
		this.scheduled = false;
		const queued = this.queue;
		this.queue = [];
		const byUrl = new Map<string, EmulatorEvent[]>();
		for (const { url, event } of queued) {
			const list = byUrl.get(url) ?? [];
			list.push(event);
			byUrl.set(url, list);
		}
		for (const [url, events] of byUrl) {
			for (let start = 0; start < events.length; start += MAX_EVENTS_PER_PUSH) {
				const batch = events.slice(start, start + MAX_EVENTS_PER_PUSH);
				const sending = this.push(url, batch).finally(() => this.inFlight.delete(sending));
				this.inFlight.add(sending);
				// One push at a time per flush keeps the order of batches what the receiver sees.
				await sending;
			}
		}
		await Promise.all([...this.inFlight]);
	}

	private async push(url: string, events: EmulatorEvent[]) {
		const body = serializeEvents(events);
		const eventCodes: Record<string, number> = {};
		for (const e of events)
			eventCodes[String(e.EventCode)] = (eventCodes[String(e.EventCode)] ?? 0) + 1;
		const record: PushRecord = {
			url,
			count: events.length,
			eventCodes,
			status: null,
			ok: false,
			attempts: 0,
			at: new Date().toISOString(),
			body,
		};
		this.pushes.push(record);
		for (let attempt = 0; attempt <= this.retries; attempt++) {
			record.attempts = attempt + 1;
			try {
				record.status = await post(url, body, this.answerTimeoutMs);
				record.ok = record.status >= 200 && record.status < 300;
				record.error = record.ok ? undefined : `receiver answered HTTP ${record.status}`;
			} catch (error) {
				record.status = null;
				record.error = (error as Error).message;
			}
			if (record.ok) return;
			if (attempt < this.retries)
				await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs));
		}
	}

	reset() {
		this.pushes = [];
		this.discarded = [];
		this.queue = [];
		this.answerTimeoutMs = 30_000;
	}
}

function post(url: string, body: string, answerTimeoutMs: number): Promise<number> {
	return new Promise((resolve, reject) => {
		const target = new URL(url);
		const client = target.protocol === 'https:' ? https : http;
		let waiting: NodeJS.Timeout | undefined;
		let answered = false;
		const request = client.request(
			target,
			{
				method: 'POST',
				headers: {
					'Content-Type': 'application/json; charset=UTF-8',
					'Content-Length': Buffer.byteLength(body),
					'User-Agent': 'YiyeWebhooks',
				},
			},
			(response) => {
				answered = true;
				clearTimeout(waiting);
				response.resume();
				response.on('end', () => resolve(response.statusCode ?? 0));
			},
		);
		request.on('error', (error) => {
			clearTimeout(waiting);
			reject(error);
		});
		// The wait for the answer starts once the whole push was sent.
		request.end(body, () => {
			if (answered) return;
			waiting = setTimeout(
				() => request.destroy(new Error(`receiver did not answer within ${answerTimeoutMs} ms`)),
				answerTimeoutMs,
			);
		});
	});
}
