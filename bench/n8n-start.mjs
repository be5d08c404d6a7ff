// What one start of n8n costs the test suites (issue 53): the same n8n of the main line started again and again
// in a new user folder, as a suite starts it, with and without its editor (N8N_DISABLE_UI) and Node's compile
// cache, side by side in one run. Wall time until /healthz/readiness answers, and the CPU seconds n8n's process
// spent until then (its task runner apart).
//
// node bench/n8n-start.mjs [--rounds 2]
import './built.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startN8n } from '../scripts/n8n-runtime.mjs';
import { cpuSecondsOf } from '../scripts/processes.mjs';

const at = process.argv.indexOf('--rounds');
const ROUNDS = at > 0 ? Number(process.argv[at + 1]) : 2;

const cache = mkdtempSync(path.join(os.tmpdir(), 'n8n-start-cache-'));
const variants = [
	['with its editor, no compile cache', { editor: true, cache: false }],
	['with its editor and the compile cache', { editor: true, cache: true }],
	['without its editor, no compile cache', { editor: false, cache: false }],
	['without its editor, with the compile cache', { editor: false, cache: true }],
];
const results = new Map(variants.map(([name]) => [name, []]));
// The cache is written by a first start: one start fills it before the rounds.
const warm = mkdtempSync(path.join(os.tmpdir(), 'n8n-start-'));
await (
	await startN8n({ line: '2', userFolder: warm, extraEnv: { NODE_COMPILE_CACHE: cache } })
).stop();
rmSync(warm, { recursive: true, force: true });

for (let round = 0; round < ROUNDS; round++)
	for (const [name, { editor, cache: cached }] of variants) {
		const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-start-'));
		const started = Date.now();
		const n8n = await startN8n({
			line: '2',
			userFolder,
			editor,
			extraEnv: cached ? { NODE_COMPILE_CACHE: cache } : { NODE_DISABLE_COMPILE_CACHE: '1' },
		});
		results.get(name).push({ ms: Date.now() - started, cpu: cpuSecondsOf(n8n.pid) });
		await n8n.stop();
		rmSync(userFolder, { recursive: true, force: true });
	}
rmSync(cache, { recursive: true, force: true });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const base = median(results.get(variants[0][0]).map((run) => run.cpu));
console.log(
	`n8n 2.41.3 started in a new user folder, ${ROUNDS} rounds (medians; load average ${os.loadavg()[0].toFixed(1)} at the end):`,
);
for (const [name, runs] of results) {
	const cpu = median(runs.map((run) => run.cpu));
	console.log(
		`  ${name.padEnd(44)} ${(median(runs.map((run) => run.ms)) / 1000).toFixed(1).padStart(5)} s to ready, ${cpu.toFixed(1).padStart(5)} CPU s (${((cpu / base) * 100).toFixed(0)}% of the first)`,
	);
}
