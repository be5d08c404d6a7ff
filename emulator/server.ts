/**
 * The emulator's HTTP server: /v5 business operations with authentication (section 5), the OAuth
 * endpoints, and a control interface under /__control for tests and the demo.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { PushDispatcher } from './events';
import { ApiFailure, Platform, type Fault } from './platform';
import { checkSchema, SCHEMAS } from './schema';

export interface EmulatorOptions {
	port?: number;
	host?: string;
	/** Seed the demo account (senders, a template, a list with two contacts). Default true. */
	seed?: boolean;
	/** Messages in Chinese as the platform sends them (default) or in English. */
	messages?: 'zh' | 'en';
	/** Business errors: HTTP 200 with the code in the body (default), or the HTTP status mirroring it. */
	errorHttpStatus?: 'ok' | 'mirror';
	timeZoneOffsetMinutes?: number;
	requireCcBcc?: boolean;
	apiKey?: string;
	apiSecret?: string;
	clientId?: string;
	clientSecret?: string;
	/** Redirect URIs registered for the OAuth client; the emulator's own /oauth/callback always is. */
	redirectUris?: string[];
	/** Keep request bodies in the request log (default true); a memory benchmark turns it off. */
	recordBodies?: boolean;
}

/** A distant, rate-limited platform, all off by default. */
export interface NetworkSettings {
	/** Added to every /v5 answer, plus up to latencyJitterMs at random. */
	latencyMs: number;
	latencyJitterMs: number;
	/** Requests per second answered; more get HTTP 429 with Retry-After (0: no limit). */
	rateLimitPerSecond: number;
	/** Every Nth /v5 request is answered HTTP 503 with Retry-After: 1, unprocessed (0: never). */
	unavailableEvery: number;
}

export interface RequestRecord {
	path: string;
	auth: 'signature' | 'oauth' | 'none';
	code: number;
	body: unknown;
	at: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const TOKEN_LIFETIME_MS = 2 * 3600_000;
const RENEW_WINDOW_MS = 5 * 60_000;
const SIGNATURE_WINDOW_MS = 5 * 60_000;

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

function sameText(a: string, b: string) {
	const x = Buffer.from(a);
	const y = Buffer.from(b);
	return x.length === y.length && timingSafeEqual(x, y);
}

export class Emulator {
	readonly platform: Platform;
	readonly pushes: PushDispatcher;
	requests: RequestRecord[] = [];
	/** Calls of the client-credentials token endpoint, answered or not. */
	tokenRequests = 0;
	settings: Required<Pick<EmulatorOptions, 'messages' | 'errorHttpStatus'>>;
	network: NetworkSettings = { latencyMs: 0, latencyJitterMs: 0, rateLimitPerSecond: 0, unavailableEvery: 0 };
	/** Answers refused by the network settings: 429 (rate limit) and 503 (unavailable). */
	throttled = { 429: 0, 503: 0 };
	private recentRequests: number[] = [];
	private v5Requests = 0;
	readonly account: { apiKey: string; apiSecret: string; clientId: string; clientSecret: string; redirectUris: string[] };
	private server?: http.Server;
	private timer?: NodeJS.Timeout;
	url = '';

	constructor(private readonly options: EmulatorOptions = {}) {
		this.settings = { messages: options.messages ?? 'zh', errorHttpStatus: options.errorHttpStatus ?? 'ok' };
		this.account = {
			apiKey: options.apiKey ?? 'demo-api-key',
			apiSecret: options.apiSecret ?? 'demo-api-secret',
			clientId: options.clientId ?? 'demo-client-id',
			clientSecret: options.clientSecret ?? 'demo-client-secret',
			redirectUris: options.redirectUris ?? [],
		};
		this.pushes = new PushDispatcher(() => this.platform.webhook);
		this.platform = this.newPlatform();
	}

	private newPlatform() {
		const platform = new Platform(
			{ timeZoneOffsetMinutes: this.options.timeZoneOffsetMinutes ?? 0, requireCcBcc: this.options.requireCcBcc ?? false },
			(event, sender) => this.pushes.enqueue(event, sender),
		);
		if (this.options.seed !== false) platform.seed();
		return platform;
	}

	/** Back to the seeded state: new platform data, no pushes, no request log, clock at real time. */
	reset() {
		(this as { platform: Platform }).platform = this.newPlatform();
		this.pushes.reset();
		this.requests = [];
		this.tokenRequests = 0;
		this.network = { latencyMs: 0, latencyJitterMs: 0, rateLimitPerSecond: 0, unavailableEvery: 0 };
		this.throttled = { 429: 0, 503: 0 };
		this.recentRequests = [];
		this.v5Requests = 0;
	}

	/** Plays distance and limits: waits the latency, then may refuse the request unprocessed. */
	private async throttle(res: http.ServerResponse): Promise<boolean> {
		const { latencyMs, latencyJitterMs, rateLimitPerSecond, unavailableEvery } = this.network;
		const delay = latencyMs + Math.random() * latencyJitterMs;
		if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
		this.v5Requests++;
		if (unavailableEvery > 0 && this.v5Requests % unavailableEvery === 0) {
			this.throttled[503]++;
			send(res, 503, { code: 503, message: this.text('服务暂不可用', 'service unavailable, try later') }, { 'Retry-After': '1' });
			return true;
		}
		if (rateLimitPerSecond > 0) {
			const now = Date.now();
			this.recentRequests = this.recentRequests.filter((at) => at > now - 1000);
			if (this.recentRequests.length >= rateLimitPerSecond) {
				this.throttled[429]++;
				const retryAfter = Math.max(1, Math.ceil((this.recentRequests[0] + 1000 - now) / 1000));
				send(res, 429, { code: 429, message: this.text('请求过于频繁', 'too many requests') }, { 'Retry-After': String(retryAfter) });
				return true;
			}
			this.recentRequests.push(now);
		}
		return false;
	}

	get redirectUri() {
		return `${this.url}/oauth/callback`;
	}

	async start(): Promise<string> {
		this.server = http.createServer((req, res) => void this.route(req, res));
		this.server.keepAliveTimeout = 5000;
		await new Promise<void>((resolve) => this.server!.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', resolve));
		const { port } = this.server.address() as AddressInfo;
		this.url = `http://${this.options.host ?? '127.0.0.1'}:${port}`;
		// Scheduled sends become due by the emulated clock without anyone asking.
		this.timer = setInterval(() => this.platform.processDue(), 250);
		this.timer.unref();
		return this.url;
	}

	async stop() {
		if (this.timer) clearInterval(this.timer);
		await this.pushes.flush();
		await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
		this.server?.closeAllConnections?.();
	}

	private async route(req: http.IncomingMessage, res: http.ServerResponse) {
		try {
			const url = new URL(req.url ?? '/', 'http://emulator');
			const raw = await readBody(req);
			if (url.pathname.startsWith('/__control/')) return await this.control(url, raw, req.method ?? 'GET', res);
			if (url.pathname === '/oauth/callback') return this.callbackPage(url, res);
			if (url.pathname === '/v5/auth/oauth/authorize' && req.method === 'GET') return this.authorize(url, req, res);
			if (url.pathname === '/v5/auth/oauth/token' && req.method === 'GET') return this.token(url, res);
			if (url.pathname.startsWith('/v5/') && (await this.throttle(res))) return;
			if (this.platform.takeFault(url.pathname, 'network')) {
				req.socket.destroy();
				return;
			}
			const schema = SCHEMAS[url.pathname];
			if (!schema) return send(res, 404, { code: 404, message: this.text('接口不存在', `no operation at ${url.pathname}`) });
			if (req.method !== 'POST') return send(res, 405, { code: 405, message: this.text('请求方法错误', 'business operations are POST') });
			const auth = this.authenticate(req);
			if (!auth.ok) return this.answer(res, url.pathname, auth.scheme, raw, { code: 401, message: this.text('认证失败', auth.why) }, 401);
			let body: unknown;
			try {
				body = raw.length === 0 ? {} : JSON.parse(raw);
			} catch {
				return this.answer(res, url.pathname, auth.scheme, raw, { code: 400, message: this.text('请求体不是JSON', 'the body is not JSON') });
			}
			if (!body || typeof body !== 'object' || Array.isArray(body)) {
				return this.answer(res, url.pathname, auth.scheme, body, { code: 400, message: this.text('请求体必须是对象', 'the body must be a JSON object') });
			}
			const problem = checkSchema(schema, body as Record<string, unknown>);
			if (problem) return this.answer(res, url.pathname, auth.scheme, body, { code: 400, message: this.text(...problem) });
			const sandbox = schema.sandbox && (body as Record<string, unknown>).sandboxMode === true;
			try {
				const answer = this.platform.handle(url.pathname, body as Record<string, unknown>, sandbox);
				if (this.platform.takeFault(url.pathname, 'internalError')) {
					return this.answer(res, url.pathname, auth.scheme, body, { code: 500, message: this.text('系统内部错误', 'internal error after processing') }, 500);
				}
				return this.answer(res, url.pathname, auth.scheme, body, answer);
			} catch (error) {
				if (!(error instanceof ApiFailure)) throw error;
				return this.answer(res, url.pathname, auth.scheme, body, { code: error.code, message: this.text(error.zh, error.en) });
			}
		} catch (error) {
			send(res, 500, { code: 500, message: (error as Error).message });
		}
	}

	private text(zh: string, en: string) {
		return this.settings.messages === 'zh' ? zh : en;
	}

	private answer(res: http.ServerResponse, path: string, auth: RequestRecord['auth'], body: unknown, answer: { code: number; message: string }, httpStatus?: number) {
		this.requests.push({ path, auth, code: answer.code, body: this.options.recordBodies === false ? undefined : body, at: new Date(this.platform.now()).toISOString() });
		const status = httpStatus ?? (this.settings.errorHttpStatus === 'mirror' ? answer.code : 200);
		send(res, status, answer);
	}

	private authenticate(req: http.IncomingMessage): { ok: boolean; scheme: RequestRecord['auth']; why: string } {
		const token = header(req, 'oauth');
		if (token !== undefined) {
			const entry = this.platform.tokens.get(token);
			if (!entry) return { ok: false, scheme: 'oauth', why: 'unknown access token' };
			if (entry.expiresAt !== null && entry.expiresAt <= this.platform.now()) return { ok: false, scheme: 'oauth', why: 'access token expired' };
			return { ok: true, scheme: 'oauth', why: '' };
		}
		const apiKey = header(req, 'apikey');
		if (apiKey === undefined) return { ok: false, scheme: 'none', why: 'no ApiKey or OAuth header' };
		const timestamp = header(req, 'timestamp') ?? '';
		const signature = header(req, 'authorization') ?? '';
		const version = header(req, 'signatureversion') ?? '1.0';
		if (apiKey !== this.account.apiKey) return { ok: false, scheme: 'signature', why: 'unknown ApiKey' };
		if (version !== '1.0') return { ok: false, scheme: 'signature', why: `unsupported SignatureVersion ${version}` };
		if (!TIMESTAMP.test(timestamp)) return { ok: false, scheme: 'signature', why: 'Timestamp must be YYYY-MM-DDThh:mm:ssZ' };
		const age = this.platform.now() - Date.parse(timestamp);
		if (Number.isNaN(age) || Math.abs(age) > SIGNATURE_WINDOW_MS) return { ok: false, scheme: 'signature', why: 'Timestamp is more than 5 minutes away from the platform clock' };
		const expected = sha1(sha1(this.account.apiSecret) + timestamp);
		if (!sameText(signature, expected)) return { ok: false, scheme: 'signature', why: 'signature does not match' };
		return { ok: true, scheme: 'signature', why: '' };
	}

	private authorize(url: URL, req: http.IncomingMessage, res: http.ServerResponse) {
		const q = url.searchParams;
		if (q.get('grantType') === 'client_credentials') {
			this.tokenRequests++;
			const decoded = Buffer.from(header(req, 'authorization') ?? '', 'base64').toString('utf8');
			const separator = decoded.indexOf(':');
			const key = decoded.slice(0, separator);
			const secret = decoded.slice(separator + 1);
			if (separator < 0 || key !== this.account.apiKey || !sameText(secret, this.account.apiSecret)) {
				return send(res, 401, { code: 401, message: this.text('认证失败', 'API key or secret is wrong'), requestId: requestId() });
			}
			const now = this.platform.now();
			// The same token while valid; in its last 5 minutes a new one, both valid meanwhile.
			let current: [string, { owner: string; expiresAt: number | null }] | undefined;
			for (const entry of this.platform.tokens) {
				if (entry[1].owner === `key:${key}` && entry[1].expiresAt! > now && (!current || entry[1].expiresAt! > current[1].expiresAt!)) current = entry;
			}
			const token = current && current[1].expiresAt! - now > RENEW_WINDOW_MS ? current[0] : this.platform.newToken(`key:${key}`, TOKEN_LIFETIME_MS);
			const expiresIn = Math.floor((this.platform.tokens.get(token)!.expiresAt! - now) / 1000);
			return send(res, 200, { code: 200, message: null, requestId: requestId(), accessToken: token, expiresIn });
		}
		const clientId = q.get('client_id');
		const redirect = q.get('redirect_uri') ?? '';
		if (clientId !== this.account.clientId) return send(res, 400, { code: 400, message: this.text('client_id错误', 'unknown client_id') });
		if (q.get('response_type') !== 'code') return send(res, 400, { code: 400, message: this.text('response_type错误', 'response_type must be code') });
		if (q.get('scope') !== 'All') return send(res, 400, { code: 400, message: this.text('scope错误', 'scope must be All') });
		if (![this.redirectUri, ...this.account.redirectUris].includes(redirect)) {
			return send(res, 400, { code: 400, message: this.text('redirect_uri未注册', 'redirect_uri is not registered for this client') });
		}
		// Consent is given at once: the emulator has no user to ask.
		const target = new URL(redirect);
		target.searchParams.set('code', this.platform.newAuthCode(clientId));
		res.writeHead(302, { Location: target.toString() });
		res.end();
	}

	private token(url: URL, res: http.ServerResponse) {
		const q = url.searchParams;
		if (q.get('grant_type') !== 'authorization_code') return send(res, 400, { code: 400, message: this.text('grant_type错误', 'grant_type must be authorization_code') });
		for (const name of ['client_id', 'client_secret', 'code']) {
			if (!q.get(name)) return send(res, 400, { code: 400, message: this.text(`缺少${name}`, `${name} is required`) });
		}
		if (q.get('client_id') !== this.account.clientId || !sameText(q.get('client_secret')!, this.account.clientSecret)) {
			return send(res, 401, { code: 401, message: this.text('客户端认证失败', 'client_id or client_secret is wrong') });
		}
		const entry = this.platform.authCodes.get(q.get('code')!);
		if (!entry || entry.clientId !== q.get('client_id')) return send(res, 400, { code: 400, message: this.text('授权码无效', 'unknown authorization code') });
		if (entry.used) return send(res, 400, { code: 400, message: this.text('授权码已使用', 'authorization code already used') });
		if (entry.expiresAt <= this.platform.now()) return send(res, 400, { code: 400, message: this.text('授权码已过期', 'authorization code expired') });
		entry.used = true;
		const token = this.platform.newToken(`client:${entry.clientId}`, null);
		return send(res, 200, { code: 200, message: null, accessToken: token, expiresIn: -1 });
	}

	private callbackPage(url: URL, res: http.ServerResponse) {
		const code = (url.searchParams.get('code') ?? '').replace(/[^a-f0-9]/g, '');
		res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
		res.end(`<!doctype html><title>Authorization code</title><h1>Authorization code</h1><p>Paste this code into the credential's Authorization Code field within 5 minutes:</p><pre id="code">${code}</pre>`);
	}

	/** Control interface: everything a test or the demo needs to drive the emulator. */
	private async control(url: URL, raw: string, method: string, res: http.ServerResponse) {
		const input = raw ? (JSON.parse(raw) as Record<string, any>) : {};
		const p = this.platform;
		switch (`${method} ${url.pathname}`) {
			case 'POST /__control/reset':
				this.reset();
				return send(res, 200, { ok: true });
			case 'GET /__control/state':
				return send(res, 200, this.snapshot());
			case 'GET /__control/account':
				return send(res, 200, { ...this.account, redirectUri: this.redirectUri, baseUrl: this.url });
			case 'POST /__control/clock':
				if (typeof input.advanceSeconds === 'number') p.clockOffsetMs += input.advanceSeconds * 1000;
				if (typeof input.set === 'string') p.clockOffsetMs = Date.parse(input.set) - Date.now();
				p.processDue();
				return send(res, 200, { now: new Date(p.now()).toISOString() });
			case 'POST /__control/events':
				try {
					return send(res, 200, p.causeEvent(String(input.kind), String(input.email), input.extra ?? {}));
				} catch (error) {
					return send(res, 400, { error: (error as Error).message });
				}
			case 'POST /__control/flush':
				p.processDue();
				const before = this.pushes.pushes.length;
				await this.pushes.flush();
				return send(res, 200, { pushes: this.pushes.pushes.slice(before).map(({ body: _body, ...rest }) => rest) });
			case 'GET /__control/pushes':
				return send(res, 200, {
					pushes: this.pushes.pushes.map(({ body, ...rest }) => (url.searchParams.get('bodies') === '1' ? { ...rest, body } : rest)),
					discarded: this.pushes.discarded,
					pending: this.pushes.pending,
				});
			case 'GET /__control/requests':
				return send(res, 200, { requests: this.requests, throttled: this.throttled });
			case 'GET /__control/mails':
				return send(res, 200, { mails: p.mails });
			case 'POST /__control/settings':
				if (input.autoPush !== undefined) this.pushes.autoPush = Boolean(input.autoPush);
				if (input.pushRetries !== undefined) this.pushes.retries = Number(input.pushRetries);
				if (input.retryDelayMs !== undefined) this.pushes.retryDelayMs = Number(input.retryDelayMs);
				if (input.messages !== undefined) this.settings.messages = input.messages;
				if (input.errorHttpStatus !== undefined) this.settings.errorHttpStatus = input.errorHttpStatus;
				if (input.credits !== undefined) p.credits = Number(input.credits);
				if (input.pageSizeCap !== undefined) p.pageSizeCap = Number(input.pageSizeCap);
				for (const key of Object.keys(this.network) as Array<keyof NetworkSettings>) {
					if (input[key] !== undefined) this.network[key] = Number(input[key]);
				}
				if (input.webhookNull !== undefined) p.webhookNull = input.webhookNull === 'refuse' ? 'refuse' : 'accept';
				return send(res, 200, { ok: true });
			case 'POST /__control/fault':
				p.faults.push({ path: String(input.path), fault: input.fault as Fault });
				return send(res, 200, { ok: true });
			case 'POST /__control/dns':
				p.dns.set(String(input.domain), { mx: !!input.mx, spf: !!input.spf, dmarc: !!input.dmarc, dkimSelectors: input.dkimSelectors ?? [] });
				return send(res, 200, { ok: true });
			default:
				return send(res, 404, { error: `no control operation ${method} ${url.pathname}` });
		}
	}

	snapshot() {
		const p = this.platform;
		return {
			now: new Date(p.now()).toISOString(),
			credits: p.credits,
			senders: [...p.senders.values()],
			templates: [...p.templates.values()],
			contacts: [...p.contacts.values()].map((c) => ({ ...c, lists: [...c.lists] })),
			lists: [...p.lists.values()],
			tasks: [...p.tasks.values()],
			webhook: p.webhook,
			events: p.events.length,
			tokenRequests: this.tokenRequests,
			unsubscribed: [...p.unsubscribed],
		};
	}
}

function header(req: http.IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

function requestId() {
	return Math.random().toString(16).slice(2, 14);
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
	const text = JSON.stringify(body);
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
	res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
	const emulator = new Emulator(options);
	await emulator.start();
	return emulator;
}
