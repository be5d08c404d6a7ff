// The workflow the n8n benches measure in: a Webhook that answers when the run ends, with no body (the figures come
// from the execution record, not from the HTTP answer; the bench need not ask n8n again and again whether it ended,
// which took n8n's main thread while the node ran), a Code node making the posted number of items, then the measured
// node.
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

import { createCredential, credentialData, eventually } from '../test/e2e/env.mjs';
import { setupOwner, startN8n } from '../scripts/n8n-runtime.mjs';

/** A command-line flag's value: `--name value`, `--name` alone (true), `--no-name` (false), or `fallback`. */
export const flag = (name, fallback) => {
	const at = process.argv.indexOf(`--${name}`);
	if (process.argv.includes(`--no-${name}`)) return false;
	if (at < 0) return fallback;
	const value = process.argv[at + 1];
	return value === undefined || value.startsWith('--') ? true : value;
};

/** Positive numbers given apart by commas ("10000,50_000"). */
export const numbers = (value) =>
	String(value)
		.split(',')
		.map((part) => Number(part.replaceAll('_', '')))
		.filter((part) => Number.isFinite(part) && part > 0);

const SENDER = { __rl: true, mode: 'list', value: 'sender@example.com' };
const TEMPLATE = { __rl: true, mode: 'list', value: 'welcome' };

/**
 * Transactional Mail → Send as a person builds it by dragging input fields (the panel's default: Define Tag Values
 * Using Fields Below), with these Options; `wrap` turns each reference into one only n8n's engine evaluates, to show
 * what the fast reading saves.
 */
export const sendByDragging = (options = {}, wrap = (reference) => reference) => ({
	authentication: 'signature',
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: SENDER,
	to: `={{ ${wrap('$json.email')} }}`,
	contentSource: 'template',
	templateName: TEMPLATE,
	tagValuesMode: 'fields',
	tagValues: {
		values: [
			{ name: { __rl: true, mode: 'name', value: 'name' }, value: `={{ ${wrap('$json.name')} }}` },
			{
				name: { __rl: true, mode: 'name', value: 'orderNo' },
				value: `={{ ${wrap('$json.order')} }}`,
			},
		],
	},
	options,
});

/** Items `{ email, name, order }` (and `extra` fields) for the `n` the webhook was posted, made in a Code node. */
export const itemsCode = (extra = {}) =>
	[
		'const n = $input.first().json.body.n;',
		'const items = new Array(n);',
		`for (let i = 0; i < n; i++) items[i] = { json: { email: 'r' + i + '@example.org', name: 'R' + i, ${Object.entries(
			extra,
		)
			.map(([key, value]) => `${key}: ${JSON.stringify(value)}, `)
			.join('')}order: i } };`,
		'return items;',
	].join('\n');

/** Webhook (on `hookPath`) → Items (`code`) → `measured`, a node named Measured. */
export const measuredBehindWebhook = ({ name, hookPath, code, measured }) => ({
	name,
	nodes: [
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
				responseData: 'noData',
				options: {},
			},
		},
		{
			id: randomUUID(),
			name: 'Items',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [200, 0],
			parameters: { jsCode: code },
		},
		measured,
	],
	connections: {
		Webhook: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
		Items: { main: [[{ node: 'Measured', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
});

/**
 * How often a bench asks n8n for the execution record of a run whose webhook has answered: it is found at once, or a
 * second later (never asked again and again while the node runs: each question takes n8n's main thread).
 */
export const RUN_END_POLL_MS = 1000;

/**
 * Posts `{ n }` to the workflow's webhook and resolves when the run of `n` items has ended (n8n answers then). n8n 2
 * publishes in the background: until the webhook is registered it answers 404 and runs nothing, so the post is made
 * again until it is taken. A run that failed answers 500: the bench reads why from the execution record. Node's http,
 * not fetch: a run may take longer than fetch waits for an answer (300 s).
 */
export async function postItemCount(url, n) {
	const post = () =>
		new Promise((resolve, reject) => {
			const body = JSON.stringify({ n });
			const request = http.request(
				url,
				{
					method: 'POST',
					headers: {
						'Content-Type': 'application/json',
						'Content-Length': Buffer.byteLength(body),
					},
				},
				(response) => response.resume().on('end', () => resolve(response.statusCode)),
			);
			request.on('error', reject);
			request.end(body);
		});
	const status = await eventually(
		async () => {
			const answered = await post();
			return answered === 404 ? false : answered;
		},
		'the webhook to be live',
		60_000,
	);
	if (status >= 400 && status !== 500) throw new Error(`webhook answered ${status}`);
}

/**
 * One n8n process of the main line with an owner and the signature credential, for the time of `use`.
 * `profileDir`: n8n's CPU profile goes there. BENCH_NODE_ARGS='--trace-gc' adds Node.js options to n8n's;
 * BENCH_N8N_LOG=<file> keeps what n8n prints.
 */
export async function withN8n(emulator, { profileDir, tmpPrefix = 'mail-delivery-bench-' }, use) {
	const userFolder = mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
	const nodeArgs = [
		...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
		...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
	];
	const n8n = await startN8n({
		line: '2',
		userFolder,
		nodeArgs,
		extraEnv: { N8N_LOG_LEVEL: 'warn' },
		log: (text) => process.env.BENCH_N8N_LOG && appendFileSync(process.env.BENCH_N8N_LOG, text),
	});
	try {
		const session = await setupOwner(n8n.baseUrl);
		const credential = await createCredential(
			session,
			'mailDeliverySignatureApi',
			credentialData(emulator, 'mailDeliverySignatureApi'),
			'bench: signature',
		);
		return await use({ session, credential, emulator, n8n });
	} finally {
		await n8n.stop();
	}
}
