// Starts a real n8n with this package loaded, and sets it up headlessly through its own APIs.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { root } from './ensure-deps.mjs';
import { installCache, installN8n, LINES } from './n8n-install.mjs';
import {
	describeExit,
	describeHolder,
	freePort,
	listensOn,
	portHolder,
	supervise,
} from './processes.mjs';

export { freePort };

export const PACKAGE_NAME = 'n8n-nodes-mail-delivery';
export const OWNER = {
	email: 'owner@example.com',
	password: 'Demo-Password-1',
	firstName: 'Demo',
	lastName: 'Owner',
};

/**
 * Puts the built package where n8n looks for community packages, as an install does: package.json and
 * dist/ only. A copy, not a link to the working tree: from there the package's `require('n8n-workflow')`
 * reaches n8n's own copy (through the NODE_PATH n8n sets), not this project's dev dependency, so classes
 * the node shares with n8n (its error types) are n8n's, as they are for users.
 */
export function linkPackage(userFolder) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes', 'node_modules');
	mkdirSync(nodesDir, { recursive: true });
	const target = path.join(nodesDir, PACKAGE_NAME);
	rmSync(target, { force: true, recursive: true });
	mkdirSync(target);
	cpSync(path.join(root, 'package.json'), path.join(target, 'package.json'));
	cpSync(path.join(root, 'dist'), path.join(target, 'dist'), { recursive: true });
	const manifest = path.join(userFolder, '.n8n', 'nodes', 'package.json');
	if (!existsSync(manifest))
		writeFileSync(
			manifest,
			JSON.stringify({
				name: 'installed-nodes',
				private: true,
				dependencies: { [PACKAGE_NAME]: '*' },
			}),
		);
}

/** n8n could not listen on one of its ports: another process holds it. */
class PortTaken extends Error {
	/** `which`: `port` or `brokerPort`. */
	constructor(which, port, holder) {
		super(
			`n8n's ${which === 'port' ? 'port' : 'task broker port'} ${port} is held by ${holder ? describeHolder(holder) : 'another process (gone since)'}`,
		);
		this.which = which;
	}
}

/**
 * Starts `n8n <command>` (start, worker or webhook) and waits until `port` answers /healthz/readiness (a worker's
 * health port in queue mode). `linkWorkingTree: false` leaves the user folder's nodes as they are (the install
 * suite puts the published package there itself).
 *
 * `port` and `brokerPort` (its task broker's) are picked free when not given. A port picked free may be taken by
 * another process before n8n listens on it (another test run on the machine): n8n then starts again on new ports.
 * A port given that another process holds fails the start, naming that process. `pickPort` is where free ports come
 * from (a test gives one that another process holds). `signal` (an AbortSignal) stops n8n while it starts.
 * `editor: false` starts n8n without its editor (N8N_DISABLE_UI: its REST and public API, webhooks, forms and
 * waiting pages stay, but not the node list the editor loads): n8n then skips rewriting the editor's files into
 * the user folder, a sixth of its start (bench/n8n-start.mjs).
 */
export async function startN8n({
	port: givenPort,
	brokerPort: givenBrokerPort,
	pickPort = freePort,
	...options
}) {
	const p = installN8n(options.line);
	mkdirSync(options.userFolder, { recursive: true });
	if (options.linkWorkingTree ?? true) linkPackage(options.userFolder);
	for (let attempt = 1; ; attempt++) {
		const ports = {
			port: givenPort ?? (await pickPort()),
			brokerPort: givenBrokerPort ?? (await pickPort()),
		};
		try {
			return await launchN8n(p, ports, options);
		} catch (error) {
			if (!(error instanceof PortTaken)) throw error;
			const given = { port: givenPort, brokerPort: givenBrokerPort }[error.which];
			if (given !== undefined || attempt >= 5) throw error;
			console.log(`${error.message} (taken after it was picked): starting n8n again on new ports`);
		}
	}
}

async function launchN8n(
	p,
	{ port, brokerPort },
	{
		line,
		userFolder,
		log = () => {},
		nodeArgs = [],
		extraEnv = {},
		command = 'start',
		signal,
		editor = true,
	},
) {
	const baseUrl = `http://127.0.0.1:${port}`;
	const env = {
		...process.env,
		...LINES[line].env,
		PATH: `${path.dirname(p.nodeBin)}:${process.env.PATH}`,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		// n8n 2.x reads N8N_WEBHOOK_URL (WEBHOOK_URL is deprecated there); n8n 1.x only WEBHOOK_URL.
		...(line === '1' ? { WEBHOOK_URL: `${baseUrl}/` } : { N8N_WEBHOOK_URL: `${baseUrl}/` }),
		N8N_EDITOR_BASE_URL: `${baseUrl}/`,
		N8N_ENCRYPTION_KEY: 'mail-delivery-local-demo-key',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		// The task runner's grant is valid 30 s by default: on a loaded machine it starts later and is refused.
		N8N_RUNNERS_GRANT_TOKEN_TTL: '300',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
		N8N_PUBLIC_API_DISABLED: 'false',
		DB_TYPE: 'sqlite',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		...(editor ? {} : { N8N_DISABLE_UI: 'true' }),
		// Node's cache of compiled modules, kept with the installs: n8n's next start skips compiling them again.
		NODE_COMPILE_CACHE:
			process.env.NODE_COMPILE_CACHE ?? path.join(installCache(), 'compile-cache'),
		// A worker answers readiness on its health port.
		...(command === 'worker'
			? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) }
			: {}),
		...extraEnv,
	};
	const child = spawn(p.nodeBin, [...nodeArgs, p.n8nBin, command], {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const supervised = supervise(child);
	const output = [];
	const collect = (chunk) => {
		const text = chunk.toString();
		output.push(text);
		if (output.length > 400) output.shift();
		log(text);
	};
	child.stdout.on('data', collect);
	child.stderr.on('data', collect);
	const tail = () => output.join('').slice(-4000);
	/** The port of ours another process holds (or n8n said it found in use), if any. */
	const portTaken = () => {
		const said = /port (\d+) is already in use/i.exec(output.join(''))?.[1];
		for (const [which, number] of Object.entries({ port, brokerPort })) {
			const holder = portHolder(number);
			if ((holder && holder.pid !== child.pid) || Number(said) === number)
				return new PortTaken(which, number, holder);
		}
		return undefined;
	};
	const started = Date.now();
	while (true) {
		if (!supervised.isRunning()) {
			const exit = await supervised.exited;
			throw portTaken() ?? new Error(`n8n ${command} ${describeExit(exit)}:\n${tail()}`);
		}
		const ready = await fetch(`${baseUrl}/healthz/readiness`).then(
			(response) => response.ok,
			() => false, // not listening yet
		);
		// Ready, and the answer was n8n's own, not another process's on a port taken meanwhile.
		if (ready && (listensOn(child.pid, port) || !portHolder(port)?.pid)) break;
		const taken = ready ? portTaken() : undefined;
		// A machine busy with other work starts n8n in minutes (seen: more than 3 on two loaded cores).
		if (taken || signal?.aborted || Date.now() - started > 600_000) {
			await supervised.stop();
			if (signal?.aborted) throw new Error(`n8n ${command} was stopped as it started`);
			throw taken ?? new Error(`n8n did not become ready within 600 s:\n${tail()}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	return {
		baseUrl,
		child,
		pid: child.pid,
		ports: { port, brokerPort },
		output,
		startupMs: Date.now() - started,
		/** Resolves with `{ code, signal }` when n8n exits, for whatever reason. */
		exited: supervised.exited,
		/** Stops n8n (SIGTERM, SIGKILL after 20 s); returns at once if it has exited already. */
		stop: async () => {
			await supervised.stop();
		},
	};
}

/**
 * A request to n8n, sent again while n8n answers 503 "Database is not ready!": n8n 1.x answers so, before doing
 * anything, whenever its periodic `SELECT 1` took more than 5 s (a loaded machine), until the next one succeeds.
 */
async function whileDatabaseNotReady(send) {
	for (let attempt = 1; ; attempt++) {
		const answer = await send();
		const text = await answer.text();
		if (answer.status !== 503 || !text.includes('Database is not ready') || attempt >= 60)
			return { answer, text };
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/** Owner account (first run) or login, then an API key for the public API. */
export async function setupOwner(baseUrl) {
	// n8n 1.x reports ready a moment before its REST routes are mounted (and, after a restart on a busy machine,
	// may mount /rest/login after /rest/owner/setup, drop a connection, or answer 503 "Database is not ready!"
	// meanwhile): such answers are tried again.
	const post = async (route, body) => {
		for (let attempt = 0; ; attempt++) {
			const answer = await fetch(`${baseUrl}/rest${route}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			}).catch((error) => (attempt < 120 ? undefined : Promise.reject(error)));
			if ((answer && ![404, 503].includes(answer.status)) || attempt >= 120) return answer;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	};
	let response = await post('/owner/setup', OWNER);
	if (!response.ok)
		response = await post('/login', {
			emailOrLdapLoginId: OWNER.email,
			email: OWNER.email,
			password: OWNER.password,
		});
	if (!response.ok)
		throw new Error(`n8n login failed: ${response.status} ${await response.text()}`);
	const cookie = (response.headers.getSetCookie?.() ?? [response.headers.get('set-cookie')])
		.map((c) => String(c).split(';')[0])
		.join('; ');
	const rest = async (method, route, body) => {
		const { answer, text } = await whileDatabaseNotReady(() =>
			fetch(`${baseUrl}/rest${route}`, {
				method,
				headers: {
					'Content-Type': 'application/json',
					cookie,
					'browser-id': 'mail-delivery-setup',
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			}),
		);
		if (!answer.ok)
			throw new Error(`n8n ${method} /rest${route} failed: ${answer.status} ${text.slice(0, 500)}`);
		const parsed = text ? JSON.parse(text) : {};
		return parsed.data ?? parsed;
	};
	let scopes;
	try {
		scopes = await rest('GET', '/api-keys/scopes');
	} catch {
		scopes = undefined;
	}
	const key = await rest('POST', '/api-keys', {
		label: `setup-${Date.now()}`,
		expiresAt: null,
		...(Array.isArray(scopes) ? { scopes } : {}),
	});
	const apiKey = key.rawApiKey ?? key.apiKey;
	const api = async (method, route, body) => {
		const { answer, text } = await whileDatabaseNotReady(() =>
			fetch(`${baseUrl}/api/v1${route}`, {
				method,
				headers: { 'Content-Type': 'application/json', 'X-N8N-API-KEY': apiKey },
				body: body === undefined ? undefined : JSON.stringify(body),
			}),
		);
		if (!answer.ok)
			throw new Error(
				`n8n ${method} /api/v1${route} failed: ${answer.status} ${text.slice(0, 500)}`,
			);
		return text ? JSON.parse(text) : {};
	};
	return { rest, api, apiKey, cookie };
}
