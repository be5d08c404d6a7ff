// The platform where users meet it (issue 52): across the internet, over HTTPS, with the node and n8n at their
// defaults. A real n8n of the main line (n8n's default settings; it trusts the emulator's certificate by
// NODE_EXTRA_CA_CERTS) runs a production Webhook → Code node making N items → the node with every option at its
// default, against the emulator as its own process over HTTPS as if 50 and 150 ms away (emulator/distance.cts: TCP
// and TLS handshakes and every request and answer delayed). Beside each case, a plain Node client makes the same
// requests to the same stand-in, 16 at once, over 16 kept connections and with a new connection per request; and
// the same cases on loopback (plain HTTP, every answer 150 ms late, as bench/n8n-bulk.mjs measures them).
//
// node bench/n8n-distant.mjs [--sends 10000,100000] [--upserts 1000] [--distances 50,150] [--loopback|--no-loopback]
//                            [--rate-limit|--no-rate-limit] [--http-node|--no-http-node] [--unchecked|--no-unchecked]
//                            [--rounds 1] [--also-fixed 4] [--timeline] [--cpu-prof DIR]
// --unchecked (on by default) runs the first send at each distance also with Options → Missing Tag Values: Send With the
// Tag Empty, which needs no look-up of the template before the first request: the default check's cost, side by side.
// --also-fixed 4 runs each send and Create or Update also with Options → Requests in Parallel set to 4 (the default
// before issue 52), right after the same case at the defaults: before and after in one run.
// --rounds N runs each case N times and prints medians; a send of 10,000 or fewer runs at least 3 times.
// `npm run bench` runs it last with its defaults.
import './built.mjs';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

import {
	ACTION,
	activate,
	createCredential,
	credentialData,
	eventually,
	startEmulatorProcess,
} from '../test/e2e/env.mjs';
import { LINES } from '../scripts/n8n-install.mjs';
import {
	itemsCode,
	measuredBehindWebhook,
	postItemCount,
	RUN_END_POLL_MS,
	flag,
	numbers,
	sendByDragging,
} from './n8n-workflow.mjs';
import { setupOwner, startN8n } from '../scripts/n8n-runtime.mjs';
import { cpuSecondsOf } from '../scripts/processes.mjs';

const SENDS = numbers(flag('sends', '10000,100000'));
const UPSERTS = numbers(flag('upserts', '1000'));
const DISTANCES = numbers(flag('distances', '50,150'));
const LOOPBACK = flag('loopback', true) !== false;
const RATE_LIMIT = flag('rate-limit', true) !== false;
const HTTP_NODE = flag('http-node', true) !== false;
const ROUNDS = Number(flag('rounds', '1'));
/**
 * Runs of a send of 10,000 or fewer at least (not under a rate limit): one such run lasts 1 to 3 s, and one run's
 * figure moves by a tenth from one run to the next on a shared machine, as much as its target's margin.
 */
const SMALL_SEND_ROUNDS = 3;
const roundsOf = ({ kind, n, rateLimit }) =>
	kind === 'send' && n <= 10_000 && !rateLimit ? Math.max(ROUNDS, SMALL_SEND_ROUNDS) : ROUNDS;
/** --timeline: for each run, when its requests reached the platform, counted by 100 ms from the node's start. */
const TIMELINE = flag('timeline', false) !== false;
/** --cpu-prof DIR: n8n writes a CPU profile there when it stops (and the runs' monotonic times are printed). */
const PROFILE_DIR = flag('cpu-prof', false) || undefined;
const ALSO_FIXED = flag('also-fixed', false) ? Number(flag('also-fixed', false)) : undefined;
const UNCHECKED = flag('unchecked', true) !== false;
/** A case's options beside the defaults: what its row says, and the node's Options it sets. */
const fixedVariant = (parallel) => ({
	label: `Requests in Parallel ${parallel}`,
	options: { parallelRequests: parallel },
});
const UNCHECKED_VARIANT = {
	label: 'Missing Tag Values: Send With the Tag Empty',
	options: { missingTagValues: 'send' },
};
/** Loopback as bench/n8n-bulk.mjs measures it: plain HTTP, every answer this late. */
const LOOPBACK_LATENCY_MS = 150;
const RECIPIENTS_PER_REQUEST = 100;
/** The plain client's requests at once, as the issue's reference client. */
const CLIENT_AT_ONCE = 16;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '—');
const ratio = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');

/** Contact → Create or Update, item by item, every option at its default. */
const upsertContacts = (options = {}) => ({
	authentication: 'signature',
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	additionalFields: { name: '={{ $json.name }}' },
	options,
});

/** n8n's HTTP Request node making the upserts itself, signed by this package's credential: Batching 16 every 150 ms. */
const httpRequestNode = (credential, baseUrl) => ({
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
		options: { batching: { batch: { batchSize: 16, batchInterval: 150 } } },
	},
	credentials: { [credential.type]: { id: credential.id, name: credential.name } },
});

function workflowOf(kind, credential, baseUrl, options) {
	const hookPath = `bench-distant-${randomUUID()}`;
	const measured =
		kind === 'http'
			? httpRequestNode(credential, baseUrl)
			: {
					id: randomUUID(),
					name: 'Measured',
					type: ACTION,
					typeVersion: 1,
					position: [400, 0],
					parameters: (kind === 'send' ? sendByDragging : upsertContacts)(options),
					credentials: { [credential.type]: { id: credential.id, name: credential.name } },
				};
	return {
		hookPath,
		workflow: measuredBehindWebhook({
			name: `bench distant: ${kind} ${hookPath}`,
			hookPath,
			code: itemsCode(),
			measured,
		}),
	};
}

/** The settings of one place: over HTTPS `distanceMs` away, or loopback with answers 150 ms late. */
const placeSettings = (place, rateLimit) =>
	place.distanceMs
		? { distanceMs: place.distanceMs, ...(rateLimit ? { rateLimitPerSecond: rateLimit } : {}) }
		: {
				latencyMs: LOOPBACK_LATENCY_MS,
				workWithinLatency: 1,
				...(rateLimit ? { rateLimitPerSecond: rateLimit } : {}),
			};

/** A workflow for `kind` against `emulator`, activated and warmed up; `run(n)` measures one execution. */
async function prepare(kind, { session, n8n }, { emulator, credential, place, options }) {
	const { workflow, hookPath } = workflowOf(kind, credential, emulator.url, options);
	const workflowId = await activate(session, workflow);
	const url = `${n8n.baseUrl}/webhook/${hookPath}`;
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
	async function run(n, rateLimit) {
		await emulator.control('POST', 'reset');
		await emulator.control('POST', 'settings', placeSettings(place, rateLimit));
		const afterId = await newestId();
		const cpuBefore = { n8n: cpuSecondsOf(n8n.pid), standIn: cpuSecondsOf(emulator.pid) };
		await postItemCount(url, n);
		const execution = await eventually(
			async () => (await executions()).find((e) => Number(e.id) > afterId && e.stoppedAt),
			'the execution to end',
			900_000,
			RUN_END_POLL_MS,
		);
		const cpu = {
			n8n: cpuSecondsOf(n8n.pid) - cpuBefore.n8n,
			standIn: cpuSecondsOf(emulator.pid) - cpuBefore.standIn,
		};
		const full = await session.api('GET', `/executions/${execution.id}?includeData=true`);
		const resultData = full.data?.resultData ?? {};
		if (execution.status !== 'success' || resultData.error)
			throw new Error(
				`execution ${execution.id} ${execution.status}: ${resultData.error?.message ?? ''} ${resultData.error?.description ?? ''}`.trim(),
			);
		const node = resultData.runData.Measured[0];
		const items = (node.data?.main ?? []).reduce((sum, output) => sum + (output?.length ?? 0), 0);
		if (items !== n) throw new Error(`the node gave ${items} items for ${n}`);
		const { requests, throttled, connections, arrivals } = await emulator.control(
			'GET',
			'requests',
		);
		await check(kind, n, emulator, requests);
		if (TIMELINE) console.log(timeline(node, arrivals));
		if (PROFILE_DIR) {
			// The node's run on the profile's clock (monotonic, µs): its start and end read from the wall clock.
			const monotonicUs = (epochMs) =>
				Math.round(epochMs * 1000 - (Date.now() * 1000 - Number(process.hrtime.bigint() / 1000n)));
			console.log(
				`    the node ran ${monotonicUs(node.startTime)}-${monotonicUs(node.startTime + node.executionTime)} (µs, the profile's clock)`,
			);
		}
		// The pace it chose: requests at once, and the rate after a 429.
		const hint =
			(node.hints ?? [])
				.map((h) => h.message)
				.filter((message) =>
					/^(Requests in parallel followed|After the platform's first)/.test(message),
				)
				.join(' ') || undefined;
		return {
			nodeMs: node.executionTime,
			// CPU seconds over the run (from the webhook's call to the bench seeing the end: n8n's includes saving the
			// execution): a stand-in near a whole core is what held the run, not the distance.
			cpu,
			// Refused requests are not in the emulator's log: counted apart.
			requests:
				requests.filter((r) => r.path.startsWith('/v5/')).length + throttled[429] + throttled[503],
			refused: throttled[429] + throttled[503],
			connections,
			hint,
		};
	}
	await run(Math.min(100, kind === 'send' ? SENDS[0] : UPSERTS[0])); // warm-up
	return { run };
}

/**
 * When the node's requests reached the platform: the first to the millisecond, counts by 100 ms from the node's start, then from its last
 * request to the node's end. Shows where a run waits (before its first request, between rounds, after its last).
 */
function timeline(node, arrivals) {
	const start = node.startTime;
	const bins = new Map();
	for (const { at } of arrivals) {
		const bin = Math.floor((at - start) / 100);
		bins.set(bin, (bins.get(bin) ?? 0) + 1);
	}
	const lastAt = Math.max(...arrivals.map(({ at }) => at));
	const firstAt = Math.min(...arrivals.map(({ at }) => at));
	return `    timeline (ms from the node's start: requests arriving; the first at ${firstAt - start} ms): ${[
		...bins,
	]
		.sort(([a], [b]) => a - b)
		.map(([bin, count]) => `${bin * 100}: ${count}`)
		.join(', ')}; last arrival to the node's end ${start + node.executionTime - lastAt} ms`;
}

/** Every recipient mailed exactly once; every contact saved once. */
async function check(kind, n, emulator, requests) {
	if (kind === 'send') {
		const { mails } = await emulator.control('GET', 'mails');
		const emails = new Set(mails.map((mail) => mail.email));
		if (mails.length !== n || emails.size !== n)
			throw new Error(`${mails.length} mails (${emails.size} addresses) for ${n} recipients`);
		return;
	}
	const saved = requests.filter((r) => r.code === 200 && r.path === '/v5/contacts/upsert');
	const emails = new Set(saved.map((r) => r.body?.email));
	if (saved.length !== n || emails.size !== n)
		throw new Error(`${saved.length} contacts saved (${emails.size} addresses) for ${n} items`);
}

/** The bodies of the requests a node makes for `n` items of `kind`, signed by the same credential. */
function requestsOf(kind, n) {
	if (kind === 'send')
		return Array.from({ length: Math.ceil(n / RECIPIENTS_PER_REQUEST) }, (_, request) => ({
			path: '/v5/transactional/mail/sends_customised',
			body: JSON.stringify({
				senderMail: 'sender@example.com',
				templateName: 'welcome',
				messageVersions: Array.from(
					{ length: Math.min(RECIPIENTS_PER_REQUEST, n - request * RECIPIENTS_PER_REQUEST) },
					(_, index) => ({
						to: [{ email: `p${request * RECIPIENTS_PER_REQUEST + index}@example.org` }],
						params: { name: `P ${index}`, orderNo: String(index) },
					}),
				),
			}),
		}));
	return Array.from({ length: n }, (_, i) => ({
		path: '/v5/contacts/upsert',
		body: JSON.stringify({ email: `p${i}@example.org`, name: `P${i}` }),
	}));
}

/**
 * A plain Node client (no n8n) making the same requests, CLIENT_AT_ONCE at once: over that many kept connections
 * (`kept`), or a new connection per request. Resolves with its time in ms.
 */
async function plainClient(emulator, place, kind, n, kept) {
	const { signatureHeaders } = createRequire(import.meta.url)('../dist/credentials/common.js');
	await emulator.control('POST', 'reset');
	await emulator.control('POST', 'settings', placeSettings(place));
	const secure = emulator.url.startsWith('https:');
	const ca = emulator.certificateFile ? readFileSync(emulator.certificateFile) : undefined;
	const agent = kept
		? new (secure ? https : http).Agent({ keepAlive: true, maxSockets: CLIENT_AT_ONCE, ca })
		: new (secure ? https : http).Agent({ keepAlive: false, ca });
	const requests = requestsOf(kind, n);
	const { apiKey, apiSecret } = emulator.account;
	const post = ({ path: route, body }) =>
		new Promise((resolve, reject) => {
			const request = (secure ? https : http).request(
				`${emulator.url}${route}`,
				{
					method: 'POST',
					agent,
					headers: {
						'Content-Type': 'application/json',
						'Content-Length': Buffer.byteLength(body),
						...signatureHeaders(apiKey, apiSecret),
					},
				},
				(response) =>
					response.resume().on('end', () => {
						if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`));
						else resolve();
					}),
			);
			request.on('error', reject);
			request.end(body);
		});
	const started = Date.now();
	let next = 0;
	try {
		await Promise.all(
			Array.from({ length: CLIENT_AT_ONCE }, async () => {
				while (next < requests.length) await post(requests[next++]);
			}),
		);
	} finally {
		agent.destroy();
	}
	return Date.now() - started;
}

/** One n8n process of the main line with an owner, trusting `certificateFile`, for the time of `use`. */
async function withN8n(certificateFile, use) {
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'mail-delivery-bench-distant-'));
	const n8n = await startN8n({
		line: '2',
		userFolder,
		extraEnv: { N8N_LOG_LEVEL: 'warn', NODE_EXTRA_CA_CERTS: certificateFile },
		nodeArgs: PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
	});
	try {
		return await use({ session: await setupOwner(n8n.baseUrl), n8n });
	} finally {
		await n8n.stop();
	}
}

function cases() {
	const places = [
		...DISTANCES.map((distanceMs) => ({ label: `HTTPS ${distanceMs} ms`, distanceMs })),
		...(LOOPBACK ? [{ label: `loopback HTTP, answers ${LOOPBACK_LATENCY_MS} ms late` }] : []),
	];
	const all = [];
	for (const place of places) {
		for (const kind of ['send', 'upsert'])
			for (const n of kind === 'send' ? SENDS : UPSERTS) {
				all.push({ place, kind, n });
				if (ALSO_FIXED) all.push({ place, kind, n, variant: fixedVariant(ALSO_FIXED) });
				if (UNCHECKED && kind === 'send' && n === SENDS[0] && place.distanceMs)
					all.push({ place, kind, n, variant: UNCHECKED_VARIANT });
			}
		if (HTTP_NODE && UPSERTS.length)
			all.push({ place, kind: 'http', n: UPSERTS[0], clientOf: 'upsert' });
	}
	const farthest = DISTANCES.at(-1);
	if (RATE_LIMIT && farthest && SENDS.length)
		all.push({
			place: places.find((place) => place.distanceMs === farthest),
			kind: 'send',
			n: SENDS[0],
			rateLimit: 10,
		});
	return all;
}

const describe = ({ kind, n, rateLimit, variant }) =>
	`${kind === 'send' ? 'Send (dragged fields)' : kind === 'upsert' ? 'Create or Update' : 'HTTP Request node, Batching 16 / 150 ms: upserts'} ${n.toLocaleString('en')}${rateLimit ? ` under ${rateLimit} requests/s` : ''}${variant ? `, ${variant.label}` : ''}`;

async function main() {
	const load = os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(' ');
	const distant = await startEmulatorProcess(0, {
		EMULATOR_DISTANCE_MS: String(DISTANCES[0] ?? 150),
	});
	const loopback = LOOPBACK ? await startEmulatorProcess() : undefined;
	const all = cases();
	const startedAt = Date.now();
	try {
		await withN8n(distant.certificateFile, async (context) => {
			const credentials = new Map();
			for (const emulator of [distant, loopback].filter(Boolean))
				credentials.set(
					emulator,
					await createCredential(
						context.session,
						'mailDeliverySignatureApi',
						credentialData(emulator, 'mailDeliverySignatureApi'),
						`bench: ${emulator.url}`,
					),
				);
			// n8n's first large execution in a process is slower than the ones after it (its code not yet optimised).
			// One unmeasured send of the first size, on loopback at a fixed number (which keeps nothing of the platform
			// for the node's default), pays that, so no case's first run does.
			const firstSend = all.find((c) => c.kind === 'send');
			if (firstSend) {
				const warmUpPlace = loopback ?? distant;
				const warmUp = await prepare('send', context, {
					emulator: warmUpPlace,
					credential: credentials.get(warmUpPlace),
					place: warmUpPlace === loopback ? { label: 'loopback' } : firstSend.place,
					options: { parallelRequests: 64 },
				});
				await warmUp.run(firstSend.n);
			}
			// A platform under a rate limit has it from the first run on: its cases use a credential of their own, new
			// to n8n (with the others' credential, the run started at the number they ended with, 64 at once, as if the
			// platform had begun to limit the rate since: 55 of 156 attempts refused, once).
			const limited = new Map();
			const credentialOf = async (emulator, rateLimit) => {
				if (!rateLimit) return credentials.get(emulator);
				if (!limited.has(emulator))
					limited.set(
						emulator,
						await createCredential(
							context.session,
							'mailDeliverySignatureApi',
							credentialData(emulator, 'mailDeliverySignatureApi'),
							`bench: ${emulator.url} under a rate limit`,
						),
					);
				return limited.get(emulator);
			};
			for (const benchCase of all) {
				const emulator = benchCase.place.distanceMs ? distant : loopback;
				try {
					const bench = await prepare(benchCase.kind, context, {
						emulator,
						credential: await credentialOf(emulator, benchCase.rateLimit),
						place: benchCase.place,
						options: benchCase.variant?.options ?? {},
					});
					benchCase.runs = [];
					const ownClient = !benchCase.rateLimit && !benchCase.clientOf && !benchCase.variant;
					if (ownClient) [benchCase.kept, benchCase.fresh] = [[], []];
					// Each round: n8n's run, then the plain client's runs of the same requests (n8n idle), so that
					// both are measured on the machine as it is then (it may be shared and its load drift).
					for (let round = 0; round < roundsOf(benchCase); round++) {
						benchCase.runs.push(await bench.run(benchCase.n, benchCase.rateLimit));
						if (!ownClient) continue;
						for (const [kept, times] of [
							[true, benchCase.kept],
							[false, benchCase.fresh],
						])
							times.push(
								await plainClient(emulator, benchCase.place, benchCase.kind, benchCase.n, kept),
							);
					}
				} catch (error) {
					benchCase.error = error.message;
				}
				const last = benchCase.runs?.at(-1);
				console.log(
					`  ${benchCase.place.label}, ${describe(benchCase)}: ${benchCase.error ?? `${seconds(last.nodeMs)}, ${last.requests} requests (${last.refused} refused), ${last.connections || '—'} connections${benchCase.kept?.length && !benchCase.variant && !benchCase.clientOf ? `; plain client ${seconds(benchCase.kept.at(-1))} kept, ${seconds(benchCase.fresh.at(-1))} new connections` : ''}`}`,
				);
			}
		});
		// The HTTP Request node and the rate-limited send are read against the plain client's same requests.
		for (const benchCase of all.filter((c) => c.rateLimit || c.clientOf || c.variant)) {
			const same = all.find(
				(other) =>
					other.place === benchCase.place &&
					other.kind === (benchCase.clientOf ?? benchCase.kind) &&
					other.n === benchCase.n &&
					!other.rateLimit &&
					!other.variant,
			);
			benchCase.kept = same?.kept;
			benchCase.fresh = same?.fresh;
		}
	} finally {
		await distant.stop();
		await loopback?.stop();
	}
	print(all, load, Date.now() - startedAt);
}

function print(all, load, tookMs) {
	const perCase = ROUNDS === 1 ? 'one run per case' : `medians of ${ROUNDS} runs`;
	const roundsSaid =
		ROUNDS >= SMALL_SEND_ROUNDS
			? perCase
			: `${perCase} (medians of ${SMALL_SEND_ROUNDS} for sends of 10,000 or fewer not under a rate limit)`;
	console.log(`
The node at its defaults (no option set) in a real n8n ${LINES[2].n8n} (n8n's defaults, one process, SQLite, execution
data saved; NODE_EXTRA_CA_CERTS the emulator's certificate), against the emulator as its own process: over HTTPS as if
${DISTANCES.join(' and ')} ms away (TCP and TLS handshakes, each request and answer delayed; the platform's own work at once),
and on loopback over plain HTTP with every answer ${LOOPBACK_LATENCY_MS} ms late (bench/n8n-bulk.mjs's stand-in). node = the node's
executionTime in n8n's record; connections = TCP connections the platform saw (HTTPS only); plain client = Node's
http(s) with no n8n making the same requests ${CLIENT_AT_ONCE} at once, over ${CLIENT_AT_ONCE} kept connections / with a new connection per
request, run right after the case in n8n (n8n idle). CPU÷node = CPU time of n8n's process (all its threads) and of the stand-in
(the emulator with its distance proxy) from the webhook's call to the bench seeing the run's end (n8n's includes saving the run), over the node's
time: a stand-in near 100 % (one core) held the run, which a real platform's own servers would not. ${os.cpus().length} cores, load average ${load} at the start (the machine may be shared); ${roundsSaid}, after a
100-item warm-up per case and one unmeasured send of the first size at a fixed 64 before them all (n8n's first large
execution is slower). The node keeps what a run found of the platform (how many at once) for the runs after it to
the same credential within the hour: first run = the case's first; the first case at each place starts from 16, every
run after it where the one before ended; the cases under a rate limit use a credential of their own (a platform
that limits the rate from the first run on). ${seconds(tookMs)} in all, load average ${os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(
			' ',
		)} at the end.${ALSO_FIXED ? ` Rows with "Requests in Parallel ${ALSO_FIXED}" set that option (a fixed number: the default before issue 52 was 4), each run right after the same case at the defaults.` : ''}${UNCHECKED ? ` Rows with "${UNCHECKED_VARIANT.label}" set that option (no look-up of the template before the first request, which the default, Fail the Item, waits for), each run right after the same case at the defaults.` : ''}
`);
	const rows = all.map((c) => {
		if (c.error) return [c.place.label, describe(c), `failed: ${c.error}`];
		const node = median(c.runs.map((r) => r.nodeMs));
		const kept = c.kept ? median(c.kept) : undefined;
		const fresh = c.fresh ? median(c.fresh) : undefined;
		const last = c.runs.at(-1);
		return [
			c.place.label,
			describe(c),
			seconds(node),
			seconds(c.runs[0].nodeMs),
			`${last.requests} (${last.refused})`,
			last.connections ? String(last.connections) : '—',
			seconds(kept),
			seconds(fresh),
			ratio(node / kept),
			ratio(node / fresh),
			`${percentOf(c.runs, 'n8n')} / ${percentOf(c.runs, 'standIn')}`,
		];
	});
	const header = [
		'where',
		'case',
		'node',
		'first run',
		'requests (refused)',
		'connections',
		'client kept',
		'client new conn.',
		'node÷kept',
		'node÷new conn.',
		'CPU÷node: n8n / stand-in',
	];
	const widths = header.map((title, i) =>
		Math.max(title.length, ...rows.map((row) => String(row[i] ?? '').length)),
	);
	console.log(header.map((title, i) => title.padEnd(widths[i])).join(' | '));
	console.log(widths.map((width) => '-'.repeat(width)).join('-|-'));
	for (const row of rows)
		console.log(row.map((cell, i) => String(cell).padEnd(widths[i])).join(' | '));
	console.log('\nWhat the node chose (its execution hint, last run of each case):');
	for (const c of all.filter((c) => c.runs?.length))
		console.log(
			`  ${c.place.label}, ${describe(c)}: ${c.runs.at(-1).hint ?? '(no hint: fixed or too few requests to change)'}`,
		);
	for (const c of all.filter((c) => c.rateLimit && c.runs?.length)) {
		const { requests, refused } = c.runs.at(-1);
		const needed = Math.ceil(c.n / RECIPIENTS_PER_REQUEST);
		console.log(
			`\n${c.place.label}, ${describe(c)}: ${refused} of ${requests} requests refused (${((refused / requests) * 100).toFixed(0)} %); ${needed} requests at ${c.rateLimit}/s cannot end before ${seconds(((needed - c.rateLimit) / c.rateLimit) * 1000)} after the first; node ${seconds(median(c.runs.map((r) => r.nodeMs)))} = ${ratio(median(c.runs.map((r) => r.nodeMs)) / ((needed / c.rateLimit) * 1000))} of ${seconds((needed / c.rateLimit) * 1000)}.`,
		);
	}
	printTargets(all);
}

/** A process's CPU time over a run as a share of the node's time (median of the runs): 100 % is one core. */
const percentOf = (runs, process) =>
	`${(median(runs.map((r) => (r.cpu[process] * 1000) / r.nodeMs)) * 100).toFixed(0)} %`;

/** Issue 52's targets at the farthest distance, each read from this run's figures. */
function printTargets(all) {
	const farthest = DISTANCES.at(-1);
	if (!farthest) return;
	const at = (kind, n, rateLimit) =>
		all.find(
			(c) =>
				c.place.distanceMs === farthest &&
				c.kind === kind &&
				c.n === n &&
				!c.variant &&
				Boolean(c.rateLimit) === Boolean(rateLimit) &&
				c.runs?.length,
		);
	const nodeMs = (c) => median(c.runs.map((r) => r.nodeMs));
	const targets = [];
	// Issue 52's targets; issue 61 took the 10,000 sends' from 1.5 to 1.35 (runs after the first to the platform).
	for (const [kind, n, most] of [
		['send', 100_000, 1.3],
		['send', 10_000, 1.35],
		['upsert', 1_000, 1.3],
	]) {
		const c = at(kind, n);
		if (c?.kept)
			targets.push([
				`${describe(c)} ÷ the plain client keeping 16 connections`,
				nodeMs(c) / median(c.kept),
				most,
			]);
	}
	const limited = at('send', 10_000, 10);
	if (limited) {
		const { requests, refused } = limited.runs.at(-1);
		targets.push([
			`${describe(limited)}: share of requests refused`,
			refused / requests,
			0.1,
			'share',
		]);
		targets.push([`${describe(limited)} ÷ 10 s`, nodeMs(limited) / 10_000, 1.3]);
	}
	if (targets.length === 0) return;
	console.log(`\nTargets at HTTPS ${farthest} ms (issues 52 and 61), from this run:`);
	for (const [label, value, most, unit] of targets)
		console.log(
			`  ${label}: ${unit === 'share' ? `${(value * 100).toFixed(0)} %` : ratio(value)} (target ≤ ${unit === 'share' ? `${most * 100} %` : ratio(most)}: ${value <= most ? 'met' : 'NOT met'})`,
		);
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
