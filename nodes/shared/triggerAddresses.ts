/**
 * What a Mail Delivery Trigger's push address looks like. The trigger registers its URL with a secret
 * starting with TOKEN_PREFIX, so that any workflow (another trigger, or Webhook → Save) can tell an
 * address held by a trigger from the user's own receiver.
 */
export const SECRET_PARAMETER = 'token';
export const TOKEN_PREFIX = 'mdt1';
/** Left at an address a platform would not let a trigger clear with null: marks it free, accepts no push. */
export const RELEASED_TOKEN = `${TOKEN_PREFIX}-released`;

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
