// Shared setup of the end-to-end suite: a real emulator process and a real n8n process with this
// package loaded, driven only through their HTTP interfaces.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

import { root } from '../../scripts/ensure-deps.mjs';
import { freePort, PACKAGE_NAME, setupOwner, startN8n } from '../../scripts/n8n-runtime.mjs';
import { describeExit, supervise } from '../../scripts/processes.mjs';

export { freePort };

export const ACTION = `${PACKAGE_NAME}.mailDelivery`;
export const TRIGGER = `${PACKAGE_NAME}.mailDeliveryTrigger`;

const EVENT_KINDS = ['Delivered', 'Bounced', 'Dropped', 'Opened', 'Clicked'];

/** A push as the platform writes it: MailSeqId a bare 19-digit integer (2505070900222412710 + offset + i). */
export function pushBody(count, offset = 0) {
	const events = [];
	for (let i = 0; i < count; i++) {
		const kind = EVENT_KINDS[i % EVENT_KINDS.length];
		events.push(
			`{"EventCode":"${kind}","Email":"r${i}@example.org","EventType":"3","SentMailListName":"welcome||spring","TriggeredDateTimeV2":"2026-11-20 12:00:00","SubmitDateTimeV2":"2026-11-20 11:59:58","UniqueMsgID":"u-${i}","Guid":"a4b7c2d1-0000-4000-8000-000000000000","MailName":"spring","SenderEmail":"sender@example.com","MailSeqId":${2505070900222412710n + BigInt(offset + i)}}`,
		);
	}
	return `[${events.join(',')}]`;
}

/**
 * The emulator as its own process; `env` adds its settings (EMULATOR_DISTANCE_MS=150: over HTTPS as if 150 ms away,
 * `certificateFile` then being what n8n must trust: NODE_EXTRA_CA_CERTS).
 */
export async function startEmulatorProcess(port = 0, env = {}) {
	const child = spawn(
		process.execPath,
		[
			path.join(root, 'node_modules', 'ts-node', 'dist', 'bin.js'),
			'--transpile-only',
			path.join(root, 'emulator', 'cli.cts'),
		],
		{
			cwd: root,
			env: { ...process.env, ...env, EMULATOR_PORT: String(port), EMULATOR_JSON: '1' },
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const supervised = supervise(child, { graceMs: 5_000 });
	const first = await new Promise((resolve, reject) => {
		readline.createInterface({ input: child.stdout }).once('line', resolve);
		supervised.exited.then((exit) => reject(new Error(`the emulator ${describeExit(exit)}`)));
	});
	const info = JSON.parse(first);
	const control = async (method, route, body) => {
		const answer = await fetch(`${info.controlUrl ?? info.url}/__control/${route}`, {
			method,
			headers: { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return await answer.json();
	};
	return {
		...info,
		pid: child.pid,
		control,
		stop: async () => {
			await supervised.stop();
		},
	};
}

export async function authorizationCode(emulator) {
	const url = new URL(`${emulator.url}/v5/auth/oauth/authorize`);
	url.search = new URLSearchParams({
		client_id: emulator.account.clientId,
		response_type: 'code',
		redirect_uri: emulator.redirectUri,
		scope: 'All',
	}).toString();
	const answer = await fetch(url, { redirect: 'manual' });
	return new URL(answer.headers.get('location')).searchParams.get('code');
}

export function credentialData(emulator, type, code = '') {
	const { url, account, redirectUri } = emulator;
	if (type === 'mailDeliverySignatureApi')
		return { baseUrl: url, apiKey: account.apiKey, apiSecret: account.apiSecret };
	if (type === 'mailDeliveryClientCredentialsOAuth2Api')
		return { baseUrl: url, apiKey: account.apiKey, apiSecret: account.apiSecret };
	return {
		baseUrl: url,
		clientId: account.clientId,
		clientSecret: account.clientSecret,
		redirectUri,
		authorizationCode: code,
	};
}

export const AUTHENTICATION_OF = {
	mailDeliverySignatureApi: 'signature',
	mailDeliveryClientCredentialsOAuth2Api: 'oAuth2ClientCredentials',
	mailDeliveryAuthCodeOAuth2Api: 'oAuth2AuthorizationCode',
};

/** A workflow: Webhook (answers with the last node's items) → optional Split Out → Mail Delivery. */
/**
 * Webhook → (Split Out of `splitField`) → (n8n's Edit Fields setting `setFields`, name → stored value,
 * other fields kept) → Mail Delivery.
 */
export function actionWorkflow({ name, parameters, credential, splitField, setFields }) {
	const hookPath = `e2e-${randomUUID()}`;
	const nodes = [
		{
			id: randomUUID(),
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: {
				httpMethod: 'POST',
				path: hookPath,
				responseMode: 'lastNode',
				responseData: 'allEntries',
				options: {},
			},
		},
		{
			id: randomUUID(),
			name: 'Mail Delivery',
			type: ACTION,
			typeVersion: 1,
			position: [400, 0],
			parameters: { authentication: AUTHENTICATION_OF[credential.type], ...parameters },
			credentials: { [credential.type]: { id: credential.id, name: credential.name } },
		},
	];
	const connections = { Webhook: { main: [[{ node: 'Mail Delivery', type: 'main', index: 0 }]] } };
	if (splitField) {
		nodes.push({
			id: randomUUID(),
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [200, 0],
			parameters: { fieldToSplitOut: splitField, options: {} },
		});
		connections.Webhook = { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] };
		connections['Split Out'] = { main: [[{ node: 'Mail Delivery', type: 'main', index: 0 }]] };
	}
	if (setFields) {
		nodes.push({
			id: randomUUID(),
			name: 'Edit Fields',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [300, 0],
			parameters: {
				mode: 'manual',
				assignments: {
					assignments: Object.entries(setFields).map(([field, value]) => ({
						id: randomUUID(),
						name: field,
						value,
						type: 'string',
					})),
				},
				includeOtherFields: true,
				options: {},
			},
		});
		const [previous] = Object.entries(connections).find(([, output]) =>
			output.main[0].some((next) => next.node === 'Mail Delivery'),
		);
		connections[previous] = { main: [[{ node: 'Edit Fields', type: 'main', index: 0 }]] };
		connections['Edit Fields'] = { main: [[{ node: 'Mail Delivery', type: 'main', index: 0 }]] };
	}
	return { workflow: { name, nodes, connections, settings: { executionOrder: 'v1' } }, hookPath };
}

export function triggerWorkflow({ name, credential, parameters = {} }) {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Mail Delivery Trigger',
				type: TRIGGER,
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { authentication: AUTHENTICATION_OF[credential.type], ...parameters },
				credentials: { [credential.type]: { id: credential.id, name: credential.name } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * The emulator and an n8n with an owner. `faults`: a JSON file of faults in n8n's own saving of executions
 * (n8n-faults.cjs, preloaded), which tests write while n8n runs; `extraEnv`: more of n8n's environment. n8n runs
 * without its editor unless `editor` is true (a suite that opens it): a start then costs a sixth less
 * (bench/n8n-start.mjs).
 */
export async function startStack(line, { faults, extraEnv, editor = false } = {}) {
	const emulator = await startEmulatorProcess();
	const userFolder = mkdtempSync(path.join(tmpdir(), `mail-delivery-e2e-${line}-`));
	let n8n;
	try {
		n8n = await startN8n({
			line,
			userFolder,
			editor,
			...(faults ? n8nFaults(faults) : {}),
			...(extraEnv ? { extraEnv } : {}),
		});
		const session = await setupOwner(n8n.baseUrl);
		return { emulator, n8n, session, userFolder };
	} catch (error) {
		// Nothing of a set-up that failed stays behind: a live emulator would keep the suite's process alive.
		await n8n?.stop();
		await emulator.stop();
		throw error;
	}
}

/** What startN8n needs for the faults of `file` (see n8n-faults.cjs). */
export const n8nFaults = (file) => ({
	nodeArgs: ['--require', path.join(root, 'test', 'e2e', 'n8n-faults.cjs')],
	extraEnv: { MAIL_DELIVERY_N8N_FAULTS: file },
});

export async function createCredential(
	session,
	type,
	data,
	name = `${type} ${randomUUID().slice(0, 8)}`,
) {
	let created;
	try {
		created = await session.api('POST', '/credentials', { name, type, data });
	} catch (error) {
		// n8n 1.123's public API schema requires its HTTP-domain restriction fields on every credential.
		if (!/allowedDomains/.test(error.message)) throw error;
		created = await session.api('POST', '/credentials', {
			name,
			type,
			data: { ...data, allowedHttpRequestDomains: 'all' },
		});
	}
	return { id: created.id, name: created.name ?? name, type };
}

export async function activate(session, workflow) {
	const created = await session.api('POST', '/workflows', workflow);
	await session.api('POST', `/workflows/${created.id}/activate`);
	return created.id;
}

/** Waits until `check` holds, asking every `intervalMs` (n8n 2 activates and deactivates in the background). */
export async function eventually(check, what, timeoutMs = 120_000, intervalMs = 200) {
	const started = Date.now();
	let last;
	while (Date.now() - started < timeoutMs) {
		last = await check();
		if (last) return last;
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
	throw new Error(`Timed out waiting for ${what}`);
}

/** Runs an action workflow through n8n's production webhook and returns the Mail Delivery items. */
export async function runAction(stack, options, body = {}) {
	const { workflow, hookPath } = actionWorkflow(options);
	const id = await activate(stack.session, workflow);
	try {
		let answer;
		// n8n 2 publishes in the background: until the webhook is registered it answers 404 and runs nothing.
		for (let attempt = 0; attempt < 100; attempt++) {
			answer = await fetch(`${stack.n8n.baseUrl}/webhook/${hookPath}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
			if (answer.status !== 404) break;
			await answer.text();
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		const text = await answer.text();
		let data;
		try {
			data = JSON.parse(text);
		} catch {
			data = text;
		}
		return { status: answer.status, data };
	} finally {
		// Deleting right after deactivation races n8n 2's unpublishing; inactive workflows are harmless.
		await stack.session.api('POST', `/workflows/${id}/deactivate`);
	}
}

/**
 * Activates a workflow whose trigger is expected to refuse, and returns n8n's error text: n8n 1.x runs
 * the trigger's hooks during the activate call; n8n 2.x publishes in the background and ends "failed".
 */
export async function activateExpectingRefusal(session, workflow) {
	const created = await session.api('POST', '/workflows', workflow);
	try {
		await session.api('POST', `/workflows/${created.id}/activate`);
	} catch (error) {
		return { id: created.id, message: error.message };
	}
	const status = await eventually(
		async () => {
			const answer = await session
				.rest('GET', `/workflows/${created.id}/publication-status`)
				.catch((error) => ({ error: error.message }));
			return /fail/i.test(JSON.stringify(answer)) ? answer : false;
		},
		'the publication to fail',
		60_000,
	);
	return { id: created.id, message: JSON.stringify(status) };
}
