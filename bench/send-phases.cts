/**
 * The send's own cost per item, by phase, inside this process (n8n's engine, the emulator in-process answering
 * every request 150 ms late): read (node start → its first send), requests (first send → last answer), output
 * (last answer → node end), and this process's CPU time. `node --expose-gc -r ./bench/register.js
 * bench/send-phases.cts [N …]`; SEND_MODE=dragging|inputFields.
 */
import { performance } from 'node:perf_hooks';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Run } from '../nodes/MailDelivery/run/engine';
import { actionWorkflow, CredentialsStore, runWorkflow } from '../test/harness/n8n.cts';

/**
 * The main thread's CPU time (ms) in each step of the engine's Run, summed over the run: read, pack, send (the
 * requests: n8n's request stack included) and outputs. CPU time, unlike wall time, is not stretched by other
 * processes on a busy machine. Node 23.9 or later (threadCpuUsage); earlier, the process's CPU time.
 */
const stepCpu: Record<string, number> = {};
const threadCpu = () => {
	const { user, system } =
		(process as unknown as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.() ??
		process.cpuUsage();
	return (user + system) / 1000;
};
for (const step of ['read', 'pack', 'send', 'outputs'] as const) {
	const original = Run.prototype[step] as (...args: unknown[]) => unknown;
	(Run.prototype as unknown as Record<string, unknown>)[step] = function (
		this: unknown,
		...args: unknown[]
	) {
		// HEAP=1: the heap the step leaves behind (collected before and after: slower, for memory only).
		const heapBefore = process.env.HEAP ? (global.gc?.(), process.memoryUsage().heapUsed) : 0;
		const started = threadCpu();
		const add = () => {
			stepCpu[step] = (stepCpu[step] ?? 0) + threadCpu() - started;
			if (!process.env.HEAP) return;
			global.gc?.();
			console.log(
				`  ${step} left ${((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20).toFixed(1)} MiB`,
			);
		};
		const result = original.apply(this, args);
		if (result instanceof Promise) return result.finally(add);
		add();
		return result;
	};
}

/** The e2e suites' helpers (ES modules, untyped): the emulator as its own process. */
const ENV_MODULE: string = '../test/e2e/env.mjs';
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 150);
const SENDER = { __rl: true, mode: 'list', value: 'sender@example.com' };
const TEMPLATE = { __rl: true, mode: 'list', value: 'welcome' };
const PARAMETERS: Record<string, IDataObject> = {
	dragging: {
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: SENDER,
		to: '={{ $json.email }}',
		contentSource: 'template',
		templateName: TEMPLATE,
		tagValuesMode: 'fields',
		tagValues: {
			values: [
				{ name: { __rl: true, mode: 'name', value: 'name' }, value: '={{ $json.name }}' },
				{ name: { __rl: true, mode: 'name', value: 'orderNo' }, value: '={{ $json.order }}' },
			],
		},
		options: { parallelRequests: 16 },
	},
	// Contact → Create or Update, one request per item (SEND_MODE=upsert: its phases are those of its requests).
	upsert: {
		resource: 'contact',
		operation: 'upsert',
		email: '={{ $json.email }}',
		additionalFields: { name: '={{ $json.name }}' },
		options: { parallelRequests: 16 },
	},
	inputFields: {
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: SENDER,
		recipientSource: 'inputField',
		recipientField: 'email',
		contentSource: 'template',
		templateName: TEMPLATE,
		tagValuesMode: 'inputFields',
		options: { parallelRequests: 16 },
	},
};

const items = (n: number): INodeExecutionData[] =>
	Array.from({ length: n }, (_, i) => ({
		json: { email: `r${i}@example.org`, name: `R${i}`, city: 'Paris', order: i },
	}));

async function main() {
	process.env.N8N_USER_FOLDER ??= require('node:fs').mkdtempSync(
		require('node:path').join(require('node:os').tmpdir(), 'mail-delivery-bench-'),
	);
	const mode = process.env.SEND_MODE ?? 'dragging';
	const sizes = process.argv.slice(2).map(Number);
	// The emulator in its own process, as in n8n-bulk.mjs: its work is not this process's.
	const { startEmulatorProcess } = (await import(ENV_MODULE)) as {
		startEmulatorProcess: () => Promise<{
			url: string;
			account: { apiKey: string; apiSecret: string };
			control: (method: string, route: string, body?: unknown) => Promise<any>;
			stop: () => Promise<void>;
		}>;
	};
	const emulator = await startEmulatorProcess();
	const credentials = new CredentialsStore();
	credentials.stored = {
		mailDeliverySignatureApi: {
			baseUrl: emulator.url,
			apiKey: emulator.account.apiKey,
			apiSecret: emulator.account.apiSecret,
		},
	};
	// MISSING_TAGS=send: Missing Tag Values → Send With the Tag Empty (no look-up of the template before the sends).
	const parameters = PARAMETERS[mode];
	if (process.env.MISSING_TAGS)
		parameters.options = {
			...(parameters.options as IDataObject),
			missingTagValues: process.env.MISSING_TAGS,
		};
	const workflow = actionWorkflow(parameters);
	const rounds = Number(process.env.ROUNDS ?? 1);
	const runs = [100, ...(sizes.length ? sizes : [1_000, 10_000, 100_000])].flatMap((n) =>
		n === 100 ? [n] : Array.from({ length: rounds }, () => n),
	);
	const best = new Map<
		number,
		{ read: number; output: number; cpu: number; steps: Record<string, number> }
	>();
	for (const n of runs) {
		await emulator.control('POST', 'reset');
		await emulator.control('POST', 'settings', {
			latencyMs: LATENCY_MS,
			workWithinLatency: 1,
			credits: 1e12,
		});
		const input = items(n);
		global.gc?.();
		for (const step of Object.keys(stepCpu)) delete stepCpu[step];
		const threadStart = threadCpu();
		const cpu = process.cpuUsage();
		const heap = process.memoryUsage().heapUsed;
		const started = performance.now();
		const result = await runWorkflow({ ...workflow, credentials, items: input });
		const wall = performance.now() - started;
		const used = process.cpuUsage(cpu);
		const threadUsed = threadCpu() - threadStart;
		if (result.error()) throw result.error();
		const task = result.run.data.resultData.runData['Mail Delivery'][0];
		const output = result.output('Mail Delivery');
		if (output.length !== n) throw new Error(`${output.length} outputs for ${n} items`);
		const { requests } = (await emulator.control('GET', 'requests')) as {
			requests: Array<{ path: string; at: string }>;
		};
		const sends = requests
			.filter((r) => r.path.endsWith(mode === 'upsert' ? 'contacts/upsert' : 'sends_customised'))
			.map((r) => Date.parse(r.at));
		const first = Math.min(...sends);
		const last = Math.max(...sends) + LATENCY_MS;
		const end = task.startTime + task.executionTime;
		const perItem = (ms: number) => `${((ms * 1000) / n).toFixed(1)} µs`;
		if (n === 100) continue; // warm-up
		const kept = best.get(n) ?? { read: Infinity, output: Infinity, cpu: Infinity, steps: {} };
		const steps: Record<string, number> = { ...kept.steps };
		for (const [step, ms] of Object.entries({ ...stepCpu, run: threadUsed }))
			steps[step] = Math.min(steps[step] ?? Infinity, ms);
		best.set(n, {
			read: Math.min(kept.read, first - task.startTime),
			output: Math.min(kept.output, end - last),
			cpu: Math.min(kept.cpu, (used.user + used.system) / 1000),
			steps,
		});
		console.log(
			`${mode} ${n.toLocaleString('en')}: node ${task.executionTime} ms (wall ${wall.toFixed(0)}), read ${first - task.startTime} ms (${perItem(first - task.startTime)}/item), requests ${last - first} ms (${sends.length}), output ${end - last} ms (${perItem(end - last)}/item); CPU ${((used.user + used.system) / 1000).toFixed(0)} ms (${perItem((used.user + used.system) / 1000)}/item); heap +${((process.memoryUsage().heapUsed - heap) / 2 ** 20).toFixed(0)} MiB`,
		);
	}
	const perItem = (ms: number, n: number) => `${((ms * 1000) / n).toFixed(2)} µs`;
	for (const [n, { read, output, cpu, steps }] of best)
		console.log(
			`${mode} ${n.toLocaleString('en')}, least of ${rounds}: read ${read} ms (${perItem(read, n)}/item), output ${output} ms (${perItem(output, n)}/item), process CPU ${cpu.toFixed(0)} ms; main thread CPU per item: ${Object.entries(
				steps,
			)
				.map(([step, ms]) => `${step} ${perItem(ms, n)}`)
				.join(', ')}`,
		);
	await emulator.stop();
}

void main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
