// Trigger speed the way a user feels it: a real n8n (the one the tests install) with two active
// workflows, this package's trigger and n8n's Webhook + Split Out, receiving the same pushes.
// Prints answer time, push-to-execution-end (from n8n's own execution records) and their ratio.
// `node bench/n8n-trigger.mjs [--cpu-prof DIR]` alone; `npm run bench` runs it after the in-process figures.
import './built.mjs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

import { activate, eventually, pushBody, TRIGGER } from '../test/e2e/env.mjs';
import { LINES } from '../scripts/n8n-install.mjs';
import { setupOwner, startN8n } from '../scripts/n8n-runtime.mjs';

const profileDir = process.argv.includes('--cpu-prof')
	? process.argv[process.argv.indexOf('--cpu-prof') + 1]
	: undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
	// n8n takes an expression isolate for every push to a trigger other than its own Webhook node (the isolate
	// is used once and replaced in the background), from a pool of one by default; the other configurations show
	// what that costs: a pool of two, or isolates taken only when an expression is evaluated (lazy acquisition).
	const configurations = [
		['n8n defaults', {}],
		['N8N_EXPRESSION_ENGINE_POOL_SIZE=2', { N8N_EXPRESSION_ENGINE_POOL_SIZE: '2' }],
		['N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true', { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' }],
	];
	// BENCH_N8N_CONFIGS=LAZY (a part of a label) measures only the configurations it names.
	const chosen = process.env.BENCH_N8N_CONFIGS?.split(',');
	for (const [label, env] of configurations.filter(
		([name]) => !chosen || chosen.some((part) => name.includes(part)),
	)) {
		await measure(label, env);
	}
}

async function measure(label, extraEnv) {
	const userFolder = mkdtempSync(path.join(tmpdir(), 'mail-delivery-bench-n8n-'));
	const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
	const n8n = await startN8n({
		line: '2',
		userFolder,
		nodeArgs,
		extraEnv: { N8N_LOG_LEVEL: 'warn', ...extraEnv },
	});
	try {
		const session = await setupOwner(n8n.baseUrl);
		const triggerHook = randomUUID();
		const triggerId = await activate(session, {
			name: 'bench: Mail Delivery Trigger',
			nodes: [
				{
					id: randomUUID(),
					name: 'Mail Delivery Trigger',
					type: TRIGGER,
					typeVersion: 2,
					position: [0, 0],
					webhookId: triggerHook,
					parameters: { registration: 'manual', requireSecret: false },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		const webhookPath = `bench-${randomUUID()}`;
		const webhookId = await activate(session, {
			name: 'bench: Webhook + Split Out',
			nodes: [
				{
					id: randomUUID(),
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: { httpMethod: 'POST', path: webhookPath, options: {} },
				},
				{
					id: randomUUID(),
					name: 'Split Out',
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					position: [200, 0],
					parameters: { fieldToSplitOut: 'body', options: {} },
				},
			],
			connections: { Webhook: { main: [[{ node: 'Split Out', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});
		const targets = {
			trigger: {
				url: `${n8n.baseUrl}/webhook/${triggerHook}/events`,
				id: triggerId,
				lastNode: 'Mail Delivery Trigger',
			},
			webhook: {
				url: `${n8n.baseUrl}/webhook/${webhookPath}`,
				id: webhookId,
				lastNode: 'Split Out',
			},
		};
		for (const target of Object.values(targets)) {
			await eventually(
				async () =>
					(
						await fetch(target.url, {
							method: 'POST',
							headers: { 'Content-Type': 'application/json' },
							body: '[]',
						})
					).status !== 404,
				'the webhook to be live',
				30_000,
			);
		}
		const executions = async (id) =>
			(await session.api('GET', `/executions?workflowId=${id}&limit=250`)).data ?? [];
		/** Waits until `count` executions newer than `afterId` have ended; returns them, newest first. */
		const finished = async (id, afterId, count) =>
			await eventually(
				async () => {
					const newer = (await executions(id)).filter((e) => Number(e.id) > afterId);
					return newer.length >= count && newer.every((e) => e.stoppedAt) ? newer : false;
				},
				'executions to end',
				120_000,
			);
		const newestId = async (id) => {
			await new Promise((resolve) => setTimeout(resolve, 500));
			return Math.max(0, ...(await executions(id)).map((e) => Number(e.id)));
		};

		/** One push; waits for its execution to end so pushes never overlap. */
		async function push(name, body) {
			const target = targets[name];
			const sentAt = Date.now();
			const answer = await fetch(target.url, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json; charset=utf-8',
					'User-Agent': 'YiyeWebhooks',
				},
				body,
			});
			await answer.text();
			const answeredMs = Date.now() - sentAt;
			const [latest] = await finished(target.id, target.lastId, 1);
			target.lastId = Number(latest.id);
			return {
				answeredMs,
				endMs: new Date(latest.stoppedAt).getTime() - sentAt,
				executionId: latest.id,
			};
		}

		for (const target of Object.values(targets)) target.lastId = await newestId(target.id);
		console.log(
			`Trigger inside a real n8n ${LINES[2].n8n}, ${label} (one process, SQLite, execution data saved), median of ${ROUNDS} pushes each, sent alternately:`,
		);
		console.log(
			'  events | trigger: answered / push→end | Webhook + Split Out: answered / push→end | ratio (Webhook ÷ trigger, push→end)',
		);
		let sent = 0;
		for (const count of [100, 1000, 5000]) {
			const times = { trigger: [], webhook: [] };
			let offset = 0;
			for (let round = 0; round < ROUNDS + 1; round++) {
				// Other events each round: the trigger leaves out events it passed on already (Ignore Repeated
				// Events, on as by default), so that its cost is in the figures.
				offset = sent;
				sent += count;
				const body = pushBody(count, offset);
				for (const name of ['trigger', 'webhook']) {
					const result = await push(name, body);
					if (round > 0) times[name].push(result); // the first round warms both up
				}
			}
			const figure = (name, key) => median(times[name].map((t) => t[key]));
			const ratio = figure('webhook', 'endMs') / figure('trigger', 'endMs');
			// Issue 47: with Ignore Repeated Events on, a push of 1,000 new events at least as fast as n8n's own nodes.
			const target = count === 1000 ? ` (target ≥ 1.0: ${ratio >= 1 ? 'met' : 'NOT met'})` : '';
			console.log(
				`  ${String(count).padStart(6)} | ${String(figure('trigger', 'answeredMs')).padStart(4)} ms / ${String(figure('trigger', 'endMs')).padStart(4)} ms | ${String(figure('webhook', 'answeredMs')).padStart(4)} ms / ${String(figure('webhook', 'endMs')).padStart(4)} ms | ${ratio.toFixed(2)}${target}`,
			);
			// Every event an item, MailSeqId exact (checked on the last trigger execution).
			const last = times.trigger.at(-1);
			const data = await session.api('GET', `/executions/${last.executionId}?includeData=true`);
			const items = data.data.resultData.runData['Mail Delivery Trigger'][0].data.main.flat();
			const exact =
				items.length === count &&
				items.every(
					(item, i) => item.json.MailSeqId === String(2505070900222412710n + BigInt(offset + i)),
				);
			if (!exact) throw new Error(`trigger: expected ${count} items with exact MailSeqId`);
		}

		// Three bursts each, alternately; the median burst is printed.
		const bursts = { trigger: [], webhook: [] };
		for (let burst = 0; burst < 3; burst++) {
			for (const name of ['trigger', 'webhook']) {
				const started = Date.now();
				await Promise.all(
					Array.from({ length: 20 }, (_, i) =>
						fetch(targets[name].url, {
							method: 'POST',
							headers: { 'Content-Type': 'application/json' },
							body: pushBody(
								1000,
								sent + (burst * 2 + (name === 'trigger' ? 0 : 1)) * 20_000 + i * 1000,
							),
						}).then((r) => r.text()),
					),
				);
				const list = await finished(targets[name].id, targets[name].lastId, 20);
				targets[name].lastId = Math.max(...list.map((e) => Number(e.id)));
				bursts[name].push(Math.max(...list.map((e) => new Date(e.stoppedAt).getTime())) - started);
			}
		}
		for (const name of ['trigger', 'webhook']) {
			const ms = median(bursts[name]);
			console.log(
				`  20 pushes of 1,000 fired at once, ${name === 'trigger' ? 'trigger            ' : 'Webhook + Split Out'}: ${((20_000 / ms) * 1000).toFixed(0)} events/s (${ms} ms to the last execution end, median of 3 bursts)`,
			);
		}
	} finally {
		await n8n.stop();
	}
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
