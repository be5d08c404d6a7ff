/**
 * The emulator's HTTP server: routes /v5 business operations through authentication (auth.cts), the
 * network's behaviour (network.cts), schema checks and the operation handlers (operations/); the OAuth
 * endpoints; and the control interface under /__control (control.cts) for tests and the demo.
 */
import { rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { Auth, callbackPage, type Account, type AuthCodeEntry, type TokenEntry } from './auth.cts';
import { control, type AnswerSettings, type Controlled } from './control.cts';
import { Delivery } from './delivery.cts';
import { type Certificate, makeCertificate, startDistantProxy } from './distance.cts';
import { homeView } from './homeView.cts';
import { mailEvent, mailView } from './mailView.cts';
import { Network } from './network.cts';
import { OPERATIONS } from './operations/index.cts';
import { PushDispatcher } from './pushes.cts';
import { readBody, send } from './reply.cts';
import { checkSchema } from './schema.cts';
import { newState, stateSnapshot, type State, type StateSnapshot } from './state.cts';
import {
	ApiFailure,
	type EmulatorEvent,
	type Fault,
	type MailRecord,
	type RequestRecord,
} from './types.cts';

export type { NetworkSettings } from './network.cts';
export type { RequestRecord } from './types.cts';

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
	/**
	 * Serve the platform over HTTPS with a certificate made at start (`certificateFile`: what a client must
	 * trust), behind a proxy that plays `distanceMs` (distance.cts). The address `url` is then HTTPS on `port`;
	 * the control interface and the mail log stay plain HTTP on `controlUrl` (`controlPort`, any by default).
	 * Off by default.
	 */
	https?: boolean;
	/** With `https`, the round trip to the platform in ms (changed later by the control interface's distanceMs). */
	distanceMs?: number;
	controlPort?: number;
}

/** A copy of everything a test may check, detached from the emulator (changing it changes nothing). */
export interface EmulatorView {
	/** What GET /__control/state answers. */
	state: StateSnapshot;
	/** What GET /__control/mails answers: every message a transactional send accepted. */
	mails: MailRecord[];
	/** What GET /__control/requests answers: every /v5 request with its scheme, body and code. */
	requests: RequestRecord[];
	/** Every event produced, in order, with the fields a push carries. */
	events: EmulatorEvent[];
	/** Tokens handed out by the OAuth flows (without the token text). */
	tokens: TokenEntry[];
	/** Authorization codes handed out (without the code text). */
	authCodes: AuthCodeEntry[];
	/** The most /v5 requests that were under way at once (received, not yet answered). */
	peakRequestsUnderWay: number;
	/** Each /v5 request as it arrived: when, and how many were then under way, itself included. */
	arrivals: Array<{ at: number; underWay: number }>;
}

/** The parts a reset replaces: the account's data, its simulation, its tokens and the network's state. */
interface Parts {
	state: State;
	delivery: Delivery;
	auth: Auth;
	network: Network;
}

export class Emulator implements Controlled {
	readonly pushes: PushDispatcher;
	readonly settings: AnswerSettings;
	readonly account: Account;
	private log: RequestRecord[] = [];
	private parts: Parts;
	private server?: http.Server;
	private tlsServer?: https.Server;
	private proxy?: { close: () => Promise<void> };
	private timer?: NodeJS.Timeout;
	/** The platform's address: what a credential's Base URL holds. */
	url = '';
	/** The control interface's and mail log's address: `url`, or with HTTPS a plain HTTP one of its own. */
	controlUrl = '';
	/** With HTTPS, the certificate's file, which a client must trust (NODE_EXTRA_CA_CERTS for n8n). */
	certificateFile?: string;

	constructor(private readonly options: EmulatorOptions = {}) {
		this.settings = {
			messages: options.messages ?? 'zh',
			errorHttpStatus: options.errorHttpStatus ?? 'ok',
		};
		this.account = {
			apiKey: options.apiKey ?? 'demo-api-key',
			apiSecret: options.apiSecret ?? 'demo-api-secret',
			clientId: options.clientId ?? 'demo-client-id',
			clientSecret: options.clientSecret ?? 'demo-client-secret',
			redirectUris: options.redirectUris ?? [],
		};
		this.pushes = new PushDispatcher(() => this.state.webhook);
		this.parts = this.newParts();
	}

	get state() {
		return this.parts.state;
	}

	get delivery() {
		return this.parts.delivery;
	}

	get auth() {
		return this.parts.auth;
	}

	get network() {
		return this.parts.network;
	}

	/** Every /v5 request answered since the last reset. */
	get requests(): readonly RequestRecord[] {
		return this.log;
	}

	get redirectUri() {
		return `${this.url}/oauth/callback`;
	}

	/** The emulated clock, in ms (moved by POST /__control/clock). */
	now(): number {
		return this.state.now();
	}

	private newParts(): Parts {
		const state = newState(
			{
				timeZoneOffsetMinutes: this.options.timeZoneOffsetMinutes ?? 0,
				requireCcBcc: this.options.requireCcBcc ?? false,
			},
			this.options.seed !== false,
		);
		const text = this.text.bind(this);
		return {
			state,
			delivery: new Delivery(state, (event, sender) => this.pushes.enqueue(event, sender)),
			auth: new Auth(this.account, () => state.now(), text),
			network: new Network(text, this.options.distanceMs ?? 0),
		};
	}

	/** Back to the seeded state: new platform data, no tokens, no pushes, no request log, clock at real time, network settings off. */
	reset() {
		for (const socket of this.network.held) socket.destroy();
		this.parts = this.newParts();
		this.pushes.reset();
		this.log = [];
	}

	/** What GET /__control/state answers. */
	snapshot(): StateSnapshot {
		return stateSnapshot(this.state, this.auth.tokenRequests);
	}

	/** A detached copy of the state, mails, requests, events, tokens and codes: tests read the emulator through it. */
	inspect(): EmulatorView {
		const visible = (event: EmulatorEvent) =>
			Object.fromEntries(Object.entries(event).filter(([key]) => !key.startsWith('__')));
		return structuredClone({
			state: this.snapshot(),
			mails: this.state.mails,
			requests: this.log,
			events: this.state.events.map(visible),
			tokens: [...this.auth.tokens.values()],
			authCodes: [...this.auth.authCodes.values()],
			peakRequestsUnderWay: this.network.peakUnderWay,
			arrivals: this.network.arrivals,
		});
	}

	async start(): Promise<string> {
		const host = this.options.host ?? '127.0.0.1';
		const handler = (req: http.IncomingMessage, res: http.ServerResponse) =>
			void this.route(req, res);
		this.server = http.createServer(handler);
		this.server.keepAliveTimeout = 5000;
		const plainPort = this.options.https
			? (this.options.controlPort ?? 0)
			: (this.options.port ?? 0);
		await new Promise<void>((resolve) => this.server!.listen(plainPort, host, resolve));
		this.controlUrl = `http://${host}:${(this.server.address() as AddressInfo).port}`;
		this.url = this.controlUrl;
		if (this.options.https) await this.startDistant(host, makeCertificate(), handler);
		// Scheduled sends become due by the emulated clock without anyone asking.
		this.timer = setInterval(() => this.delivery.processDue(), 250);
		this.timer.unref();
		return this.url;
	}

	/** The platform over HTTPS, behind the proxy that plays its distance, on the port asked for. */
	private async startDistant(
		host: string,
		certificate: Certificate,
		handler: http.RequestListener,
	) {
		this.certificateFile = certificate.file;
		this.tlsServer = https.createServer({ key: certificate.key, cert: certificate.cert }, handler);
		this.tlsServer.keepAliveTimeout = 5000;
		await new Promise<void>((resolve) => this.tlsServer!.listen(0, host, resolve));
		const tlsPort = (this.tlsServer.address() as AddressInfo).port;
		const proxy = await startDistantProxy(
			host,
			this.options.port ?? 0,
			() => tlsPort,
			() => this.network.settings.distanceMs,
			() => this.network,
		);
		this.proxy = proxy;
		this.url = `https://${host}:${proxy.port}`;
	}

	async stop() {
		if (this.timer) clearInterval(this.timer);
		await this.proxy?.close();
		this.tlsServer?.closeAllConnections();
		this.tlsServer?.close();
		// The certificate was made for this start only.
		if (this.certificateFile)
			rmSync(path.dirname(this.certificateFile), { recursive: true, force: true });
		for (const socket of this.network.held) socket.destroy();
		await this.pushes.flush();
		await new Promise<void>((resolve) =>
			this.server ? this.server.close(() => resolve()) : resolve(),
		);
		this.server?.closeAllConnections?.();
	}

	private async route(req: http.IncomingMessage, res: http.ServerResponse) {
		try {
			const url = new URL(req.url ?? '/', 'http://emulator');
			const raw = await readBody(req);
			if (url.pathname.startsWith('/__control/')) {
				const [status, body] = await control(this, url, raw, req.method ?? 'GET');
				return send(res, status, body);
			}
			if (url.pathname === '/oauth/callback') return callbackPage(url, res);
			if (await homeView(req, url, raw, res, this)) return;
			if (req.method === 'GET' && mailView(url, res, this)) return;
			if (req.method === 'POST' && (await mailEvent(url, raw, res, this))) return;
			if (url.pathname === '/v5/auth/oauth/authorize' && req.method === 'GET')
				return this.auth.authorize(url, req, res, this.redirectUri);
			if (url.pathname === '/v5/auth/oauth/token' && req.method === 'GET')
				return this.auth.token(url, res);
			if (url.pathname.startsWith('/v5/')) this.network.track(res);
			if (url.pathname.startsWith('/v5/') && (await this.network.throttle(res))) return;
			// The fault planned for this very request, if any: before, during or after processing.
			let fault = url.pathname.startsWith('/v5/') ? this.network.arrive(url.pathname) : undefined;
			const take = (kind: Fault) => {
				if (fault !== kind) return false;
				fault = undefined;
				return true;
			};
			if (take('network')) {
				req.socket.destroy();
				return;
			}
			if (take('badGateway')) return badGatewayPage(res);
			// "Too many requests", before any processing: the request may be sent again.
			if (take('tooManyRequests')) {
				this.record(url.pathname, 'none', undefined, { code: 429 });
				return send(
					res,
					429,
					{ code: 429, message: this.text('请求过于频繁', 'too many requests') },
					{ 'Retry-After': '1' },
				);
			}
			const operation = OPERATIONS[url.pathname];
			if (!operation)
				return send(res, 404, {
					code: 404,
					message: this.text('接口不存在', `no operation at ${url.pathname}`),
				});
			if (req.method !== 'POST')
				return send(res, 405, {
					code: 405,
					message: this.text('请求方法错误', 'business operations are POST'),
				});
			const auth = this.auth.authenticate(req);
			if (!auth.ok)
				return this.answer(
					res,
					url.pathname,
					auth.scheme,
					raw,
					{ code: 401, message: this.text('认证失败', auth.why) },
					401,
				);
			let body: unknown;
			try {
				body = raw.length === 0 ? {} : JSON.parse(raw);
			} catch {
				return this.answer(res, url.pathname, auth.scheme, raw, {
					code: 400,
					message: this.text('请求体不是JSON', 'the body is not JSON'),
				});
			}
			if (!body || typeof body !== 'object' || Array.isArray(body)) {
				return this.answer(res, url.pathname, auth.scheme, body, {
					code: 400,
					message: this.text('请求体必须是对象', 'the body must be a JSON object'),
				});
			}
			const problem =
				checkSchema(operation.schema, body as Record<string, unknown>) ??
				refusedValue(this.state.refusedValues, body as Record<string, unknown>);
			if (problem)
				return this.answer(res, url.pathname, auth.scheme, body, {
					code: 400,
					message: this.text(...problem),
				});
			const sandbox =
				operation.schema.sandbox && (body as Record<string, unknown>).sandboxMode === true;
			try {
				// What became due since the last request happens before this one is handled.
				this.delivery.processDue();
				const { state, delivery } = this;
				const answer = operation.handle(
					{
						state,
						delivery,
						// An operation's own faults (campaign creation's), when this request was planned one; the
						// transient faults stay with the server, which plays them around the operation.
						takeFault: (path, only) => {
							if (path !== url.pathname || !fault || TRANSIENT_FAULTS.includes(fault))
								return undefined;
							if (only !== undefined && fault !== only) return undefined;
							const taken = fault;
							fault = undefined;
							return taken;
						},
					},
					body as Record<string, unknown>,
					sandbox,
				);
				if (take('resetAfter')) {
					this.record(url.pathname, auth.scheme, body, answer);
					req.socket.destroy();
					return;
				}
				if (take('hang')) {
					this.record(url.pathname, auth.scheme, body, answer);
					this.network.held.add(req.socket);
					return;
				}
				if (take('internalError')) {
					return this.answer(
						res,
						url.pathname,
						auth.scheme,
						body,
						{ code: 500, message: this.text('系统内部错误', 'internal error after processing') },
						500,
					);
				}
				return this.answer(res, url.pathname, auth.scheme, body, answer);
			} catch (error) {
				if (!(error instanceof ApiFailure)) throw error;
				return this.answer(res, url.pathname, auth.scheme, body, {
					code: error.code,
					message: this.text(error.zh, error.en),
				});
			}
		} catch (error) {
			send(res, 500, { code: 500, message: (error as Error).message });
		}
	}

	private text(zh: string, en: string) {
		return this.settings.messages === 'zh' ? zh : en;
	}

	/** Logs a request the emulator handled, answered or not. */
	private record(
		path: string,
		auth: RequestRecord['auth'],
		body: unknown,
		answer: { code: number },
	) {
		this.log.push({
			path,
			auth,
			code: answer.code,
			body: this.options.recordBodies === false ? undefined : body,
			at: new Date(this.state.now()).toISOString(),
		});
	}

	private answer(
		res: http.ServerResponse,
		path: string,
		auth: RequestRecord['auth'],
		body: unknown,
		answer: { code: number; message: string },
		httpStatus?: number,
	) {
		this.record(path, auth, body, answer);
		const status = httpStatus ?? (this.settings.errorHttpStatus === 'mirror' ? answer.code : 200);
		send(res, status, answer);
	}
}

/** A request-level value the platform was set to refuse (settings.refusedValues), as [zh, en] text. */
function refusedValue(
	refused: Record<string, unknown[]>,
	body: Record<string, unknown>,
): [string, string] | undefined {
	for (const [field, values] of Object.entries(refused)) {
		if (field in body && values.some((value) => value === body[field]))
			return [`参数不被接受: ${field}`, `field ${field} is not accepted`];
	}
	return undefined;
}

/** Faults of the network and the server around any operation, as opposed to an operation's own. */
const TRANSIENT_FAULTS: Fault[] = [
	'network',
	'badGateway',
	'tooManyRequests',
	'internalError',
	'resetAfter',
	'hang',
];

/** What a reverse proxy answers when the platform behind it is down: an HTML page, not JSON. */
function badGatewayPage(res: http.ServerResponse) {
	const page =
		'<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
	res.writeHead(502, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(page) });
	res.end(page);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
	const emulator = new Emulator(options);
	await emulator.start();
	return emulator;
}
