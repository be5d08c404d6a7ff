// Bulk sends and imports the way a user runs them: a real n8n of the main line (the one the tests install, n8n's default
// settings) and the emulator as its own process, every platform answer 150 ms late. Each case is a production
// Webhook → Code node making N items → the measured node; figures come from n8n's own execution records and the
// emulator's request log. `node bench/n8n-bulk.mjs [--cpu-prof DIR]`; `npm run bench` runs it last.
// BENCH_ROUNDS (default 3) runs per case, medians printed; BENCH_CASES='import|Set:' (parts of labels, apart by |,
// as labels hold commas) picks cases;
// BENCH_SIZE=500 puts 500 where a case has 10,000 items (and scales the others alike) for a quick run.
import './built.mjs';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import { randomUUID } from 'node:crypto';

import { ACTION, activate, eventually, startEmulatorProcess } from '../test/e2e/env.mjs';
import { LINES } from '../scripts/n8n-install.mjs';
import {
	itemsCode,
	measuredBehindWebhook,
	postItemCount,
	RUN_END_POLL_MS,
	sendByDragging,
	withN8n,
} from './n8n-workflow.mjs';
import { residentMiB } from '../scripts/queue-stack.mjs';
import { cpuSecondsOf } from '../scripts/processes.mjs';

const profileDir = process.argv.includes('--cpu-prof')
	? process.argv[process.argv.indexOf('--cpu-prof') + 1]
	: undefined;
const n8nOptions = { profileDir, tmpPrefix: 'mail-delivery-bench-bulk-' };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SCALE = process.env.BENCH_SIZE ? Number(process.env.BENCH_SIZE) / 10_000 : 1;
const LATENCY_MS = 150;
const RECIPIENTS_PER_REQUEST = 100; // a combined send carries at most 100 message versions
/** CPU time the process used so far (user + system), in ms. */
const processCpuMs = (pid) => cpuSecondsOf(pid) * 1000;
/** The machine's CPU counters: on a shared virtual machine, steal is time the host gave to someone else. */
const machineCpu = () => {
	const counters = readFileSync('/proc/stat', 'utf8')
		.split('\n')[0]
		.trim()
		.split(/\s+/)
		.slice(1)
		.map(Number);
	return { total: counters.reduce((sum, value) => sum + value, 0), steal: counters[7] ?? 0 };
};
const stealPercent = (before, after) =>
	((after.steal - before.steal) / Math.max(1, after.total - before.total)) * 100;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const size = (n) => Math.max(1, Math.round(n * SCALE));

const SENDER = { __rl: true, mode: 'list', value: 'sender@example.com' };
const TEMPLATE = { __rl: true, mode: 'list', value: 'welcome' };
const sendByExpressions = (parallel) => ({
	authentication: 'signature',
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: SENDER,
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: TEMPLATE,
	tagValues: { values: [{ name: 'name', value: '={{ $json.name }}' }] },
	options: { parallelRequests: parallel },
});
const inParentheses = (reference) => `(${reference})`;
const sendByInputFields = (parallel) => ({
	authentication: 'signature',
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: SENDER,
	recipientSource: 'inputField',
	recipientField: 'email',
	contentSource: 'template',
	templateName: TEMPLATE,
	tagValuesMode: 'inputFields',
	options: { parallelRequests: parallel },
});
const tagsUnchecked = (parameters) => ({
	...parameters,
	options: { ...parameters.options, missingTagValues: 'send' },
});
const IMPORT = {
	authentication: 'signature',
	resource: 'contact',
	operation: 'import',
	updateMode: 1,
	mappingMode: 'autoMapInputData',
	unknownProperties: 'custom',
};

/** Import with Map Each Field Below, each value dragged from the input. */
const IMPORT_DRAGGED = {
	authentication: 'signature',
	resource: 'contact',
	operation: 'import',
	updateMode: 1,
	mappingMode: 'defineBelow',
	contactDataMapping: {
		fields: ['email', 'name', 'city'].map((property) => ({
			propertyName: property === 'city' ? '__custom' : property,
			...(property === 'city' ? { customPropertyName: 'city' } : {}),
			value: `={{ $json.${property} }}`,
		})),
	},
};
/** Contact → Create or Update, item by item, `parallel` at once, its values dragged from the input. */
const upsertContacts = (parallel) => ({
	authentication: 'signature',
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	additionalFields: { name: '={{ $json.name }}' },
	options: { parallelRequests: parallel },
});

// The label is what BENCH_CASES matches.
const CASES = [
	{ label: 'Set: email + name', kind: 'set', n: size(10_000), fields: ['email', 'name'] },
	// Each runs right after its own Set run (`baseline`): the ratio to n8n's own cost is taken pair by pair.
	...[1, 4, 16].map((parallel) => ({
		label: `send by expressions P=${parallel}`,
		kind: 'send',
		mapping: 'expressions',
		n: size(10_000),
		parallel,
		parameters: sendByExpressions(parallel),
		baseline: 'Set: email + name',
	})),
	...[1, 4, 16].map((parallel) => ({
		label: `send by input fields P=${parallel}`,
		kind: 'send',
		mapping: 'inputFields',
		n: size(10_000),
		parallel,
		parameters: sendByInputFields(parallel),
	})),
	// With Missing Tag Values: Send With the Tag Empty, the send needs no look-up of the template before its first
	// request: what the default (Fail the Item) costs is the difference.
	{
		label: 'send by input fields, tags unchecked P=16',
		kind: 'send',
		n: size(10_000),
		parallel: 16,
		parameters: tagsUnchecked(sendByInputFields(16)),
	},
	{
		label: 'send by dragging, tags unchecked P=16',
		kind: 'send',
		n: size(10_000),
		parallel: 16,
		parameters: tagsUnchecked(sendByDragging({ parallelRequests: 16 })),
	},
	{
		label: 'send by dragging 1,000 P=16',
		kind: 'send',
		n: size(1_000),
		parallel: 16,
		parameters: sendByDragging({ parallelRequests: 16 }),
	},
	{
		label: 'send by dragging P=16',
		kind: 'send',
		n: size(10_000),
		parallel: 16,
		parameters: sendByDragging({ parallelRequests: 16 }),
	},
	{
		label: 'send by dragging, n8n evaluating P=16',
		kind: 'send',
		n: size(10_000),
		parallel: 16,
		parameters: sendByDragging({ parallelRequests: 16 }, inParentheses),
	},
	{
		label: 'send by input fields P=16 at 10 req/s',
		kind: 'send',
		mapping: 'inputFields',
		n: size(10_000),
		parallel: 16,
		rateLimit: 10,
		parameters: sendByInputFields(16),
	},
	{ label: 'Set: email (import baseline)', kind: 'set', n: size(10_000), fields: ['email'] },
	{ label: 'import by input fields', kind: 'import', n: size(10_000), parameters: IMPORT },
	{
		label: 'import by dragged fields',
		kind: 'import',
		n: size(10_000),
		parameters: IMPORT_DRAGGED,
	},
	{
		label: 'upsert 1,000 P=16',
		kind: 'upsert',
		n: size(1_000),
		parallel: 16,
		parameters: upsertContacts(16),
	},
	{
		label: 'upsert 1,000 P=1',
		kind: 'upsert',
		n: size(1_000),
		parallel: 1,
		parameters: upsertContacts(1),
	},
	// n8n's HTTP Request node has no "at most N at once": its Batching starts Items per Batch requests, then waits the
	// Batch Interval, whether they were answered or not; with an interval of 0 it does not batch at all.
	{
		label: 'HTTP Request node, 1,000 upserts, 16 every 150 ms',
		kind: 'http',
		n: size(1_000),
		parallel: 16,
		batchInterval: LATENCY_MS,
	},
	{
		label: 'HTTP Request node, 1,000 upserts all at once',
		kind: 'http',
		n: size(1_000),
		parallel: size(1_000),
		batchInterval: 0,
	},
	// Memory: a process's RSS rarely shrinks, so a rise depends on what ran before; these run each in a fresh n8n.
	{
		label: 'Set: email + name + order large',
		kind: 'set',
		n: size(100_000),
		fields: ['email', 'name', 'order'],
		freshProcess: true,
	},
	{
		label: 'send by dragging large P=16',
		kind: 'send',
		n: size(100_000),
		parallel: 16,
		parameters: sendByDragging({ parallelRequests: 16 }),
		freshProcess: true,
	},
	{
		label: 'Set: email (import baseline) large',
		kind: 'set',
		n: size(100_000),
		fields: ['email'],
		freshProcess: true,
	},
	{
		label: 'import by input fields large',
		kind: 'import',
		n: size(100_000),
		parameters: IMPORT,
		freshProcess: true,
	},
	{
		label: 'import by dragged fields large',
		kind: 'import',
		n: size(100_000),
		parameters: IMPORT_DRAGGED,
		freshProcess: true,
	},
];

/** n8n's HTTP Request node making the upserts itself, signed by this package's credential, with its batching. */
const httpRequestNode = (benchCase, credential, baseUrl) => ({
	id: randomUUID(),
	name: 'Measured',
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	position: [400, 0],
	parameters: {
		method: 'POST',
		url: `${baseUrl}/v5/contacts/upsert`,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: credential.type,
		sendBody: true,
		specifyBody: 'json',
		jsonBody: '={{ JSON.stringify({ email: $json.email, name: $json.name }) }}',
		options: {
			batching: {
				batch: { batchSize: benchCase.parallel, batchInterval: benchCase.batchInterval },
			},
		},
	},
	credentials: { [credential.type]: { id: credential.id, name: credential.name } },
});

function workflowOf(benchCase, credential, baseUrl) {
	const hookPath = `bench-bulk-${randomUUID()}`;
	const measured =
		benchCase.kind === 'http'
			? httpRequestNode(benchCase, credential, baseUrl)
			: benchCase.kind === 'set'
				? {
						id: randomUUID(),
						name: 'Measured',
						type: 'n8n-nodes-base.set',
						typeVersion: 3.4,
						position: [400, 0],
						parameters: {
							mode: 'manual',
							assignments: {
								assignments: benchCase.fields.map((field) => ({
									id: randomUUID(),
									name: field,
									value: `={{ $json.${field} }}`,
									type: 'string',
								})),
							},
							options: {},
						},
					}
				: {
						id: randomUUID(),
						name: 'Measured',
						type: ACTION,
						typeVersion: 1,
						position: [400, 0],
						parameters: benchCase.parameters,
						credentials: { [credential.type]: { id: credential.id, name: credential.name } },
					};
	return {
		hookPath,
		workflow: measuredBehindWebhook({
			name: `bench: ${benchCase.label}`,
			hookPath,
			code: itemsCode({ city: 'Paris' }),
			measured,
		}),
	};
}

async function main() {
	const load = os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(' ');
	const chosen = process.env.BENCH_CASES?.split('|').map((part) => part.trim());
	const cases = CASES.filter(({ label }) => !chosen || chosen.some((part) => label.includes(part)));
	const emulator = await startEmulatorProcess();
	const entries = cases.map((benchCase) => ({ benchCase, runs: [], baselineRuns: [] }));
	try {
		// The machine's speed drifts over minutes, and n8n's from run to run: the rounds go round the cases, so
		// every case runs early and late alike, and a case measured against a baseline runs right after its own run of it.
		const shared = entries.filter((entry) => !entry.benchCase.freshProcess);
		if (shared.length > 0) {
			await withN8n(emulator, n8nOptions, async (context) => {
				for (const entry of shared) {
					try {
						entry.bench = await prepareCase(entry.benchCase, context);
					} catch (error) {
						entry.error = describeError(error);
					}
				}
				for (const entry of shared)
					entry.baseline = shared.find(
						(other) => other.benchCase.label === entry.benchCase.baseline && !other.error,
					);
				const isPairedBaseline = (entry) => shared.some((other) => other.baseline === entry);
				for (let round = 0; round < ROUNDS; round++) {
					for (const entry of shared.filter((e) => !e.error && !isPairedBaseline(e))) {
						await runEntry(entry, async () => {
							if (entry.baseline) {
								const baselineRun = await entry.baseline.bench.run(entry.baseline.benchCase.n);
								entry.baseline.runs.push(baselineRun);
								entry.baselineRuns.push(baselineRun);
							}
							return await entry.bench.run(entry.benchCase.n);
						});
					}
					logRound(round, shared);
				}
			});
		}
		// The plain client makes the requests of each size of send at 16 that runs, once a round.
		const sendSizes = new Set(
			entries
				.filter(({ benchCase }) => benchCase.kind === 'send' && benchCase.parallel === 16)
				.map(({ benchCase }) => benchCase.n),
		);
		for (let round = 0; round < ROUNDS; round++)
			for (const n of sendSizes) {
				if (!plainClientMs.has(n)) plainClientMs.set(n, []);
				plainClientMs.get(n).push(await plainClient(emulator, n));
			}
		const fresh = entries.filter((entry) => entry.benchCase.freshProcess);
		for (let round = 0; round < ROUNDS && fresh.length > 0; round++) {
			for (const entry of fresh.filter((e) => !e.error)) {
				await runEntry(
					entry,
					async () =>
						await withN8n(
							emulator,
							n8nOptions,
							async (context) =>
								await (await prepareCase(entry.benchCase, context)).run(entry.benchCase.n),
						),
				);
			}
			logRound(round, fresh);
		}
	} finally {
		await emulator.stop();
	}
	print(
		entries.map((entry) =>
			entry.error
				? { benchCase: entry.benchCase, error: entry.error }
				: { benchCase: entry.benchCase, runs: entry.runs, baselineRuns: entry.baselineRuns },
		),
		load,
	);
}

/** The plain client's times (ms) by number of recipients, one a round: what the stand-in and this machine allow without n8n. */
const plainClientMs = new Map();

/**
 * The requests of a send of `n` recipients (⌈n/100⌉ of up to 100 messages), 16 at once, made by a plain client (Node's
 * own http, signed as the credential signs) to the same stand-in with the same settings: the floor of a send's
 * requests phase on this machine, against which the node's is read.
 */
async function plainClient(emulator, n) {
	const { signatureHeaders } = createRequire(import.meta.url)('../dist/credentials/common.js');
	await emulator.control('POST', 'reset');
	await emulator.control('POST', 'settings', { latencyMs: LATENCY_MS, workWithinLatency: 1 });
	const requests = Array.from({ length: Math.ceil(n / RECIPIENTS_PER_REQUEST) }, (_, request) =>
		JSON.stringify({
			senderMail: 'sender@example.com',
			templateName: 'welcome',
			messageVersions: Array.from({ length: RECIPIENTS_PER_REQUEST }, (_, index) => ({
				to: [{ email: `p${request * RECIPIENTS_PER_REQUEST + index}@example.org` }],
				params: { name: `P ${index}`, orderNo: String(index) },
			})),
		}),
	);
	const post = (body) =>
		new Promise((resolve, reject) => {
			const { apiKey, apiSecret } = emulator.account;
			const request = http.request(
				`${emulator.url}/v5/transactional/mail/sends_customised`,
				{
					method: 'POST',
					headers: {
						'Content-Type': 'application/json',
						'Content-Length': Buffer.byteLength(body),
						...signatureHeaders(apiKey, apiSecret),
					},
				},
				(response) => response.resume().on('end', resolve),
			);
			request.on('error', reject);
			request.end(body);
		});
	const started = Date.now();
	let next = 0;
	await Promise.all(
		Array.from({ length: 16 }, async () => {
			while (next < requests.length) await post(requests[next++]);
		}),
	);
	return Date.now() - started;
}

async function runEntry(entry, measureOnce) {
	try {
		entry.runs.push(await measureOnce());
	} catch (error) {
		// One case failing (say, parameters the node does not know yet) must not hide the others.
		entry.error = describeError(error);
	}
}

function logRound(round, entries) {
	const last = (e) =>
		`${seconds(e.runs.at(-1)?.nodeMs)} (CPU ${seconds(e.runs.at(-1)?.cpuMs)}, steal ${Math.round(e.runs.at(-1)?.stealPct)} %)`;
	console.log(
		`  round ${round + 1}: ${entries.map((e) => `${e.benchCase.label} ${e.error ? 'failed' : last(e)}`).join(', ')}`,
	);
}

const describeError = (error) => {
	if (process.env.BENCH_DEBUG) console.error(error);
	return error.message + (error.cause ? ` (${error.cause.message ?? error.cause})` : '');
};

/** Activates the case's workflow and warms it up; `run(n)` measures one execution. */
async function prepareCase(benchCase, { session, credential, emulator, n8n }) {
	const { workflow, hookPath } = workflowOf(benchCase, credential, emulator.url);
	const workflowId = await activate(session, workflow);
	const url = `${n8n.baseUrl}/webhook/${hookPath}`;
	// A busy n8n now and then resets a polling connection, and a Set node over 100,000 items holds its event loop
	// for minutes: ask again rather than fail the case.
	const executions = async () =>
		(
			await eventually(
				() =>
					session.api('GET', `/executions?workflowId=${workflowId}&limit=20`).catch(() => false),
				'the execution list',
				900_000,
			)
		).data ?? [];
	const newestId = async () => Math.max(0, ...(await executions()).map((e) => Number(e.id)));

	/** One execution of `n` items; the emulator starts from its seeded state each time. */
	async function run(n) {
		await emulator.control('POST', 'reset');
		await emulator.control('POST', 'settings', {
			latencyMs: LATENCY_MS,
			// Every answer leaves 150 ms after its request arrived, the platform's work within that time, as on a
			// platform whose servers work side by side: the emulator's own work (one process) does not add to it.
			workWithinLatency: 1,
			...(benchCase.rateLimit ? { rateLimitPerSecond: benchCase.rateLimit } : {}),
		});
		const afterId = await newestId();
		// VmHWM only grows over the process's life: sample VmRSS instead and take this case's rise.
		const before = residentMiB(n8n.pid);
		const cpuBefore = processCpuMs(n8n.pid);
		const machineBefore = machineCpu();
		let peak = before;
		const sampler = setInterval(() => (peak = Math.max(peak, residentMiB(n8n.pid) ?? 0)), 100);
		let execution;
		try {
			await postItemCount(url, n);
			execution = await eventually(
				async () => {
					if (n8n.child.exitCode !== null)
						throw new Error(
							`n8n exited with ${n8n.child.exitCode}: ${n8n.output.join('').slice(-2000)}`,
						);
					return (await executions()).find((e) => Number(e.id) > afterId && e.stoppedAt);
				},
				'the execution to end',
				900_000,
				RUN_END_POLL_MS,
			);
		} finally {
			clearInterval(sampler);
		}
		const full = await session.api('GET', `/executions/${execution.id}?includeData=true`);
		const resultData = full.data?.resultData ?? {};
		if (execution.status !== 'success' || resultData.error) {
			throw new Error(
				`execution ${execution.id} ${execution.status}: ${resultData.error?.message ?? ''} ${resultData.error?.description ?? ''}`.trim(),
			);
		}
		const node = resultData.runData.Measured[0];
		const outputItems = (node.data?.main ?? []).reduce(
			(sum, output) => sum + (output?.length ?? 0),
			0,
		);
		if (outputItems !== n) throw new Error(`the node gave ${outputItems} items for ${n}`);
		const figures = {
			wallMs: new Date(execution.stoppedAt).getTime() - new Date(execution.startedAt).getTime(),
			nodeMs: node.executionTime,
			peakMiB: peak - before,
			cpuMs: processCpuMs(n8n.pid) - cpuBefore,
			stealPct: stealPercent(machineBefore, machineCpu()),
		};
		if (benchCase.kind === 'set') return figures;

		const { requests, throttled, lateAnswers } = await emulator.control('GET', 'requests');
		const v5 = requests.filter((r) => r.path.startsWith('/v5/'));
		// The log keeps the time each request was processed, as it arrived; its answer left LATENCY_MS later.
		const arrivedAt = (path) =>
			v5.filter((r) => !path || r.path === path).map((r) => Date.parse(r.at));
		// The phases of the node's own requests (a send's look-up of its template is not one of them).
		const own = arrivedAt(MEASURED_PATH[benchCase.kind]);
		const firstSentAt = Math.min(...own);
		const lastAnsweredAt = Math.max(...own) + LATENCY_MS;
		// Look-ups answered before the first request for the items (a send's template, under Fail the Item).
		const lookups = v5
			.filter((r) => r.path !== MEASURED_PATH[benchCase.kind])
			.map((r) => Date.parse(r.at))
			.filter((at) => at < firstSentAt);
		Object.assign(figures, {
			beforeFirstMs: Math.min(...arrivedAt()) - node.startTime,
			lookedUpMs: lookups.length ? Math.max(...lookups) + LATENCY_MS - node.startTime : undefined,
			readMs: firstSentAt - node.startTime,
			requestsPhaseMs: lastAnsweredAt - firstSentAt,
			outputMs: node.startTime + node.executionTime - lastAnsweredAt,
			requests: v5.length + throttled[429] + throttled[503],
			refused: throttled[429],
			// How late the stand-in's answers left after their 150 ms: its own process, or the machine, busy.
			lateP50Ms: quantile(lateAnswers, 0.5),
			lateP90Ms: quantile(lateAnswers, 0.9),
		});
		await check(benchCase, n, emulator, v5);
		return figures;
	}

	await run(Math.min(100, benchCase.n)); // warm-up: node types loaded, first-run costs paid
	return { run };
}

/** Every recipient mailed exactly once; every row imported exactly once, with its name and custom property. */
async function check(benchCase, n, emulator, v5) {
	const wanted = (i) => `r${i}@example.org`;
	if (benchCase.kind === 'send') {
		const { mails } = await emulator.control('GET', 'mails');
		const counts = new Map();
		for (const mail of mails) counts.set(mail.email, (counts.get(mail.email) ?? 0) + 1);
		const missing = Array.from({ length: n }, (_, i) => wanted(i)).filter(
			(email) => counts.get(email) !== 1,
		);
		if (mails.length !== n || missing.length)
			throw new Error(
				`${mails.length} mails for ${n} recipients; not exactly once: ${missing.slice(0, 3).join(', ')}`,
			);
		return;
	}
	if (benchCase.kind === 'upsert' || benchCase.kind === 'http') {
		const saved = v5.filter((r) => r.code === 200 && r.path === '/v5/contacts/upsert');
		const emails = new Set(saved.map((r) => r.body?.email));
		if (saved.length !== n || emails.size !== n)
			throw new Error(`${saved.length} contacts saved (${emails.size} addresses) for ${n} items`);
		return;
	}
	const rows = v5
		.filter((r) => r.code === 200)
		.reduce((sum, r) => sum + (r.body?.contactData?.length ?? 0), 0);
	const { contacts } = await emulator.control('GET', 'state');
	const byEmail = new Map(contacts.map((c) => [c.email, c]));
	const wrong = Array.from({ length: n }, (_, i) => i).filter(
		(i) =>
			byEmail.get(wanted(i))?.name !== `R${i}` ||
			byEmail.get(wanted(i))?.properties?.city !== 'Paris',
	);
	if (rows !== n || wrong.length)
		throw new Error(
			`${rows} rows sent for ${n} items; wrong or missing contacts: ${wrong.slice(0, 3).map(wanted).join(', ')}`,
		);
}

// ---- output ---------------------------------------------------------------------------------------

const seconds = (ms) =>
	ms === undefined
		? '—'
		: ms >= 10_000
			? `${(ms / 1000).toFixed(1)} s`
			: `${(ms / 1000).toFixed(2)} s`;
const ratio = (value) => (Number.isFinite(value) ? value.toFixed(2) : '—');

/** The path of the requests a case's node makes for its items (the others are look-ups). */
const MEASURED_PATH = {
	send: '/v5/transactional/mail/sends_customised',
	upsert: '/v5/contacts/upsert',
	http: '/v5/contacts/upsert',
	import: '/v5/contacts/imports',
};

/** Ideal request time: a send's ⌈N/100⌉ requests, or one request per item, `parallel` at a time, 150 ms each. */
const idealMs = ({ kind, n, parallel }) =>
	kind === 'send'
		? (Math.ceil(n / RECIPIENTS_PER_REQUEST) / parallel) * LATENCY_MS
		: kind === 'upsert' || kind === 'http'
			? Math.ceil(n / parallel) * LATENCY_MS
			: undefined;

/** The q-quantile of the values (undefined when there are none). */
function quantile(values, q) {
	if (!values?.length) return undefined;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function summary(result) {
	const { runs } = result;
	const pick = (key) => (runs[0][key] === undefined ? undefined : median(runs.map((r) => r[key])));
	return {
		wallMs: pick('wallMs'),
		nodeMs: pick('nodeMs'),
		beforeFirstMs: pick('beforeFirstMs'),
		readMs: pick('readMs'),
		lookedUpMs: pick('lookedUpMs'),
		requestsPhaseMs: pick('requestsPhaseMs'),
		outputMs: pick('outputMs'),
		cpuMs: pick('cpuMs'),
		stealPct: pick('stealPct'),
		requests: pick('requests'),
		refused: runs[0].refused === undefined ? undefined : runs.map((r) => r.refused),
		peakMiB: pick('peakMiB'),
		lateP50Ms: pick('lateP50Ms'),
		lateP90Ms: pick('lateP90Ms'),
		peakMaxMiB: Math.max(...runs.map((r) => r.peakMiB)),
	};
}

const COLUMNS = [
	['case', 38],
	['N', 7],
	['wall', 8],
	['node', 8],
	['first req', 9],
	['read', 7],
	['requests', 8],
	['output', 7],
	['requests (429s)', 18],
	['answers late p50/p90', 20],
	['ideal', 7],
	['node÷ideal', 10],
	['node÷(Set+ideal)', 18],
	['peak RSS +MiB (max)', 19],
	['n8n CPU', 8],
	['CPU÷Set CPU', 18],
	['steal', 5],
];

function line(result) {
	const { benchCase } = result;
	if (result.error) return `${benchCase.label.padEnd(COLUMNS[0][1])} | failed: ${result.error}`;
	const s = summary(result);
	const ideal = idealMs(benchCase);
	// The expressions' own cost in n8n: the Set node over the same items with the same two expressions, run just before.
	const ratios = (result.baselineRuns ?? [])
		.map((baselineRun, round) => result.runs[round]?.nodeMs / (baselineRun.nodeMs + ideal))
		.filter(Number.isFinite);
	const cpuRatios = (result.baselineRuns ?? [])
		.map((baselineRun, round) => result.runs[round]?.cpuMs / baselineRun.cpuMs)
		.filter(Number.isFinite);
	const spread = (values) =>
		values.length
			? `${ratio(median(values))} (${ratio(Math.min(...values))}–${ratio(Math.max(...values))})`
			: '—';
	const cells = [
		benchCase.label,
		benchCase.n.toLocaleString('en'),
		seconds(s.wallMs),
		seconds(s.nodeMs),
		seconds(s.beforeFirstMs),
		seconds(s.readMs),
		seconds(s.requestsPhaseMs),
		seconds(s.outputMs),
		s.requests === undefined ? '—' : `${s.requests} (${s.refused.join('/')})`,
		s.lateP90Ms === undefined ? '—' : `${Math.round(s.lateP50Ms)} / ${Math.round(s.lateP90Ms)} ms`,
		seconds(ideal),
		ratio(s.nodeMs / ideal),
		spread(ratios),
		`${s.peakMiB} (${s.peakMaxMiB})`,
		seconds(s.cpuMs),
		spread(cpuRatios),
		`${Math.round(s.stealPct)} %`,
	];
	return cells.map((cell, i) => String(cell).padEnd(COLUMNS[i][1])).join(' | ');
}

function print(results, load) {
	console.log(`
Bulk sends and imports inside a real n8n ${LINES[2].n8n} (n8n's default settings, one process for all cases but the 100,000-row
pair, whose runs each have a fresh process; SQLite, execution data saved); the emulator as its own process answering every request ${LATENCY_MS} ms late. ${os.cpus().length} cores, load average
${load} at the start (the machine may be shared). Medians of ${ROUNDS} runs after one 100-item warm-up per case, the rounds
interleaved (case A, B, C, A, B, C, …) so that drift falls on every case alike${SCALE === 1 ? '' : `; sizes scaled by ${SCALE}`}.
wall = the execution's startedAt→stoppedAt; node = the measured node's executionTime; first req = node start → its first
platform request (a send's look-up of its template included); read = node start → its first request for its items (reading and
checking every item, and whatever must come before); requests = that request → the last answer (first answer − ${LATENCY_MS} ms);
output = last answer → node end (the items' outputs); requests counts refused ones, 429s per run in brackets; answers late = how long after its 150 ms the stand-in's
answer left (its one process or the machine busy: time that is neither the node's nor a real platform's), median and 90th percentile; ideal = ⌈N/100⌉ ÷ P × ${LATENCY_MS} ms; Set = the Set node's
time with the same two expressions over the same N, run just before the send in each round: the ratio's median (lowest–
highest) over the rounds, pair by pair;
peak RSS = the n8n process's VmRSS sampled every 100 ms, maximum minus the value before the run (median, max of runs;
the Code node runs in n8n's task runner, another process, not counted); n8n CPU = CPU time of n8n's main process over the run
(execution start to the bench seeing its end; median), a figure the machine's contention does not inflate as it does
wall times, and CPU÷Set CPU its ratio to the Set run's, pair by pair like node÷(Set+ideal); steal = share of the machine's CPU time its host gave to others during the run (median).
`);
	console.log(COLUMNS.map(([name, width]) => name.padEnd(width)).join(' | '));
	console.log(COLUMNS.map(([, width]) => '-'.repeat(width)).join('-|-'));
	for (const result of results) console.log(line(result));
	printTargets(results);
	// Under a rate limit the ideal above is not reachable: the limit sets its own floor.
	for (const { benchCase } of results.filter((r) => r.benchCase.rateLimit)) {
		const requests = Math.ceil(benchCase.n / RECIPIENTS_PER_REQUEST);
		const floor =
			(Math.max(0, requests - benchCase.rateLimit) / benchCase.rateLimit) * 1000 + LATENCY_MS;
		console.log(
			`${benchCase.label}: ${requests} requests at ${benchCase.rateLimit} per second cannot end before ${seconds(floor)} after the first.`,
		);
	}
}

/** n8n's memory growth for the send of 100,000 on the day issue 47 was filed: the node must not need more. */
const MEMORY_BEFORE_MIB = 954;

/**
 * The targets (issue 47), each a ratio or a figure of this run: sends and Create or Update to their ideal, the
 * phases of the send of 100,000, its memory, and Import mapped field by field to Import mapped automatically (with
 * n8n's HTTP Request node making the same upserts beside them).
 */
function printTargets(results) {
	const byLabel = new Map(results.filter((r) => !r.error).map((r) => [r.benchCase.label, r]));
	const figure = (label, key) =>
		byLabel.has(label) ? summary(byLabel.get(label))[key] : undefined;
	const toIdeal = (label) =>
		byLabel.has(label)
			? figure(label, 'nodeMs') / idealMs(byLabel.get(label).benchCase)
			: undefined;
	const large = 'send by dragging large P=16';
	const targets = [
		[
			'send by dragging large P=16 (100,000) ÷ its ideal',
			ratio(toIdeal(large)),
			toIdeal(large),
			1.15,
		],
		[
			'send by dragging P=16 (10,000) ÷ its ideal',
			ratio(toIdeal('send by dragging P=16')),
			toIdeal('send by dragging P=16'),
			1.35,
		],
		[
			'send by input fields P=16 (10,000) ÷ its ideal',
			ratio(toIdeal('send by input fields P=16')),
			toIdeal('send by input fields P=16'),
			1.35,
		],
		[
			'upsert 1,000 P=16 ÷ its ideal',
			ratio(toIdeal('upsert 1,000 P=16')),
			toIdeal('upsert 1,000 P=16'),
			1.08,
		],
		[
			'send by dragging large P=16: read (node start → first send)',
			seconds(figure(large, 'readMs')),
			figure(large, 'readMs') / 1000,
			0.4,
		],
		[
			'send by dragging large P=16: output (last answer → node end)',
			seconds(figure(large, 'outputMs')),
			figure(large, 'outputMs') / 1000,
			0.3,
		],
		[
			'send by dragging large P=16: n8n memory growth, MiB',
			figure(large, 'peakMiB'),
			figure(large, 'peakMiB'),
			MEMORY_BEFORE_MIB,
		],
		[
			'import by dragged fields large ÷ import by input fields large',
			ratio(
				figure('import by dragged fields large', 'nodeMs') /
					figure('import by input fields large', 'nodeMs'),
			),
			figure('import by dragged fields large', 'nodeMs') /
				figure('import by input fields large', 'nodeMs'),
			1.5,
		],
		[
			"HTTP Request node's 1,000 upserts, 16 every 150 ms ÷ the same ideal (beside it)",
			ratio(toIdeal('HTTP Request node, 1,000 upserts, 16 every 150 ms')),
			toIdeal('HTTP Request node, 1,000 upserts, 16 every 150 ms'),
		],
	].filter(([, , value]) => Number.isFinite(value));
	printGrowth(byLabel);
	printClientFloor(byLabel);
	if (targets.length === 0) return;
	console.log('\nTargets (median figures of this run):');
	for (const [label, shown, value, target] of targets)
		console.log(
			`  ${label}: ${shown}${target ? ` (target ≤ ${target}: ${value <= target ? 'met' : 'NOT met'})` : ''}`,
		);
}

/** The sends at 16 beside the plain client making the same requests: how much of their time is n8n's and the node's. */
function printClientFloor(byLabel) {
	if (plainClientMs.size === 0) return;
	console.log(
		`\nA plain client (Node's http, no n8n) making the same requests of up to 100 messages, 16 at once, to the same stand-in (rounds in brackets):`,
	);
	for (const [n, times] of plainClientMs) {
		const rounds = Math.ceil(Math.ceil(n / RECIPIENTS_PER_REQUEST) / 16);
		console.log(
			`  ${n.toLocaleString('en')} recipients: ${seconds(median(times))} (${times.map(seconds).join(', ')}); the floor ${rounds} rounds × ${LATENCY_MS} ms = ${seconds(rounds * LATENCY_MS)}`,
		);
	}
	for (const [label, s] of [...byLabel]
		.filter(([, r]) => r.benchCase.kind === 'send' && r.benchCase.parallel === 16)
		.map(([label, r]) => [label, summary(r)])) {
		const floor = median(plainClientMs.get(byLabel.get(label).benchCase.n) ?? []);
		if (!Number.isFinite(floor)) continue;
		console.log(
			`  ${label}: node ${seconds(s.nodeMs)} = ${ratio(s.nodeMs / floor)} × the plain client; its requests ${seconds(s.requestsPhaseMs)} = ${ratio(s.requestsPhaseMs / floor)} ×`,
		);
	}
}

const microseconds = (ms, n) => (Number.isFinite(ms) ? `${((ms * 1000) / n).toFixed(1)} µs` : '—');

/**
 * The send built by dragging fields as it grows from 1,000 to 100,000 items: its time, the ideal and the floor
 * (⌈⌈N/100⌉ ÷ 16⌉ rounds of 150 ms: requests go 16 at a time), its phases, and the node's cost per item (read and
 * output, each divided by N: a cost that does not grow with N is the node's own, one that shrinks hides a fixed
 * cost), and n8n's memory beside n8n's Set node reading the same three fields of the same items.
 */
function printGrowth(byLabel) {
	const rows = [
		'send by dragging 1,000 P=16',
		'send by dragging P=16',
		'send by dragging large P=16',
	]
		.filter((label) => byLabel.has(label))
		.map((label) => ({ result: byLabel.get(label), s: summary(byLabel.get(label)) }));
	if (rows.length < 2) return;
	console.log(
		"\nThe send built by dragging fields, 16 at once, as it grows (looked up = node start → the template's look-up answered, which the first send waits for; per item: read ÷ N, output ÷ N, both):",
	);
	console.log(
		'items    | node    | ideal   | floor   | node÷ideal | node÷floor | looked up | read    | requests | output  | per item: read / output / both | peak RSS +MiB',
	);
	for (const { result, s } of rows) {
		const { n } = result.benchCase;
		const floor = Math.ceil(Math.ceil(n / RECIPIENTS_PER_REQUEST) / 16) * LATENCY_MS;
		console.log(
			[
				n.toLocaleString('en').padEnd(8),
				seconds(s.nodeMs).padEnd(7),
				seconds(idealMs(result.benchCase)).padEnd(7),
				seconds(floor).padEnd(7),
				ratio(s.nodeMs / idealMs(result.benchCase)).padEnd(10),
				ratio(s.nodeMs / floor).padEnd(10),
				seconds(s.lookedUpMs).padEnd(9),
				seconds(s.readMs).padEnd(7),
				seconds(s.requestsPhaseMs).padEnd(8),
				seconds(s.outputMs).padEnd(7),
				`${microseconds(s.readMs, n)} / ${microseconds(s.outputMs, n)} / ${microseconds(s.readMs + s.outputMs, n)}`.padEnd(
					30,
				),
				s.peakMiB,
			].join(' | '),
		);
	}
	const set = byLabel.get('Set: email + name + order large');
	if (set)
		console.log(
			`n8n's Set node over the same ${set.benchCase.n.toLocaleString('en')} items (email, name, order): ${seconds(summary(set).nodeMs)}, peak RSS +${summary(set).peakMiB} MiB`,
		);
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
