// The README's main job: real n8n with this package, against the local emulator, ready to use.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

import { ensureDependencies, root, run } from './ensure-deps.mjs';
import { exampleWorkflows } from './examples.mjs';
import { lineOf, paths } from './n8n-install.mjs';
import { OWNER, setupOwner, startN8n } from './n8n-runtime.mjs';

const EMULATOR_PORT = Number(process.env.EMULATOR_PORT ?? 3789);
const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const line = lineOf(process.env.N8N_LINE);
const started = Date.now();

ensureDependencies();
run('npm run -s build');

const emulatorProcess = spawn(process.execPath, [path.join(root, 'node_modules', 'ts-node', 'dist', 'bin.js'), '--transpile-only', path.join(root, 'emulator', 'cli.ts')], {
	cwd: root,
	env: { ...process.env, EMULATOR_PORT: String(EMULATOR_PORT), EMULATOR_JSON: '1' },
	stdio: ['ignore', 'pipe', 'inherit'],
});
const emulator = JSON.parse(
	await new Promise((resolve, reject) => {
		readline.createInterface({ input: emulatorProcess.stdout }).once('line', resolve);
		emulatorProcess.once('exit', (code) => reject(new Error(`The emulator exited (code ${code}); is port ${EMULATOR_PORT} free?`)));
	}),
);
console.log(`Emulator listening on ${emulator.url}`);

let n8n;
const stopAll = async () => {
	console.log('\nStopping n8n and the emulator...');
	await n8n?.stop();
	emulatorProcess.kill('SIGTERM');
	process.exit(0);
};
process.on('SIGINT', () => void stopAll());
process.on('SIGTERM', () => void stopAll());

console.log(`Starting n8n (line ${line}) on port ${N8N_PORT}...`);
const logFile = path.join(paths(line).base, 'n8n.log');
const logStream = createWriteStream(logFile, { flags: 'a' });
n8n = await startN8n({ line, userFolder: paths(line).userFolder, port: N8N_PORT, brokerPort: N8N_PORT + 1, log: (text) => logStream.write(text) });
const session = await setupOwner(n8n.baseUrl);

// Credentials for the three schemes, found by name so a second start reuses them.
const existing = (await session.api('GET', '/credentials?limit=250').catch(() => ({ data: [] }))).data ?? [];
async function credential(name, type, data, { replace = false } = {}) {
	const found = existing.find((c) => c.name === name && c.type === type);
	if (found && !replace) return { id: found.id, name };
	if (found) await session.api('DELETE', `/credentials/${found.id}`);
	const body = { name, type, data };
	let created;
	try {
		created = await session.api('POST', '/credentials', body);
	} catch (error) {
		if (!/allowedDomains/.test(error.message)) throw error;
		created = await session.api('POST', '/credentials', { ...body, data: { ...data, allowedHttpRequestDomains: 'all' } });
	}
	return { id: created.id, name };
}
const { account } = emulator;
const signature = await credential('Mail Delivery (signature, emulator)', 'mailDeliverySignatureApi', { baseUrl: emulator.url, apiKey: account.apiKey, apiSecret: account.apiSecret });
await credential('Mail Delivery (OAuth2 client credentials, emulator)', 'mailDeliveryClientCredentialsOAuth2Api', { baseUrl: emulator.url, apiKey: account.apiKey, apiSecret: account.apiSecret });
// The emulator forgets its tokens when it stops, so this credential gets a fresh code every start.
const authorize = new URL(`${emulator.url}/v5/auth/oauth/authorize`);
authorize.search = new URLSearchParams({ client_id: account.clientId, response_type: 'code', redirect_uri: emulator.redirectUri, scope: 'All' }).toString();
const code = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')).searchParams.get('code');
await credential(
	'Mail Delivery (OAuth2 authorization code, emulator)',
	'mailDeliveryAuthCodeOAuth2Api',
	{ baseUrl: emulator.url, clientId: account.clientId, clientSecret: account.clientSecret, redirectUri: emulator.redirectUri, authorizationCode: code },
	{ replace: true },
);

const workflows = (await session.api('GET', '/workflows?limit=250')).data ?? [];
for (const { active, ...workflow } of exampleWorkflows(signature)) {
	let found = workflows.find((w) => w.name === workflow.name);
	if (!found) found = await session.api('POST', '/workflows', workflow);
	if (!active) continue;
	// The emulator starts empty, and n8n 2 does not register webhooks again at startup:
	// publishing the trigger again registers it with this emulator.
	if (found.active) {
		await session.api('POST', `/workflows/${found.id}/deactivate`);
		await until(async () => !(await session.api('GET', `/workflows/${found.id}`)).active);
	}
	await until(async () => {
		try {
			await session.api('POST', `/workflows/${found.id}/activate`);
			return true;
		} catch (error) {
			if (/409/.test(error.message)) return false;
			throw error;
		}
	});
}

async function until(check) {
	for (let attempt = 0; attempt < 100; attempt++) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error('n8n did not finish (de)activating the trigger workflow within 20 s');
}

console.log(`
────────────────────────────────────────────────────────────────────────────
 n8n is ready:   ${n8n.baseUrl}   (started in ${Math.round((Date.now() - started) / 1000)} s)
 Log in with:    ${OWNER.email}  /  ${OWNER.password}
 Emulator:       ${emulator.url}   (state: ${emulator.url}/__control/state)
 n8n's log:      ${path.relative(root, logFile)}

 Try first:
  1. Open "Mail Delivery: combined transactional send" and click "Execute workflow":
     six recipients become six items, sent in ONE request.
  2. Open "Mail Delivery: events by kind" → Executions: the emulator pushed one
     event per recipient (Delivered, Bounced, Dropped...), each on its own branch.
  3. "Mail Delivery: campaign to a list" sends to the seeded "newsletter" list.
 Credentials for all three authentication schemes are set up against the emulator.
 Press Ctrl-C to stop n8n and the emulator.
────────────────────────────────────────────────────────────────────────────`);
