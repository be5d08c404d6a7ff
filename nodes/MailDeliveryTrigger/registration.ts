import { createHash, randomBytes } from 'node:crypto';
import type {
	IDataObject,
	IHookFunctions,
	INode,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, WebhookPathTakenError } from 'n8n-workflow';

import { SWITCHABLE_KINDS, transEventFor } from '../shared/eventKinds';
import {
	holdingWorkflow,
	parseUrl,
	RELEASED_TOKEN,
	SECRET_PARAMETER,
	TOKEN_PREFIX,
	triggerSecret,
	withoutSecret,
	WORKFLOW_ID_PARAMETER,
	WORKFLOW_NAME_PARAMETER,
} from '../shared/triggerAddresses';
import { apiRequest } from '../shared/transport';

/**
 * The account has ONE webhook configuration (platform API 4.7, 6.1): a default push address, one
 * address per sender, seven kind switches and transEnable, shared by every workflow and by the user.
 *
 * The platform itself carries the record of what a trigger replaced, in the URL the trigger saves there:
 * - `token`: the workflow's secret (TOKEN_PREFIX…): a trigger's URL, not the user's receiver;
 * - `n8n` and the path's `/<webhookId>/events`: which n8n installation and which trigger node, so this
 *   trigger recognises its own URLs after a restart at another address, a lost secret or a half-done
 *   activation (a save that went through but was answered with an error);
 * - `workflow`, `name`: the workflow that holds the address, named in refusals;
 * - `test`: a test listener's URL, which the same workflow takes back;
 * - `prior`: the switches (and whether there was a sender list) before the first trigger came;
 * - `prev`: what this address held before (absent: nothing).
 * Static data keeps only the secret's SHA-256 (n8n 1.x copies static data into every execution), written
 * by top-level assignment: n8n saves static data only when a change is flagged, and flags no change made
 * inside an object created during the same activation. The secret itself is read back from this
 * trigger's URL on the platform when its digest matches; else a new one is made.
 *
 * Rules (also in the README):
 * - A trigger never takes an address another trigger holds (test URL or production URL alike): it refuses
 *   naming that workflow. So "what was there before" is never another trigger's URL.
 * - A user's own receiver is taken over and put back exactly on removal, per-sender entries in their order.
 * - Switches are shared: a trigger switches on what it needs and switches nothing off while another
 *   trigger is still registered. The last one to leave puts back the switches as they were before the
 *   first trigger came.
 */
const INSTANCE_PARAMETER = 'n8n';
const TEST_PARAMETER = 'test';
const PRIOR_PARAMETER = 'prior';
const PREVIOUS_PARAMETER = 'prev';
const RECORD_PARAMETERS = [
	SECRET_PARAMETER,
	INSTANCE_PARAMETER,
	WORKFLOW_ID_PARAMETER,
	WORKFLOW_NAME_PARAMETER,
	TEST_PARAMETER,
	PRIOR_PARAMETER,
	PREVIOUS_PARAMETER,
];

type Address = { kind: 'default' } | { kind: 'sender'; sender: string };

interface SenderEntry {
	sender: string;
	url: string;
}

interface Config {
	transCallbackUrl?: string | null;
	transEvent?: Record<string, boolean> | null;
	transEnable?: boolean | null;
	transCallbackUrlExtra?: SenderEntry[] | null;
}

/** The account before the first trigger came: its switches, and whether it had no sender list at all. */
interface Prior {
	transEvent: Record<string, boolean> | null;
	transEnable: boolean | null;
	noSenderList: boolean;
}

export interface RegistrationSettings {
	mode: 'default' | 'senders';
	senders: string[];
	events: string[];
}

/** What tells this trigger's URLs from others': its n8n installation and its node's path. */
interface Ownership {
	/** This context's webhook URL (production or test), without query. */
	webhookUrl: string;
	/** The end of the path that names this trigger node: `/<webhookId>/events`. */
	key: string;
	instance: string;
}

/** Everything this trigger writes into its URL. */
interface Identity extends Ownership {
	secret: string;
	workflowId: string;
	workflowName: string;
	test: boolean;
}

/**
 * Who holds an address, as this trigger sees it: nothing (or a released mark), the user's receiver,
 * this trigger's URL as it is now, an older URL of this trigger (another host, secret or name, or a
 * test URL left behind) that it takes back, this workflow's published trigger (seen by a test listener),
 * or another trigger.
 */
type Holder = 'free' | 'user' | 'current' | 'leftover' | 'published' | 'other';

// ---- this trigger ----------------------------------------------------------------------------------

type TriggerStaticData = IDataObject & { secretDigest?: string; listeningForTest?: boolean };

function staticData(context: IHookFunctions | IWebhookFunctions) {
	return context.getWorkflowStaticData('node') as TriggerStaticData;
}

export const secretDigest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * The digest a push's secret must have, or undefined when this trigger has registered none (then no
 * push is accepted).
 */
export function registeredSecretDigest(context: IWebhookFunctions): Buffer | undefined {
	const digest = staticData(context).secretDigest;
	return typeof digest === 'string' ? Buffer.from(digest, 'hex') : undefined;
}

/**
 * This trigger's secret: the one its URL on the platform carries when that matches the digest kept in
 * static data, else a new one (whose digest is kept).
 */
function secretFor(context: IHookFunctions, config: Config, own: Ownership): string {
	const data = staticData(context);
	if (typeof data.secretDigest === 'string') {
		for (const url of urlsOf(config)) {
			const token = isOwn(url, own) ? triggerSecret(url)! : undefined;
			if (token && secretDigest(token).toString('hex') === data.secretDigest) return token;
		}
	}
	const secret = `${TOKEN_PREFIX}${randomBytes(24).toString('hex')}`;
	data.secretDigest = secretDigest(secret).toString('hex');
	return secret;
}

function ownership(context: IHookFunctions): Ownership {
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

function identity(context: IHookFunctions, config: Config): Identity {
	const workflow = context.getWorkflow();
	const own = ownership(context);
	return {
		...own,
		secret: secretFor(context, config, own),
		workflowId: String(workflow.id ?? ''),
		workflowName: workflow.name ?? '',
		test: context.getMode() === 'manual',
	};
}

// ---- trigger URLs ----------------------------------------------------------------------------------

function isOwn(url: unknown, own: Ownership): url is string {
	if (triggerSecret(url) === undefined) return false;
	const parsed = parseUrl(url)!;
	return (
		parsed.searchParams.get(INSTANCE_PARAMETER) === own.instance &&
		parsed.pathname.endsWith(own.key)
	);
}

function holderOf(url: unknown, id: Identity): Holder {
	if (url === null || url === undefined) return 'free';
	const parsed = parseUrl(url);
	if (parsed?.searchParams.get(SECRET_PARAMETER) === RELEASED_TOKEN) return 'free';
	if (triggerSecret(url) === undefined) return 'user';
	if (!isOwn(url, id)) return 'other';
	const query = parsed!.searchParams;
	const test = query.get(TEST_PARAMETER) === '1';
	const current =
		test === id.test &&
		query.get(SECRET_PARAMETER) === id.secret &&
		withoutSecret(url) === id.webhookUrl &&
		query.get(WORKFLOW_ID_PARAMETER) === id.workflowId &&
		query.get(WORKFLOW_NAME_PARAMETER) === id.workflowName;
	if (current) return 'current';
	return id.test && !test ? 'published' : 'leftover';
}

/** What the address held before this trigger's URL came (null: nothing). */
function previousOf(url: string): string | null {
	return parseUrl(url)?.searchParams.get(PREVIOUS_PARAMETER) ?? null;
}

const SWITCH_KEYS = SWITCHABLE_KINDS.map((kind) => kind.transEventKey as string);
const flag = (value: boolean | null | undefined) =>
	value === true ? '1' : value === false ? '0' : 'n';
const readFlag = (char: string) => (char === '1' ? true : char === '0' ? false : null);

function encodePrior({ transEvent, transEnable, noSenderList }: Prior): string {
	const kinds = transEvent ? SWITCH_KEYS.map((key) => flag(transEvent[key])).join('') : 'n';
	return `${kinds}-${flag(transEnable)}-${noSenderList ? 'n' : 'l'}`;
}

/** `prior` as encodePrior writes it: a flag per switch (or n), the enable flag, the sender list's presence. */
const PRIOR_PATTERN = new RegExp(`^(n|[01n]{${SWITCH_KEYS.length}})-([01n])-([nl])$`);

function decodePrior(text: string | null | undefined): Prior | undefined {
	const match = PRIOR_PATTERN.exec(text ?? '');
	if (!match) return undefined;
	const transEvent =
		match[1] === 'n'
			? null
			: Object.fromEntries(
					SWITCH_KEYS.map((key, index) => [key, readFlag(match[1][index]) === true]),
				);
	return { transEvent, transEnable: readFlag(match[2]), noSenderList: match[3] === 'n' };
}

function buildUrl(id: Identity, prior: Prior, previous: string | null): string {
	const url = new URL(id.webhookUrl);
	const query = url.searchParams;
	query.set(SECRET_PARAMETER, id.secret);
	query.set(INSTANCE_PARAMETER, id.instance);
	query.set(WORKFLOW_ID_PARAMETER, id.workflowId);
	query.set(WORKFLOW_NAME_PARAMETER, id.workflowName);
	if (id.test) query.set(TEST_PARAMETER, '1');
	query.set(PRIOR_PARAMETER, encodePrior(prior));
	if (previous !== null) query.set(PREVIOUS_PARAMETER, previous);
	return url.toString();
}

// ---- the platform's configuration ------------------------------------------------------------------

async function readConfig(context: IHookFunctions): Promise<Config> {
	return (await apiRequest.call(context, '/v5/webhook/get', {})) as Config;
}

function senderEntries(config: Config): SenderEntry[] {
	return Array.isArray(config.transCallbackUrlExtra) ? config.transCallbackUrlExtra : [];
}

/** Every address's URL, the default address first. */
function urlsOf(config: Config): Array<string | null | undefined> {
	return [config.transCallbackUrl, ...senderEntries(config).map((entry) => entry.url)];
}

const sameSender = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function urlAt(config: Config, address: Address): string | null {
	if (address.kind === 'default') return config.transCallbackUrl ?? null;
	return (
		senderEntries(config).find((entry) => sameSender(entry.sender, address.sender))?.url ?? null
	);
}

function addressesOf(settings: RegistrationSettings): Address[] {
	return settings.mode === 'default'
		? [{ kind: 'default' }]
		: settings.senders.map((sender) => ({ kind: 'sender', sender }));
}

function addressName(address: Address) {
	return address.kind === 'default'
		? "the account's default push address"
		: `the push address of sender ${address.sender}`;
}

function kindsOn(config: Config, events: string[]): boolean {
	const current = config.transEvent ?? {};
	return Object.entries(transEventFor(events)).every(([key, on]) => !on || current[key] === true);
}

/** The switches before the first trigger: from a URL of this trigger, else another's, else as they are. */
function priorOf(config: Config, own: Ownership): Prior {
	const triggers = urlsOf(config).filter((url) => triggerSecret(url) !== undefined) as string[];
	const ordered = [...triggers.filter((url) => isOwn(url, own)), ...triggers];
	for (const url of ordered) {
		const prior = decodePrior(parseUrl(url)!.searchParams.get(PRIOR_PARAMETER));
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
type Releasing = (url: string, address: Address) => string | undefined;

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
	const recordOf = (entry: SenderEntry) =>
		releasing(entry.url, { kind: 'sender', sender: entry.sender });
	if (entries.some(recordOf)) {
		const list = entries.flatMap((entry) => {
			const released = recordOf(entry);
			if (!released) return [entry];
			const previous = previousOf(released);
			return previous === null ? [] : [{ sender: entry.sender, url: previous }];
		});
		target.transCallbackUrlExtra = list.length === 0 && prior.noSenderList ? null : list;
	}
	return target;
}

/** The switches the last trigger leaves: what triggers switched on goes back to the prior state. */
function restoredSwitches(config: Config, prior: Prior): Config {
	const restore: Config = {};
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

const sameSwitches = (a: Config['transEvent'], b: Config['transEvent']) =>
	a === b || (!!a && !!b && SWITCH_KEYS.every((key) => a[key] === b[key]));

/**
 * The save that turns `config` into `target`: only what differs. Sender entries are saved in "save" mode
 * (changed and added entries) while every entry keeps its place, else the whole list in "replace" mode.
 */
function changes(config: Config, target: Config): IDataObject {
	const body: IDataObject = {};
	if ((target.transCallbackUrl ?? null) !== (config.transCallbackUrl ?? null))
		body.transCallbackUrl = target.transCallbackUrl ?? null;
	const before = config.transCallbackUrlExtra ?? null;
	const after = target.transCallbackUrlExtra ?? null;
	if (before !== after) {
		const old = before ?? [];
		if (after === null) {
			if (before !== null) body.transCallbackUrlExtra = null;
		} else if (old.every((entry, index) => after[index]?.sender === entry.sender)) {
			const changed = after.filter((entry, index) => old[index]?.url !== entry.url);
			if (changed.length > 0) {
				body.transCallbackUrlExtra = changed;
				body.transCallbackUrlExtraUpdateMode = 'save';
			}
		} else {
			body.transCallbackUrlExtra = after;
			body.transCallbackUrlExtraUpdateMode = 'replace';
		}
	}
	if (!sameSwitches(config.transEvent ?? null, target.transEvent ?? null))
		body.transEvent = target.transEvent ?? null;
	if ((target.transEnable ?? null) !== (config.transEnable ?? null))
		body.transEnable = target.transEnable ?? null;
	return body;
}

type Plan = { target: Config } | { taken: { address: Address; holder: string } };

/** What the configuration must become for this trigger, or the address another trigger holds. */
function registrationPlan(config: Config, id: Identity, settings: RegistrationSettings): Plan {
	for (const address of addressesOf(settings)) {
		const holder = urlAt(config, address);
		const kind = holderOf(holder, id);
		if (kind === 'other' || kind === 'published') return { taken: { address, holder: holder! } };
	}
	const prior = priorOf(config, id);
	const needed = (address: Address) =>
		address.kind === 'default'
			? settings.mode === 'default'
			: settings.mode === 'senders' &&
				settings.senders.some((sender) => sameSender(sender, address.sender));
	const ours = (url: string) => ['current', 'leftover'].includes(holderOf(url, id));
	// This trigger's URLs where it is no longer needed (settings changed, a test URL left behind) go.
	const target = putBack(
		config,
		(url, address) => (ours(url) && !needed(address) ? url : undefined),
		prior,
	);
	const urlReplacing = (holder: string | null) => {
		const kind = holderOf(holder, id);
		if (kind === 'current') return holder!;
		const previous = kind === 'user' ? holder : kind === 'leftover' ? previousOf(holder!) : null;
		return buildUrl(id, prior, previous);
	};
	if (settings.mode === 'default')
		target.transCallbackUrl = urlReplacing(urlAt(config, { kind: 'default' }));
	else {
		const list = senderEntries(target).map((entry) =>
			needed({ kind: 'sender', sender: entry.sender })
				? { sender: entry.sender, url: urlReplacing(entry.url) }
				: entry,
		);
		for (const sender of settings.senders)
			if (!list.some((entry) => sameSender(entry.sender, sender)))
				list.push({ sender, url: urlReplacing(null) });
		target.transCallbackUrlExtra = list;
	}
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
function releasePlan(config: Config, own: Ownership, releasing: Releasing): Config | undefined {
	const records = [
		config.transCallbackUrl && releasing(config.transCallbackUrl, { kind: 'default' }),
		...senderEntries(config).map((entry) =>
			releasing(entry.url, { kind: 'sender', sender: entry.sender }),
		),
	].filter((record): record is string => typeof record === 'string');
	if (records.length === 0) return undefined;
	const prior =
		decodePrior(parseUrl(records[0])?.searchParams.get(PRIOR_PARAMETER)) ?? priorOf(config, own);
	const target = putBack(config, releasing, prior);
	if (urlsOf(target).every((url) => triggerSecret(url) === undefined))
		Object.assign(target, restoredSwitches(config, prior));
	return target;
}

/**
 * Saves a change. "Nothing configured" is put back as null; only when the platform refuses that save as
 * invalid (code 400) is each null replaced by its nearest value: no kinds, no sender addresses, pushes
 * off, and at the default address this trigger's URL marked released. Any other failure (network, 401,
 * 500) is reported as it is and nothing else is changed.
 */
async function saveConfig(context: IHookFunctions, body: IDataObject, ownAddress: string) {
	try {
		await apiRequest.call(context, '/v5/webhook/save', body);
	} catch (error) {
		const refusedAsInvalid = error instanceof NodeApiError && error.httpCode === '400';
		if (!refusedAsInvalid || !Object.values(body).some((value) => value === null)) {
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
			Object.entries(body).map(([key, value]) => [key, value === null ? nearest[key] : value]),
		);
		await apiRequest.call(context, '/v5/webhook/save', fallback);
	}
}

/** Whether the platform holds a URL as this trigger saved it: the same address and the same record. */
function sameRecord(stored: string | null, intended: string | null): boolean {
	if (stored === intended) return true;
	const [a, b] = [parseUrl(stored), parseUrl(intended)];
	if (!a || !b || `${a.origin}${a.pathname}` !== `${b.origin}${b.pathname}`) return false;
	return RECORD_PARAMETERS.every((name) => a.searchParams.get(name) === b.searchParams.get(name));
}

async function release(
	context: IHookFunctions,
	config: Config,
	own: Ownership,
	releasing: Releasing,
) {
	const target = releasePlan(config, own, releasing);
	if (!target) return;
	const body = changes(config, target);
	if (Object.keys(body).length > 0) await saveConfig(context, body, own.webhookUrl);
}

// ---- refusals ----------------------------------------------------------------------------------------

/**
 * A refusal n8n does not retry (it retries every activation error but WebhookPathTakenError, five times
 * over 15 s), with this node's own words. n8n 2.x shows only an activation error's message, so the
 * remedies are in it.
 */
class RegistrationRefused extends WebhookPathTakenError {
	constructor(node: INode, message: string, description: string) {
		super(node.name);
		this.message = message;
		this.description = description;
	}
}

function takenError(
	context: IHookFunctions,
	id: Identity,
	{ address, holder }: { address: Address; holder: string },
): RegistrationRefused {
	const parsed = parseUrl(holder)!;
	const name = parsed.searchParams.get(WORKFLOW_NAME_PARAMETER);
	const elsewhere = parsed.searchParams.get(INSTANCE_PARAMETER) !== id.instance;
	const ownPublished = holderOf(holder, id) === 'published';
	const that = name ? `"${name}"` : 'that workflow';
	const who = ownPublished
		? "this workflow's published trigger"
		: `${holdingWorkflow(holder) ?? `another Mail Delivery Trigger (${withoutSecret(holder)})`}${elsewhere ? ` on another n8n (${parsed.origin})` : ''}`;
	const unpublish = `unpublish ${that}${elsewhere ? ' there' : ''}`;
	const remedies: string[] = [];
	if (id.test) {
		remedies.push(
			ownPublished
				? // Its unpublication may have failed to put the address back: a URL n8n cannot tell from a live one.
					'unpublish this workflow while you test (if it is not published, publish and unpublish it once to put back what its trigger replaced)'
				: `${unpublish} while you test`,
		);
		remedies.push(
			address.kind === 'default'
				? 'set Register For to Chosen Senders with a sender you use only for tests'
				: `use a sender you use only for tests instead of ${address.sender} in Sender Names or IDs`,
		);
		remedies.push('set Registration to Manual and post sample pushes to the test URL');
	} else {
		remedies.push(`${unpublish} first`);
		remedies.push(
			address.kind === 'default'
				? 'set Register For to Chosen Senders'
				: `remove ${address.sender} from Sender Names or IDs`,
		);
		remedies.push(`move what this workflow does into ${that}`);
		if (elsewhere)
			remedies.push(
				"if that n8n is gone, free the address with the Mail Delivery node's Webhook → Save (option Replace Anyway)",
			);
	}
	const remedy = remedies.join(', or ');
	const message = `${id.test ? 'Cannot listen for test events' : 'Cannot publish this workflow'}: ${addressName(address)} is used by ${who}. ${remedy[0].toUpperCase()}${remedy.slice(1)}.`;
	const description = id.test
		? 'The platform keeps one push address per account (and one per sender). Listening here would move the pushes away from that trigger, which would miss events until the test ends.'
		: 'The platform keeps one push address per account (and one per sender), so two workflows cannot both receive the same events. ' +
			"If the workflow holding the address no longer exists, save another address with the Mail Delivery node's Webhook → Save operation (option Replace Anyway), then publish again.";
	return new RegistrationRefused(context.getNode(), message, description);
}

/** The platform shortened or changed this trigger's URL: retrying cannot help (not retried by n8n). */
function notKeptError(
	context: IHookFunctions,
	address: Address,
	stored: string,
	intended: string,
): RegistrationRefused {
	const what = intended.startsWith(stored)
		? `kept only ${stored.length} of the ${intended.length} characters of its URL`
		: 'changed its URL';
	const test = context.getMode() === 'manual';
	return new RegistrationRefused(
		context.getNode(),
		`${test ? 'Cannot listen for test events' : 'Cannot publish this workflow'}: the platform ${what} at ${addressName(address)}, and that URL carries what this trigger puts back when it leaves. The address is as it was. Shorten the workflow's name or the URL that was at that address, and try again.`,
		'The trigger records in its URL what the address held before it (and the event switches before the first trigger), so that it can put them back exactly, even after n8n lost its own data. The platform does not document how long an address may be.',
	);
}

// ---- lifecycle -----------------------------------------------------------------------------------

/** checkExists: true when the configuration is already as this trigger needs it (nothing to save). */
/**
 * Settings no registration can serve, refused before any request (and without n8n's retries): Chosen
 * Senders Only with no sender would hold no address, so nothing would carry the record of the switches
 * it turned on, and deactivation could not put them back.
 */
function refuseUnusable(context: IHookFunctions, settings: RegistrationSettings) {
	if (settings.mode === 'senders' && settings.senders.length === 0)
		throw new RegistrationRefused(
			context.getNode(),
			'Cannot publish this workflow: Register For is Chosen Senders Only, but Sender Names or IDs is empty',
			'Choose at least one sender whose events come to this workflow, or set Register For to All Senders (Default Push URL).',
		);
}

export async function isRegistered(
	context: IHookFunctions,
	settings: RegistrationSettings,
): Promise<boolean> {
	refuseUnusable(context, settings);
	const config = await readConfig(context);
	const plan = registrationPlan(config, identity(context, config), settings);
	return 'target' in plan && Object.keys(changes(config, plan.target)).length === 0;
}

export async function register(
	context: IHookFunctions,
	settings: RegistrationSettings,
): Promise<void> {
	refuseUnusable(context, settings);
	// Test listening runs on static data of its own; its delete hook must know it (see unregister).
	if (context.getMode() === 'manual') staticData(context).listeningForTest = true;
	const config = await readConfig(context);
	const id = identity(context, config);
	const plan = registrationPlan(config, id, settings);
	if ('taken' in plan) throw takenError(context, id, plan.taken);
	const body = changes(config, plan.target);
	if (Object.keys(body).length > 0) await saveConfig(context, body, id.webhookUrl);

	// Another workflow or n8n may have saved between that read and this save: the last save wins.
	const after = await readConfig(context);
	for (const address of addressesOf(settings)) {
		const holder = urlAt(after, address);
		const intended = urlAt(plan.target, address);
		if (sameRecord(holder, intended)) continue;
		// Ours, but not as saved (a platform that shortens or rewrites addresses): what this trigger must
		// put back later is not on the platform. Put it back now, from the URLs it meant to save.
		const notKept = (url: string | null, at: Address) => {
			const meant = urlAt(plan.target, at);
			const ours = isOwn(url, id) || (!!url && !!meant && meant.startsWith(url));
			return ours && !sameRecord(url, meant) ? meant! : undefined;
		};
		if (notKept(holder, address)) {
			await release(context, after, id, notKept);
			throw notKeptError(context, address, holder!, intended!);
		}
		const kind = holderOf(holder, id);
		if (kind === 'other' || kind === 'published') {
			await release(context, after, id, (url) =>
				holderOf(url, id) === 'current' ? url : undefined,
			);
			throw takenError(context, id, { address, holder: holder! });
		}
		throw new NodeOperationError(
			context.getNode(),
			`The platform did not keep this workflow's URL at ${addressName(address)}`,
			{
				description: 'Someone changed the webhook configuration at the same time. n8n tries again.',
			},
		);
	}
	if (!kindsOn(after, settings.events) || after.transEnable !== true) {
		throw new NodeOperationError(
			context.getNode(),
			'The platform did not keep the event switches this workflow needs',
			{
				description: 'Someone changed the webhook configuration at the same time. n8n tries again.',
			},
		);
	}
}

/**
 * The delete hook: every address holding one of this trigger's URLs of this kind (production or test,
 * whatever host or secret it was saved with) gets back what it held before. At the end of test listening
 * a failure is only logged: n8n cannot handle a throw there. The URL left behind is this workflow's
 * own, taken back at its next test listen or publication.
 */
export async function unregister(context: IHookFunctions): Promise<void> {
	try {
		const own = ownership(context);
		const path = new URL(own.webhookUrl).pathname;
		const config = await readConfig(context);
		await release(context, config, own, (url) =>
			isOwn(url, own) && parseUrl(url)!.pathname === path ? url : undefined,
		);
	} catch (error) {
		if (staticData(context).listeningForTest !== true)
			throw error instanceof NodeApiError
				? error
				: new NodeApiError(context.getNode(), error as JsonObject);
		context.logger.warn(
			`Mail Delivery Trigger: the push address could not be put back at the end of test listening (${(error as Error).message}); this workflow takes it back at its next test listen or publication.`,
		);
	}
}
