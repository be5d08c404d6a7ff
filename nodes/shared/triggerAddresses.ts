/**
 * What a Mail Delivery Trigger's push address looks like. The trigger registers its URL with a secret
 * starting with TOKEN_PREFIX, so that any workflow (another trigger, or Webhook → Save) can tell an
 * address held by a trigger from the user's own receiver. The URL also names the workflow that holds it,
 * so that a refusal can name it.
 */
export const SECRET_PARAMETER = 'token';
export const TOKEN_PREFIX = 'mdt1';
/** Left at an address a platform would not let a trigger clear with null: marks it free, accepts no push. */
export const RELEASED_TOKEN = `${TOKEN_PREFIX}-released`;
/** The query parameters naming the workflow that holds a trigger's URL. */
export const WORKFLOW_ID_PARAMETER = 'workflow';
export const WORKFLOW_NAME_PARAMETER = 'name';
/** What Webhook → Get shows in place of a trigger's secret. */
const MASK = '***';

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

/** A URL as it may be shown: without its query, so no secret is ever printed. */
export function withoutSecret(url: string): string {
	const parsed = parseUrl(url);
	return parsed ? `${parsed.origin}${parsed.pathname}` : '(an address that cannot be read)';
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
	const parsed = parseUrl(url);
	const name = parsed?.searchParams.get(WORKFLOW_NAME_PARAMETER);
	if (!parsed || !name) return undefined;
	const id = parsed.searchParams.get(WORKFLOW_ID_PARAMETER);
	return `workflow "${name}"${id ? ` (ID ${id})` : ''}`;
}
