/**
 * What a Mail Delivery Trigger's push address looks like, read and written by both nodes. The trigger
 * registers its URL with a secret starting with TOKEN_PREFIX, so that any workflow (another trigger, or
 * Webhook → Save) can tell an address held by a trigger from the user's own receiver. The URL also carries
 * the trigger's record: which n8n and workflow hold it, and what it replaced (see TriggerRecord).
 */
import { SWITCH_KEYS } from './eventKinds';

export const SECRET_PARAMETER = 'token';
export const TOKEN_PREFIX = 'mdt1';
/** Left at an address a platform would not let a trigger clear with null: marks it free, accepts no push. */
export const RELEASED_TOKEN = `${TOKEN_PREFIX}-released`;
/** What Webhook → Get shows in place of a trigger's secret. */
const MASK = '***';

const INSTANCE_PARAMETER = 'n8n';
const WORKFLOW_ID_PARAMETER = 'workflow';
const WORKFLOW_NAME_PARAMETER = 'name';
const TEST_PARAMETER = 'test';
const PRIOR_PARAMETER = 'prior';
const PREVIOUS_PARAMETER = 'prev';
const PROBE_KEY_PARAMETER = 'key';
const GIVES_WAY_PARAMETER = 'yield';
const RECORD_PARAMETERS = [
	PROBE_KEY_PARAMETER,
	GIVES_WAY_PARAMETER,
	INSTANCE_PARAMETER,
	WORKFLOW_ID_PARAMETER,
	WORKFLOW_NAME_PARAMETER,
	TEST_PARAMETER,
	PRIOR_PARAMETER,
	PREVIOUS_PARAMETER,
];

/** The account before the first trigger came: its switches, and whether it had no sender list at all. */
export interface Prior {
	transEvent: Record<string, boolean> | null;
	transEnable: boolean | null;
	noSenderList: boolean;
}

/** What a trigger's URL records beside its secret. */
interface TriggerRecord {
	/** The n8n installation that registered it (a hash of its instance id). */
	instance: string | null;
	workflowId: string | null;
	workflowName: string | null;
	/** A test listener's URL. */
	test: boolean;
	/** The key that opens the trigger's probe: only whoever reads the platform's configuration knows it. */
	probeKey: string | null;
	/** The switches before the first trigger came; undefined when the URL does not say. */
	prior: Prior | undefined;
	/** What the address held before this URL came; null: nothing. */
	previous: string | null;
	/** Another trigger may take the address (Options → Give Way to Others: the demo's example). */
	givesWay: boolean;
}

export function parseUrl(url: unknown): URL | undefined {
	if (typeof url !== 'string') return undefined;
	try {
		return new URL(url);
	} catch {
		return undefined;
	}
}

/** The secret of a Mail Delivery Trigger's URL, or undefined for any other URL. */
export function triggerSecret(url: unknown): string | undefined {
	const token = parseUrl(url)?.searchParams.get(SECRET_PARAMETER);
	return token && token.startsWith(TOKEN_PREFIX) && token !== RELEASED_TOKEN ? token : undefined;
}

/** Whether the URL is a trigger's URL marked released (see RELEASED_TOKEN). */
export function isReleasedMark(url: unknown): boolean {
	return parseUrl(url)?.searchParams.get(SECRET_PARAMETER) === RELEASED_TOKEN;
}

/** A URL as it may be shown: without its query, so no secret is ever printed. */
export function withoutSecret(url: string): string {
	const parsed = parseUrl(url);
	return parsed ? `${parsed.origin}${parsed.pathname}` : '(an address that cannot be read)';
}

/** Whether the URL is a trigger's URL as Webhook → Get shows it: its secret masked. */
export function isMasked(url: unknown): url is string {
	return parseUrl(url)?.searchParams.get(SECRET_PARAMETER) === MASK;
}

/** A trigger's URL with its secret replaced by a mask; any other URL as it is. */
export function maskSecret<T>(url: T): T | string {
	if (triggerSecret(url) === undefined) return url;
	const parsed = parseUrl(url)!;
	parsed.searchParams.set(SECRET_PARAMETER, MASK);
	return parsed.toString();
}

/** The workflow a trigger's URL names, in words: `workflow "Orders" (ID 12)`, or undefined. */
export function holdingWorkflow(url: unknown): string | undefined {
	const record = recordOf(url);
	if (!record?.workflowName) return undefined;
	return `workflow "${record.workflowName}"${record.workflowId ? ` (ID ${record.workflowId})` : ''}`;
}

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

/**
 * A trigger's URL: its webhook URL with the secret in the query, which every push carries, and the record
 * in the fragment (after "#"), which HTTP clients never send: it stays on the platform, out of every
 * request line and access log.
 */
export function triggerUrl(webhookUrl: string, secret: string, record: TriggerRecord): string {
	const url = new URL(webhookUrl);
	url.search = '';
	url.searchParams.set(SECRET_PARAMETER, secret);
	const fields = new URLSearchParams();
	fields.set(INSTANCE_PARAMETER, record.instance ?? '');
	fields.set(WORKFLOW_ID_PARAMETER, record.workflowId ?? '');
	fields.set(WORKFLOW_NAME_PARAMETER, record.workflowName ?? '');
	if (record.test) fields.set(TEST_PARAMETER, '1');
	if (record.givesWay) fields.set(GIVES_WAY_PARAMETER, '1');
	if (record.probeKey) fields.set(PROBE_KEY_PARAMETER, record.probeKey);
	if (record.prior) fields.set(PRIOR_PARAMETER, encodePrior(record.prior));
	if (record.previous !== null) fields.set(PREVIOUS_PARAMETER, record.previous);
	url.hash = fields.toString();
	return url.toString();
}

/** A trigger's URL with the switches its record keeps from before the first trigger replaced. */
export function withPrior(url: string, prior: Prior): string {
	const base = parseUrl(url)!;
	base.search = '';
	base.hash = '';
	return triggerUrl(base.toString(), triggerSecret(url)!, { ...recordOf(url)!, prior });
}

/**
 * The fields of a trigger URL's record: in its fragment, or in its query where a version before 0.2
 * registered it (those URLs are read as they are, and replaced at the trigger's next registration).
 */
function recordFields(url: URL): URLSearchParams {
	const fragment = new URLSearchParams(url.hash.slice(1));
	return fragment.has(INSTANCE_PARAMETER) ? fragment : url.searchParams;
}

/**
 * The record a trigger's URL carries, or undefined for any other URL; `inQuery` when an earlier version
 * wrote it in the query.
 */
export function recordOf(url: unknown): (TriggerRecord & { inQuery: boolean }) | undefined {
	if (triggerSecret(url) === undefined) return undefined;
	const parsed = parseUrl(url)!;
	const fields = recordFields(parsed);
	return {
		inQuery: fields === parsed.searchParams,
		instance: fields.get(INSTANCE_PARAMETER),
		workflowId: fields.get(WORKFLOW_ID_PARAMETER),
		workflowName: fields.get(WORKFLOW_NAME_PARAMETER),
		test: fields.get(TEST_PARAMETER) === '1',
		probeKey: fields.get(PROBE_KEY_PARAMETER),
		prior: decodePrior(fields.get(PRIOR_PARAMETER)),
		previous: fields.get(PREVIOUS_PARAMETER),
		givesWay: fields.get(GIVES_WAY_PARAMETER) === '1',
	};
}

/** Whether two URLs are the same trigger URL: the same address, secret and record. */
export function sameTriggerUrl(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	const [one, other] = [parseUrl(a), parseUrl(b)];
	if (!one || !other || `${one.origin}${one.pathname}` !== `${other.origin}${other.pathname}`)
		return false;
	if (triggerSecret(a) === undefined || triggerSecret(a) !== triggerSecret(b)) return false;
	const [first, second] = [recordFields(one), recordFields(other)];
	return RECORD_PARAMETERS.every((name) => first.get(name) === second.get(name));
}
