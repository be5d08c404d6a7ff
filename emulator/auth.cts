/**
 * Authentication (platform API section 5): signature headers, the client-credentials token, the
 * authorization-code flow, and the store of tokens and codes they hand out. A reset is a new store.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

import { header, send, type Text } from './reply.cts';
import type { RequestRecord } from './types.cts';

export interface Account {
	apiKey: string;
	apiSecret: string;
	clientId: string;
	clientSecret: string;
	/** Redirect URIs registered for the OAuth client besides the emulator's own /oauth/callback. */
	redirectUris: string[];
}

export interface TokenEntry {
	/** `key:<apiKey>` for client credentials, `client:<clientId>` for an authorization code. */
	owner: string;
	/** null: never expires (authorization-code tokens). */
	expiresAt: number | null;
}

export interface AuthCodeEntry {
	clientId: string;
	expiresAt: number;
	used: boolean;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const TOKEN_LIFETIME_MS = 2 * 3600_000;
const RENEW_WINDOW_MS = 5 * 60_000;
const SIGNATURE_WINDOW_MS = 5 * 60_000;
const CODE_LIFETIME_MS = 5 * 60_000;

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

function sameText(a: string, b: string) {
	const x = Buffer.from(a);
	const y = Buffer.from(b);
	return x.length === y.length && timingSafeEqual(x, y);
}

const requestId = () => Math.random().toString(16).slice(2, 14);

export class Auth {
	readonly tokens = new Map<string, TokenEntry>();
	readonly authCodes = new Map<string, AuthCodeEntry>();
	/** Calls of the client-credentials token endpoint, answered or not. */
	tokenRequests = 0;

	constructor(
		private readonly account: Account,
		/** The emulated clock, read at each call (a reset makes a new one). */
		private readonly now: () => number,
		private readonly text: Text,
	) {}

	/** Which scheme a /v5 request uses, and why it fails when it does (an HTTP 401). */
	authenticate(req: http.IncomingMessage): {
		ok: boolean;
		scheme: RequestRecord['auth'];
		why: string;
	} {
		const token = header(req, 'oauth');
		if (token !== undefined) {
			const entry = this.tokens.get(token);
			if (!entry) return { ok: false, scheme: 'oauth', why: 'unknown access token' };
			if (entry.expiresAt !== null && entry.expiresAt <= this.now())
				return { ok: false, scheme: 'oauth', why: 'access token expired' };
			return { ok: true, scheme: 'oauth', why: '' };
		}
		const apiKey = header(req, 'apikey');
		if (apiKey === undefined)
			return { ok: false, scheme: 'none', why: 'no ApiKey or OAuth header' };
		const timestamp = header(req, 'timestamp') ?? '';
		const signature = header(req, 'authorization') ?? '';
		const version = header(req, 'signatureversion') ?? '1.0';
		if (apiKey !== this.account.apiKey)
			return { ok: false, scheme: 'signature', why: 'unknown ApiKey' };
		if (version !== '1.0')
			return { ok: false, scheme: 'signature', why: `unsupported SignatureVersion ${version}` };
		if (!TIMESTAMP.test(timestamp))
			return { ok: false, scheme: 'signature', why: 'Timestamp must be YYYY-MM-DDThh:mm:ssZ' };
		const age = this.now() - Date.parse(timestamp);
		if (Number.isNaN(age) || Math.abs(age) > SIGNATURE_WINDOW_MS)
			return {
				ok: false,
				scheme: 'signature',
				why: 'Timestamp is more than 5 minutes away from the platform clock',
			};
		const expected = sha1(sha1(this.account.apiSecret) + timestamp);
		if (!sameText(signature, expected))
			return { ok: false, scheme: 'signature', why: 'signature does not match' };
		return { ok: true, scheme: 'signature', why: '' };
	}

	/** GET /v5/auth/oauth/authorize: a client-credentials token (5.2), or a code by redirect (5.3). */
	authorize(url: URL, req: http.IncomingMessage, res: http.ServerResponse, ownRedirectUri: string) {
		const q = url.searchParams;
		if (q.get('grantType') === 'client_credentials') return this.clientCredentials(req, res);
		const clientId = q.get('client_id');
		const redirect = q.get('redirect_uri') ?? '';
		if (clientId !== this.account.clientId)
			return send(res, 400, {
				code: 400,
				message: this.text('client_id错误', 'unknown client_id'),
			});
		if (q.get('response_type') !== 'code')
			return send(res, 400, {
				code: 400,
				message: this.text('response_type错误', 'response_type must be code'),
			});
		if (q.get('scope') !== 'All')
			return send(res, 400, { code: 400, message: this.text('scope错误', 'scope must be All') });
		if (![ownRedirectUri, ...this.account.redirectUris].includes(redirect)) {
			return send(res, 400, {
				code: 400,
				message: this.text('redirect_uri未注册', 'redirect_uri is not registered for this client'),
			});
		}
		// Consent is given at once: the emulator has no user to ask.
		const target = new URL(redirect);
		target.searchParams.set('code', this.newAuthCode(clientId));
		res.writeHead(302, { Location: target.toString() });
		res.end();
	}

	private clientCredentials(req: http.IncomingMessage, res: http.ServerResponse) {
		this.tokenRequests++;
		const decoded = Buffer.from(header(req, 'authorization') ?? '', 'base64').toString('utf8');
		const separator = decoded.indexOf(':');
		const key = decoded.slice(0, separator);
		const secret = decoded.slice(separator + 1);
		if (separator < 0 || key !== this.account.apiKey || !sameText(secret, this.account.apiSecret)) {
			return send(res, 401, {
				code: 401,
				message: this.text('认证失败', 'API key or secret is wrong'),
				requestId: requestId(),
			});
		}
		const now = this.now();
		// The same token while valid; in its last 5 minutes a new one, both valid meanwhile.
		let current: [string, TokenEntry] | undefined;
		for (const entry of this.tokens) {
			if (
				entry[1].owner === `key:${key}` &&
				entry[1].expiresAt! > now &&
				(!current || entry[1].expiresAt! > current[1].expiresAt!)
			)
				current = entry;
		}
		const token =
			current && current[1].expiresAt! - now > RENEW_WINDOW_MS
				? current[0]
				: this.newToken(`key:${key}`, TOKEN_LIFETIME_MS);
		const expiresIn = Math.floor((this.tokens.get(token)!.expiresAt! - now) / 1000);
		return send(res, 200, {
			code: 200,
			message: null,
			requestId: requestId(),
			accessToken: token,
			expiresIn,
		});
	}

	/** GET /v5/auth/oauth/token: a code, valid 5 minutes and usable once, for a token that never expires. */
	token(url: URL, res: http.ServerResponse) {
		const q = url.searchParams;
		if (q.get('grant_type') !== 'authorization_code')
			return send(res, 400, {
				code: 400,
				message: this.text('grant_type错误', 'grant_type must be authorization_code'),
			});
		for (const name of ['client_id', 'client_secret', 'code']) {
			if (!q.get(name))
				return send(res, 400, {
					code: 400,
					message: this.text(`缺少${name}`, `${name} is required`),
				});
		}
		if (
			q.get('client_id') !== this.account.clientId ||
			!sameText(q.get('client_secret')!, this.account.clientSecret)
		) {
			return send(res, 401, {
				code: 401,
				message: this.text('客户端认证失败', 'client_id or client_secret is wrong'),
			});
		}
		const entry = this.authCodes.get(q.get('code')!);
		if (!entry || entry.clientId !== q.get('client_id'))
			return send(res, 400, {
				code: 400,
				message: this.text('授权码无效', 'unknown authorization code'),
			});
		if (entry.used)
			return send(res, 400, {
				code: 400,
				message: this.text('授权码已使用', 'authorization code already used'),
			});
		if (entry.expiresAt <= this.now())
			return send(res, 400, {
				code: 400,
				message: this.text('授权码已过期', 'authorization code expired'),
			});
		entry.used = true;
		const token = this.newToken(`client:${entry.clientId}`, null);
		return send(res, 200, { code: 200, message: null, accessToken: token, expiresIn: -1 });
	}

	private newToken(owner: string, lifetimeMs: number | null): string {
		const token = randomBytes(32).toString('hex');
		this.tokens.set(token, {
			owner,
			expiresAt: lifetimeMs === null ? null : this.now() + lifetimeMs,
		});
		return token;
	}

	private newAuthCode(clientId: string): string {
		const code = randomBytes(12).toString('hex');
		this.authCodes.set(code, { clientId, expiresAt: this.now() + CODE_LIFETIME_MS, used: false });
		return code;
	}
}

/** The page the emulator's own redirect URI shows: the code to paste into the credential. */
export function callbackPage(url: URL, res: http.ServerResponse) {
	const code = (url.searchParams.get('code') ?? '').replace(/[^a-f0-9]/g, '');
	res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
	res.end(
		`<!doctype html><title>Authorization code</title><h1>Authorization code</h1><p>Paste this code into the credential's Authorization Code field within 5 minutes:</p><pre id="code">${code}</pre>`,
	);
}
