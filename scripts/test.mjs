// The README's test command: install what is missing (not counted in the time budget), the project's lint and `npm
// run verify` (n8n's verification points; it builds dist/ for the suites) side by side, jest, then the tooling's
// tests and the end-to-end suites two at a time; at the end a table of each suite's time, a line saying whether the
// run kept to its budget, and one closing line with the totals. `--unit` runs only the in-process suites (jest and
// the tooling's tests).
import { exec, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { e2ePreconditions, e2eTasks, lanes, lastTimes, rememberTimes } from '../test/e2e/run.mjs';
import { ensureDependencies, root, run } from './ensure-deps.mjs';
import { installN8n } from './n8n-install.mjs';
import { StackUnavailable, ensureQueueDependencies } from './queue-stack.mjs';
import { installRegistry } from './registry.mjs';
import { reapedChildrenCpuSeconds, runInLanes, runSuite, stopAllSuites } from './suites.mjs';
import { ensureChromium } from './system-packages.mjs';

/** What a run may take without installs, in minutes: on this project's 2-core machine, quiet and busy. */
const BUDGET = { quiet: 30, busy: 45 };

const unitOnly = process.argv.includes('--unit');
const reports = path.join(root, '.tmp');
mkdirSync(reports, { recursive: true });
const runStarted = Date.now();
const rows = [];
// The machine's load through the run: a busy machine is allowed the longer budget.
const loads = [];
setInterval(() => loads.push(os.loadavg()[0]), 15_000).unref();
for (const signal of ['SIGINT', 'SIGTERM'])
	process.on(signal, () => {
		stopAllSuites();
		process.exit(130);
	});

const seconds = (ms) => Math.round(ms / 1000);
const minutes = (ms) =>
	`${Math.floor(ms / 60_000)} min ${String(seconds(ms) % 60).padStart(2, '0')} s`;

/**
 * Runs `step`, recording its time and the CPU seconds of the processes that ended meanwhile under `name`; a step
 * that throws fails the run, after the others.
 */
async function timed(name, step, { install = false } = {}) {
	const started = Date.now();
	const cpuBefore = reapedChildrenCpuSeconds();
	const row = { name, ok: true, install };
	rows.push(row);
	let ok = true;
	try {
		await step();
	} catch (error) {
		ok = false;
		console.error(`${name} failed: ${error.message}`);
	}
	Object.assign(row, {
		ms: Date.now() - started,
		ok,
		cpuSeconds: reapedChildrenCpuSeconds() - cpuBefore,
	});
	return ok;
}

/** A shell command whose output lines are printed after `prefix`; rejects when it fails. */
const prefixed = (command, prefix) =>
	new Promise((resolve, reject) => {
		const child = exec(command, { cwd: root, maxBuffer: 64 * 1024 * 1024 });
		const print = (chunk) =>
			chunk
				.toString()
				.split('\n')
				.filter(Boolean)
				.forEach((line) => console.log(`${prefix} ${line}`));
		child.stdout.on('data', print);
		child.stderr.on('data', print);
		child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit code ${code}`))));
	});

// Installs first, each once per machine (the install cache): not counted in the budget.
await timed(
	'installs (dependencies, n8n, Chromium, verdaccio, PostgreSQL, Redis)',
	async () => {
		ensureDependencies();
		installN8n('2');
		installN8n('1'); // jest's item-references suite reads both lines
		if (unitOnly) return;
		installRegistry();
		try {
			ensureChromium();
		} catch (error) {
			console.error(`${error.message}: the browser suite will fail`);
		}
		try {
			ensureQueueDependencies();
		} catch (error) {
			// The queue suite says why it skips (or fails, under MAIL_DELIVERY_REQUIRE_QUEUE).
			if (!(error instanceof StackUnavailable)) throw error;
		}
	},
	{ install: true },
);

// The lint and verify side by side; verify builds dist/, which the suites load.
const cpuBeforeLint = reapedChildrenCpuSeconds();
await Promise.all([
	timed('lint (prettier, tsc, eslint, code size, exports, cycles)', () =>
		prefixed('npm run -s lint:project', '[lint]'),
	),
	timed('verify (n8n-node lint and build, scanner, metadata)', () =>
		prefixed('npm run -s verify', '[verify]'),
	),
]);
// Side by side, each would count what the other's processes spent as they ended: their CPU together, on lint's row.
const [lintRow, verifyRow] = rows.slice(-2);
lintRow.cpuSeconds = reapedChildrenCpuSeconds() - cpuBeforeLint;
verifyRow.cpuSeconds = undefined;

// jest alone: it keeps both cores busy itself.
const jestReport = path.join(reports, 'jest.json');
await timed('jest', () => run(`npx jest --ci --json --outputFile="${jestReport}"`));
const jest = existsSync(jestReport) ? JSON.parse(readFileSync(jestReport, 'utf8')) : undefined;
let passed = jest?.numPassedTests ?? 0;
let failed = jest ? jest.numFailedTests + jest.numRuntimeErrorTestSuites : 1;
let skipped = jest?.numPendingTests ?? 0;
const skips = [];
const failures = (jest?.testResults ?? []).flatMap((file) =>
	file.assertionResults
		.filter((test) => test.status === 'failed')
		.map(
			(test) =>
				`jest ${path.relative(root, file.name)}: ${test.fullName}\n      ${(test.failureMessages[0] ?? '').split('\n').slice(0, 3).join(' ').slice(0, 400)}`,
		),
);
const slowestJest = (jest?.testResults ?? [])
	.map((file) => ({ name: path.relative(root, file.name), ms: file.endTime - file.startTime }))
	.sort((a, b) => b.ms - a.ms)
	.slice(0, 5);

// The tooling's tests (node:test), a task per file, and the end-to-end suites: side by side in lanes.
const times = lastTimes();
const toolingTasks = readdirSync(path.join(root, 'test', 'tooling'))
	.filter((file) => file.endsWith('.test.mjs'))
	.map((file) => {
		const name = `tooling ${file.replace('.test.mjs', '')}`;
		return {
			name,
			cost: times[name] ?? 0,
			run: async () => ({
				name,
				...(await runSuite({
					file: path.join('test', 'tooling', file),
					tap: path.join(reports, `tooling-${file}.tap`),
					prefix: `[${name}]`,
					cwd: root,
					limitMs: 60 * 60_000,
				})),
			}),
		};
	});
let e2eTasksToRun = [];
const problems = [];
if (!unitOnly) {
	e2eTasksToRun = e2eTasks();
	problems.push(...e2ePreconditions(e2eTasksToRun));
}
const laneStarted = Date.now();
const results = await runInLanes([...toolingTasks, ...e2eTasksToRun], lanes());
const laneMs = Date.now() - laneStarted;
rememberTimes(results);
for (const result of results) {
	passed += result.passed;
	failed += result.failed + (result.ok || result.failed > 0 ? 0 : 1); // a suite that failed before counting
	skipped += result.skipped;
	skips.push(...result.skips);
	failures.push(...(result.failures ?? []).map((failure) => `${result.name}: ${failure}`));
	rows.push({
		name: result.name,
		ms: result.ms,
		ok: result.ok,
		lane: true,
		cpuSeconds: result.cpuSeconds,
	});
}

// The table: installs apart, then each step and suite; suites in lanes overlap, so the lanes' own wall time too.
const totalMs = Date.now() - runStarted;
const installMs = rows.filter((row) => row.install).reduce((sum, row) => sum + row.ms, 0);
const budgetMs = totalMs - installMs;
const width = Math.max(...rows.map((row) => row.name.length), 40);
const cpu = (value) =>
	value === undefined || Number.isNaN(value) ? ''.padStart(7) : `${Math.round(value)}`.padStart(7);
const line = (name, ms, note = '', cpuSeconds) =>
	console.log(
		`  ${name.padEnd(width)} ${String(seconds(ms)).padStart(6)} s ${cpu(cpuSeconds)}  ${note}`,
	);
console.log(
	`\nTime per suite (wall seconds, then CPU seconds of its processes; ${lanes()} lanes side by side for the tooling and end-to-end suites; lint and verify side by side, their CPU together on lint's row):`,
);
for (const row of rows) {
	line(
		row.name,
		row.ms,
		[row.install ? '(not counted)' : '', row.ok ? '' : 'FAILED'].join(' ').trim(),
		row.install ? undefined : row.cpuSeconds,
	);
	if (row.name === 'jest')
		for (const file of slowestJest) line(`  ${file.name}`, file.ms, "(one of jest's 2 workers)");
}
const laneCpu = rows.filter((row) => row.lane).reduce((sum, row) => sum + row.cpuSeconds, 0);
line('tooling and end-to-end suites, wall time of the lanes', laneMs, '', laneCpu);
line('the whole run without installs', budgetMs);
const load = loads.length
	? loads.reduce((sum, value) => sum + value, 0) / loads.length
	: os.loadavg()[0];
const took = `${minutes(budgetMs)} without installs (load average ${load.toFixed(1)} through the run)`;
if (budgetMs <= BUDGET.quiet * 60_000)
	console.log(`\nWithin budget: ${took}, of the ${BUDGET.quiet} min allowed on a quiet machine.`);
else if (budgetMs <= BUDGET.busy * 60_000)
	console.log(
		`\nOVER the ${BUDGET.quiet}-min budget of a quiet machine: ${took}; within the ${BUDGET.busy} min allowed only if both cores were busy with other work.`,
	);
else
	console.log(
		`\nOVER BUDGET: ${took}, more than the ${BUDGET.busy} min allowed even with both cores busy (${BUDGET.quiet} min quiet).`,
	);
for (const problem of problems) console.log(`Failed: ${problem}`);
if (failures.length > 0) {
	console.log("\nTests that failed (their whole output is above, after their suite's name):");
	for (const failure of failures) console.log(`  ${failure}`);
}

console.log(`\nAll suites (jest, tooling${unitOnly ? '' : ' and end-to-end'}):`);
for (const skip of skips) console.log(`  ${skip}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
const stepsFailed = rows.some((row) => !row.ok) || problems.length > 0;
if (failed > 0 || stepsFailed) process.exit(1);
process.exit(0);
