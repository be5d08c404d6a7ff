// What `npm start` and `npm run start:queue` share: the emulator process, and n8n set up against it with
// credentials for the three schemes and the example workflows (the trigger example published).
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

import { root } from './ensure-deps.mjs';
import { exampleWorkflows } from './examples.mjs';
import { describeExit, supervise } from './processes.mjs';

/** `mailLog`: the emulator prints each mail it accepts (recipient, final subject, tag values), relayed here. */
export async function startDemoEmulator(port, { mailLog = false } = {}) {
	const child = spawn(
		process.execPath,
		[
			path.join(root, 'node_modules', 'ts-node', 'dist', 'bin.js'),
			'--transpile-only',
			path.join(root, 'emulator', 'cli.cts'),
		],
		{
			cwd: root,
			env: {
				...process.env,
				EMULATOR_PORT: String(port),
				EMULATOR_JSON: '1',
				EMULATOR_MAIL_LOG: mailLog ? '1' : '',
			},
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const supervised = supervise(child, { graceMs: 5_000 });
	const lines = readline.createInterface({ input: child.stdout });
	const info = JSON.parse(
		await new Promise((resolve, reject) => {
			lines.once('line', resolve);
			supervised.exited.then((exit) =>
				reject(new Error(`The emulator ${describeExit(exit)} as it started (port ${port})`)),
			);
		}),
	);
	// What the emulator prints after its address: the mails it accepted.
	lines.on('line', (line) => console.log(line));
	return {
		...info,
		child,
		exited: supervised.exited,
		stop: async () => {
			await supervised.stop();
		},
	};
}

export async function setupDemo(session, emulator) {
	// Credentials for the three schemes, found by name so a second start reuses them.
	const existing =
		(await session.api('GET', '/credentials?limit=250').catch(() => ({ data: [] }))).data ?? [];
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
			created = await session.api('POST', '/credentials', {
				...body,
				data: { ...data, allowedHttpRequestDomains: 'all' },
			});
		}
		return { id: created.id, name };
	}
	const { account } = emulator;
	const signature = await credential(
		'Mail Delivery (signature, emulator)',
		'mailDeliverySignatureApi',
		{ baseUrl: emulator.url, apiKey: account.apiKey, apiSecret: account.apiSecret },
	);
	await credential(
		'Mail Delivery (OAuth2 client credentials, emulator)',
		'mailDeliveryClientCredentialsOAuth2Api',
		{ baseUrl: emulator.url, apiKey: account.apiKey, apiSecret: account.apiSecret },
	);
	// The emulator forgets its tokens when it stops, so this credential gets a fresh code every start.
	// Asked on the control interface's plain address when the platform is served over HTTPS: this process does not
	// trust the emulator's certificate (n8n does), and the answer is the same.
	const authorize = new URL(`${emulator.controlUrl ?? emulator.url}/v5/auth/oauth/authorize`);
	authorize.search = new URLSearchParams({
		client_id: account.clientId,
		response_type: 'code',
		redirect_uri: emulator.redirectUri,
		scope: 'All',
	}).toString();
	const code = new URL(
		(await fetch(authorize, { redirect: 'manual' })).headers.get('location'),
	).searchParams.get('code');
	await credential(
		'Mail Delivery (OAuth2 authorization code, emulator)',
		'mailDeliveryAuthCodeOAuth2Api',
		{
			baseUrl: emulator.url,
			clientId: account.clientId,
			clientSecret: account.clientSecret,
			redirectUri: emulator.redirectUri,
			authorizationCode: code,
		},
		{ replace: true },
	);
	// n8n gives a new node the credential saved last (the editor sorts by updatedAt): make that the signature
	// one, which needs nothing renewed, rather than the authorization-code credential recreated above.
	const signatureData = {
		baseUrl: emulator.url,
		apiKey: account.apiKey,
		apiSecret: account.apiSecret,
	};
	await session.rest('PATCH', `/credentials/${signature.id}`, {
		name: signature.name,
		type: 'mailDeliverySignatureApi',
		data: signatureData,
	});

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
}
