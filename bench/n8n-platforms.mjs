// How the default number of requests at once does on five kinds of platform (issue 61), beside fixed Requests in
// Parallel settings, in a real n8n of the main line (n8n's default settings) with the emulator as its own process on
// this machine (loopback), answers 150 ms late:
//   plain      answers 150 ms late however many come at once;
//   overload   "unavailable" (503, at once) above 24 under way;
//   queueing   8 requests worked at a time (150 ms each), the others wait their turn;
//   rate       10 requests a second, "too many requests" (429, at once) beyond;
//   varying    answers 50 to 250 ms late (150 on average, at random) however many come at once.
// Each case is a production Webhook → Code node making N items → Transactional Mail → Send built by dragging fields,
// every option at its default but Requests in Parallel. Every recipient is checked to get exactly one mail.
//
// The default keeps what a run found of a platform for the runs after it to the same credential (within the hour), so
// it is measured twice: the first run (a credential of its own, new to this n8n, as after a restart) and the runs
// after it (the same credential).
//
// node bench/n8n-platforms.mjs [--sends 10000,50000] [--fixed 4,16,64] [--rounds 2] [--platforms plain,overload,…]
// Printed per platform and size: the default's time on the first run and on the runs after (the node's executionTime,
// median of the rounds) and each one's ratio to the best fixed setting's, each fixed setting's time, the share of the
// default's attempts refused, the most requests under way at the platform, and the answer time the node saw (median;
// its execution hint).
import './built.mjs';
import { randomUUID } from 'node:crypto';
import os from 'node:os';

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
	withN8n,
} from './n8n-workflow.mjs';

const SENDS = numbers(flag('sends', '10000,50000'));
const FIXED = numbers(flag('fixed', '4,16,64'));
const ROUNDS = Number(flag('rounds', '2'));
const LATENCY_MS = 150;

const PLATFORMS = {
	plain: { label: 'answers 150 ms late', settings: { workWithinLatency: 1 } },
	overload: {
		label: '503 at once above 24 under way',
		settings: { workWithinLatency: 1, maxUnderWay: 24, refuseAtOnce: 1 },
	},
	queueing: { label: '8 worked at a time, the rest queue', settings: { workersAtOnce: 8 } },
	rate: {
		label: '10 a second, 429 beyond',
		settings: { workWithinLatency: 1, rateLimitPerSecond: 10, refuseAtOnce: 1 },
	},
	varying: {
		label: 'answers 50 to 250 ms late',
		settings: { workWithinLatency: 1, latencyMs: 50, latencyJitterMs: 200 },
	},
};
const CHOSEN = String(flag('platforms', Object.keys(PLATFORMS).join(','))).split(',');

/** The send by dragging fields; `parallel` undefined: Requests in Parallel at its default. */
const send = (parallel) =>
	sendByDragging(parallel === undefined ? {} : { parallelRequests: parallel });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(2)} s`);

/** A workflow measuring the send with `parallel`; `run(n, platform)` makes one execution and returns its figures. */
async function prepare(parallel, { session, credential, emulator, n8n }, { warmUp = true } = {}) {
	const hookPath = `platforms-${randomUUID()}`;
	const workflow = measuredBehindWebhook({
		name: `bench: platforms P=${parallel ?? 'default'}`,
		hookPath,
		code: itemsCode(),
		measured: {
			id: randomUUID(),
			name: 'Measured',
			type: ACTION,
			typeVersion: 1,
			position: [400, 0],
			parameters: send(parallel),
			credentials: { mailDeliverySignatureApi: { id: credential.id, name: credential.name } },
		},
	});
	const workflowId = await activate(session, workflow);
	const url = `${n8n.baseUrl}/webhook/${hookPath}`;
	const executions = async () =>
		(
			await eventually(
				() => session.api('GET', `/executions?workflowId=${workflowId}&limit=5`).catch(() => false),
				'the execution list',
				900_000,
			)
		).data ?? [];
	const run = async (n, platform) => {
		await emulator.control('POST', 'reset');
		await emulator.control('POST', 'settings', { latencyMs: LATENCY_MS, ...platform.settings });
		const afterId = Math.max(0, ...(await executions()).map((e) => Number(e.id)));
		await postItemCount(url, n);
		const execution = await eventually(
			async () => (await executions()).find((e) => Number(e.id) > afterId && e.stoppedAt),
			'the execution to end',
			900_000,
			RUN_END_POLL_MS,
		);
		const full = await session.api('GET', `/executions/${execution.id}?includeData=true`);
		const resultData = full.data?.resultData ?? {};
		if (execution.status !== 'success' || resultData.error)
			throw new Error(
				`execution ${execution.id} ${execution.status}: ${resultData.error?.message ?? ''}`,
			);
		const node = resultData.runData.Measured[0];
		const { requests, throttled, peakUnderWay } = await emulator.control('GET', 'requests');
		const sends = requests.filter((r) => r.path === '/v5/transactional/mail/sends_customised');
		const { mails } = await emulator.control('GET', 'mails');
		const counts = new Map();
		for (const mail of mails) counts.set(mail.email, (counts.get(mail.email) ?? 0) + 1);
		const notOnce = [...Array(n).keys()].filter((i) => counts.get(`r${i}@example.org`) !== 1);
		if (mails.length !== n || notOnce.length > 0)
			throw new Error(
				`${mails.length} mails for ${n} recipients; not exactly once: r${notOnce[0]}`,
			);
		const refused = throttled[429] + throttled[503];
		const hint = (node.hints ?? [])
			.map((h) => h.message)
			.find((m) => m.includes('followed the platform'));
		return {
			ms: node.executionTime,
			attempts: sends.length + refused,
			refused,
			peakUnderWay,
			answerMs: Number(hint?.match(/Answers took (\d+) ms/)?.[1]) || undefined,
			hint,
		};
	};
	// Warm-up: node types loaded, first-run costs paid (one request: nothing found of the platform is kept).
	if (warmUp) await run(100, { settings: {} });
	return run;
}

async function main() {
	const load = os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(' ');
	const emulator = await startEmulatorProcess();
	const settings = [undefined, ...FIXED];
	const results = new Map();
	try {
		await withN8n(emulator, { tmpPrefix: 'mail-delivery-bench-platforms-' }, async (context) => {
			const runs = new Map();
			for (const parallel of settings) runs.set(parallel, await prepare(parallel, context));
			// n8n's first large execution in a process is slower than the ones after it (its code not yet optimised: the
			// first run of 10,000 took 1.22 s, the same run in the next round 0.86 s). One unmeasured run of the largest
			// size, at the largest fixed setting, pays that, so no measured setting does.
			const warmUp = runs.get(Math.max(...FIXED));
			for (const n of [...new Set(SENDS)].sort((a, b) => a - b))
				await warmUp(n, { settings: PLATFORMS.plain.settings });
			let credentials = 0;
			for (const name of CHOSEN)
				for (const n of SENDS)
					for (let round = 0; round < ROUNDS; round++) {
						// The first run: the default with a credential new to this n8n (its workflow warmed up by the
						// others: the same node types and code), one per round; the runs after it use its credential.
						const credential = await createCredential(
							context.session,
							'mailDeliverySignatureApi',
							credentialData(context.emulator, 'mailDeliverySignatureApi'),
							`bench: first run ${++credentials}`,
						);
						const first = await prepare(undefined, { ...context, credential }, { warmUp: false });
						const measure = async (key, runOnce) => {
							if (!results.has(key)) results.set(key, []);
							const result = await runOnce(n, PLATFORMS[name]);
							results.get(key).push(result);
							console.log(`  ${key}: ${seconds(result.ms)}, ${result.refused} refused`);
						};
						await measure(`${name} ${n} first`, first);
						// Settings side by side within a round: the machine's drift falls on all alike.
						for (const parallel of settings)
							await measure(
								`${name} ${n} ${parallel ?? 'default'}`,
								parallel === undefined ? first : runs.get(parallel),
							);
					}
		});
	} finally {
		await emulator.stop();
	}
	console.log(
		`\nThe default (its first run on a credential new to n8n, and the runs after it) beside fixed Requests in Parallel, ${CHOSEN.length} platforms, in a real n8n ${LINES[2].n8n} (n8n's default settings) on this machine, the emulator as its own process on loopback, answers ${LATENCY_MS} ms late (on average where they vary); Transactional Mail → Send built by dragging fields, 100 recipients a request, every recipient checked to get one mail. Medians of ${ROUNDS} rounds${ROUNDS % 2 === 0 ? ' (the slower of the middle two)' : ''}, after one unmeasured run of each size at fixed ${Math.max(...FIXED)} (n8n's first large execution is slower). ${os.cpus().length} cores, load average ${load} at the start.`,
	);
	console.log(`\`node bench/n8n-platforms.mjs ${process.argv.slice(2).join(' ')}\`\n`);
	const header = [
		'platform',
		'sends',
		'default, first run',
		'÷ best fixed',
		'default, runs after',
		'÷ best fixed',
		...FIXED.map((p) => `fixed ${p}`),
		'refused (first; after)',
		'most under way (first; after)',
		'answers (first; after, median)',
	];
	console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
	for (const name of CHOSEN)
		for (const n of SENDS) {
			const of = (parallel) => results.get(`${name} ${n} ${parallel ?? 'default'}`) ?? [];
			const timeOf = (parallel) => median(of(parallel).map((r) => r.ms));
			const best = Math.min(...FIXED.map(timeOf));
			const refusedShare = (runs) =>
				`${(
					(runs.reduce((sum, r) => sum + r.refused, 0) /
						Math.max(
							1,
							runs.reduce((sum, r) => sum + r.attempts, 0),
						)) *
					100
				).toFixed(1)}%`;
			const first = of('first');
			const after = of(undefined);
			console.log(
				`| ${PLATFORMS[name].label} | ${n.toLocaleString('en')} | ${seconds(timeOf('first'))} | ${(timeOf('first') / best).toFixed(2)}x | ${seconds(timeOf(undefined))} | ${(timeOf(undefined) / best).toFixed(2)}x | ${FIXED.map((p) => seconds(timeOf(p))).join(' | ')} | ${refusedShare(first)}; ${refusedShare(after)} | ${median(first.map((r) => r.peakUnderWay))}; ${median(after.map((r) => r.peakUnderWay))} | ${median(first.map((r) => r.answerMs)) ?? '—'} ms; ${median(after.map((r) => r.answerMs)) ?? '—'} ms |`,
			);
		}
	for (const name of CHOSEN)
		for (const n of SENDS)
			for (const which of ['first', 'default'])
				console.log(
					`\n${PLATFORMS[name].label}, ${n}, ${which === 'first' ? 'first run' : 'a run after'}: ${results.get(`${name} ${n} ${which}`)?.at(-1)?.hint ?? '—'}`,
				);
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
