/**
 * Ignore Repeated Events (on by default): an event identical in every field to one this trigger passed on
 * within the last 24 hours is left out, and a push left with no event starts no execution. Platforms push at
 * least once: a push whose answer was slow or lost comes again, whole.
 *
 * "Passed on" means: in an execution n8n saved. Nothing counts as passed on, in memory or in the record,
 * before n8n saved its execution, so a crash can double an event, never lose one:
 * - In the process that received the push, an event counts once n8n has answered its push with success
 *   (n8n 2.x answers after it saved the execution; n8n 1.x answers just before, and then, having answered,
 *   loses the push in a crash whatever the trigger does), or once the execution ran this node's execute().
 *   A push repeating events whose first push is still being answered waits for that answer (a retry racing
 *   a slow first try), at most WAIT_MS, then is answered 503 so the platform sends it again later. A push
 *   answered with an error passed nothing on.
 * - Across restarts and processes, by a record in the workflow's static data of what the process writing it
 *   counted as passed on then: written with each push (what earlier pushes passed on; never the push's own
 *   events, which n8n 1.x saves before their execution), and when an execution ends in the process that
 *   holds the workflow's static data (a queue worker of n8n 2.x runs with empty static data: what it saved
 *   would replace the trigger's registration, so it writes nothing). Each push reads the record as n8n
 *   loaded it for that push.
 * Bounded: REMEMBERED events per trigger in memory, the last RECORDED in static data (n8n saves static data
 * whole, and n8n 1.x copies it into every execution it saves).
 */
import { hash } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

export const WINDOW_HOURS = 24;
const WINDOW_MS = WINDOW_HOURS * 60 * 60_000;
/** Events remembered per trigger in each process (about 100 bytes each). */
const REMEMBERED = 50_000;
/** Events in the record in static data: 8 bytes each, about 11 KB in all. */
const RECORDED = 1_000;
/** How long a push repeating events of a push still being answered waits for that answer. */
const WAIT_MS = 20_000;
const POLL_MS = 20;
/** A push n8n has not answered after this long is taken as failed: its events may come out again. */
const GIVE_UP_MS = 5 * 60_000;
const FINGERPRINT_BYTES = 8;

/** n8n's answer to a push as its response object shows it: ended once n8n answered. */
interface Answer {
	readonly writableEnded: boolean;
	readonly statusCode: number;
}

interface Push {
	answer: Answer;
	at: number;
	fingerprints: string[];
}

/** What one trigger remembers in this process. */
interface Memory {
	/** Fingerprint → when it was passed on (ms). */
	passed: Map<string, number>;
	/**
	 * The entries of `passed` in the order they came (an entry whose time `passed` no longer holds is stale):
	 * the oldest go first, without walking a Map from its start, where V8 keeps the holes of deleted entries.
	 */
	order: { fingerprints: string[]; times: number[]; head: number };
	/** Fingerprints of pushes not answered yet, and those pushes. */
	pending: Map<string, Push>;
	pushes: Set<Push>;
	/** The last record read from static data, not read again while unchanged. */
	merged?: string;
}

const memories = new Map<string, Memory>();

function memoryOf(context: IWebhookFunctions | IExecuteFunctions): Memory {
	const key = `${context.getWorkflow().id}:${context.getNode().webhookId ?? context.getNode().name}`;
	let memory = memories.get(key);
	if (!memory) {
		memory = {
			passed: new Map(),
			order: { fingerprints: [], times: [], head: 0 },
			pending: new Map(),
			pushes: new Set(),
		};
		memories.set(key, memory);
	}
	return memory;
}

/** The keys of the last event fingerprinted, and the same keys sorted: a push's events mostly share their keys. */
let lastKeys: { keys: string[]; sorted: string[] } = { keys: [], sorted: [] };

/** An event's keys in sorted order (the order fingerprints read fields in), sorted once for events alike. */
function sortedKeysOf(event: IDataObject): string[] {
	const keys = Object.keys(event);
	const last = lastKeys.keys;
	let same = keys.length === last.length;
	for (let index = 0; same && index < keys.length; index++) same = keys[index] === last[index];
	if (!same) lastKeys = { keys, sorted: [...keys].sort() };
	return lastKeys.sorted;
}

/**
 * An event's fingerprint: 64 bits of the SHA-256 of its fields, in key order, as the trigger passes it on
 * (the platform's fields, and the words it adds from them for the same options). Two events that differ in
 * any field differ here but by a chance of about 1 in 10^15 per event among 50,000 remembered.
 */
export function fingerprintOf(event: IDataObject): string {
	const known = fingerprints.get(event);
	if (known !== undefined) return known;
	// Each name and value with its length before it: no two different events read the same.
	let fields = '';
	for (const key of sortedKeysOf(event)) {
		const value = event[key];
		if (typeof value === 'string') fields += `${key.length}:${key}s${value.length}:${value}`;
		else {
			const text = JSON.stringify(value);
			fields += `${key.length}:${key}j${text.length}:${text}`;
		}
	}
	// One call per event: a Hash object per event cost as much as the digest.
	const fingerprint = hash('sha256', fields, 'binary').slice(0, FINGERPRINT_BYTES);
	fingerprints.set(event, fingerprint);
	return fingerprint;
}

/**
 * Fingerprints by event object: where n8n runs a push's execution in the process that received it, the
 * execution's items are the objects webhook() passed on, whose fingerprints are known already.
 */
const fingerprints = new WeakMap<IDataObject, string>();

function remember(memory: Memory, fingerprint: string, at: number) {
	const known = memory.passed.get(fingerprint);
	if (known !== undefined && known >= at) return;
	memory.passed.set(fingerprint, at);
	memory.order.fingerprints.push(fingerprint);
	memory.order.times.push(at);
	while (memory.passed.size > REMEMBERED) forgetOldest(memory);
}

/** Forgets the oldest entry still remembered (and the stale ones before it). */
function forgetOldest(memory: Memory) {
	const { order } = memory;
	while (order.head < order.fingerprints.length) {
		const fingerprint = order.fingerprints[order.head];
		const at = order.times[order.head++];
		if (memory.passed.get(fingerprint) === at) {
			memory.passed.delete(fingerprint);
			break;
		}
	}
	compact(order);
}

/** Drops the forgotten head of `order` once it is most of it. */
function compact(order: Memory['order']) {
	if (order.head < 4_096 || order.head * 2 < order.fingerprints.length) return;
	order.fingerprints = order.fingerprints.slice(order.head);
	order.times = order.times.slice(order.head);
	order.head = 0;
}

const isPassed = (memory: Memory, fingerprint: string, now: number) =>
	(memory.passed.get(fingerprint) ?? -Infinity) > now - WINDOW_MS;

/** Pushes n8n has answered since: with success their events count as passed on; else they never were. */
function settle(memory: Memory, now: number) {
	for (const push of memory.pushes) {
		const answered = push.answer.writableEnded;
		if (!answered && now - push.at < GIVE_UP_MS) continue;
		const passed = answered && push.answer.statusCode >= 200 && push.answer.statusCode < 300;
		for (const fingerprint of push.fingerprints) {
			if (memory.pending.get(fingerprint) !== push) continue;
			memory.pending.delete(fingerprint);
			if (passed) remember(memory, fingerprint, push.at);
		}
		memory.pushes.delete(push);
	}
	const { order } = memory;
	while (order.head < order.times.length && order.times[order.head] <= now - WINDOW_MS) {
		const fingerprint = order.fingerprints[order.head];
		if (memory.passed.get(fingerprint) === order.times[order.head])
			memory.passed.delete(fingerprint);
		order.head++;
	}
	compact(order);
}

/** The record in static data: `<seconds>:<base64 of fingerprints passed on that second>`, joined by ";". */
function readRecord(memory: Memory, record: unknown) {
	if (typeof record !== 'string' || record === memory.merged) return;
	memory.merged = record;
	for (const part of record.split(';')) {
		const [seconds, fingerprints] = part.split(':');
		const at = Number(seconds) * 1000;
		if (!Number.isSafeInteger(at) || !fingerprints) continue;
		const bytes = Buffer.from(fingerprints, 'base64');
		for (let start = 0; start + FINGERPRINT_BYTES <= bytes.length; start += FINGERPRINT_BYTES)
			remember(memory, bytes.toString('latin1', start, start + FINGERPRINT_BYTES), at);
	}
}

/** The record of the last RECORDED events this process knows were passed on, within the window. */
function writeRecord(memory: Memory, now: number): string {
	const { order } = memory;
	const recent: Array<[string, number]> = [];
	const taken = new Set<string>();
	for (let index = order.fingerprints.length - 1; index >= order.head; index--) {
		if (recent.length === RECORDED) break;
		const [fingerprint, at] = [order.fingerprints[index], order.times[index]];
		if (at <= now - WINDOW_MS || memory.passed.get(fingerprint) !== at || taken.has(fingerprint))
			continue;
		taken.add(fingerprint);
		recent.push([fingerprint, at]);
	}
	const parts: string[] = [];
	let second = -1;
	let group: string[] = [];
	const flush = () => {
		if (group.length > 0)
			parts.push(`${second}:${Buffer.from(group.join(''), 'latin1').toString('base64')}`);
		group = [];
	};
	// Oldest first, as they came (times from other processes' records may be out of order: a group per run).
	for (const [fingerprint, at] of recent.reverse()) {
		const atSecond = Math.floor(at / 1000);
		if (atSecond !== second) flush();
		second = atSecond;
		group.push(fingerprint);
	}
	flush();
	return parts.join(';');
}

export interface TriggerStaticData extends IDataObject {
	passedEvents?: string;
}

/**
 * Which of a push's events (by fingerprint) are new: not passed on within the window, nor earlier in the
 * same push. Undefined when some are still being passed on by a push n8n has not answered after WAIT_MS:
 * the push is then answered 503, and comes again.
 */
export async function newEvents(
	context: IWebhookFunctions,
	fingerprints: string[],
): Promise<boolean[] | undefined> {
	const memory = memoryOf(context);
	const data = context.getWorkflowStaticData('node') as TriggerStaticData;
	const started = Date.now();
	for (;;) {
		const now = Date.now();
		settle(memory, now);
		readRecord(memory, data.passedEvents);
		const waiting = fingerprints.some(
			(fingerprint) => memory.pending.has(fingerprint) && !isPassed(memory, fingerprint, now),
		);
		if (!waiting) break;
		if (now - started >= WAIT_MS) return undefined;
		await sleep(POLL_MS);
	}
	// From here to the return nothing waits: a push coming meanwhile finds these events pending.
	const now = Date.now();
	const seen = new Set<string>();
	const fresh = fingerprints.map((fingerprint) => {
		if (seen.has(fingerprint) || isPassed(memory, fingerprint, now)) return false;
		seen.add(fingerprint);
		return true;
	});
	if (seen.size > 0) {
		const push: Push = { answer: context.getResponseObject(), at: now, fingerprints: [...seen] };
		memory.pushes.add(push);
		for (const fingerprint of seen) memory.pending.set(fingerprint, push);
	}
	// What earlier pushes passed on, saved by n8n with this push's static data (this push's events are
	// pending: n8n 1.x would save them before their execution).
	keepRecord(memory, data, now);
	return fresh;
}

/** The record in static data, as this process knows it now (a top-level assignment: n8n saves it then). */
function keepRecord(memory: Memory, data: TriggerStaticData, now: number) {
	const record = writeRecord(memory, now);
	if (record !== data.passedEvents) data.passedEvents = record;
	memory.merged = record;
}

/**
 * Where n8n publishes the workflow: the record starts empty in its static data, so that the executions of
 * its first pushes, which read static data before those pushes saved theirs, find it (see recordPassed).
 */
export function startRecord(data: TriggerStaticData) {
	if (typeof data.passedEvents !== 'string') data.passedEvents = '';
}

/**
 * From the execution of a push (saved by n8n before it runs): its events count as passed on in this
 * process, and, where the execution holds the workflow's static data (it has a record), the record that n8n
 * saves when the execution ends holds them. A queue worker of n8n 2.x runs with empty static data (n8n
 * keeps none with the execution): the next push's record holds them instead.
 */
export function recordPassed(context: IExecuteFunctions, events: IDataObject[]) {
	const memory = memoryOf(context);
	const data = context.getWorkflowStaticData('node') as TriggerStaticData;
	const now = Date.now();
	settle(memory, now);
	readRecord(memory, data.passedEvents);
	for (const event of events) remember(memory, fingerprintOf(event), now);
	if (typeof data.passedEvents === 'string') keepRecord(memory, data, now);
}
