// Runs the end-to-end suites: for each n8n line (default: 2 then 1; E2E_LINES=2 for one) its suites (E2E_SUITES=
// main,trigger-faults,browser,… picks some), two at a time (E2E_LANES), each suite in a process of its own with its
// own n8n, emulator and ports. Both lines run the fault suites (a platform failing a chosen request: the trigger's
// record, Retry On Fail, time-outs) and Send and Wait for Response; line 2 also runs the MCP suite, the browser suite
// (the editor in Chromium), the install suite (the package from a registry), the queue-mode suite and a sample of
// the history explorer's histories (explorer); both run the retries suite (never twice around n8n's Retry).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { root } from '../../scripts/ensure-deps.mjs';
import { engineMismatch, installN8n } from '../../scripts/n8n-install.mjs';
import { runInLanes, runSuite, stopAllSuites } from '../../scripts/suites.mjs';

export const SUITES = {
	2: [
		'main',
		'trigger-faults',
		'send-faults',
		'retries',
		'explorer',
		'send-and-wait',
		'mcp',
		'browser',
		'install',
		'queue',
	],
	1: ['main', 'trigger-faults', 'send-faults', 'retries', 'send-and-wait'],
};

/**
 * Seconds each suite took on a busy 2-core machine (2026-11-28), for the order of a first run: the longest start
 * first, so that none is left to run alone at the end.
 */
const TYPICAL_SECONDS = {
	'e2e 2 browser': 1500,
	'e2e 2 trigger-faults': 320,
	'e2e 1 trigger-faults': 320,
	'e2e 2 queue': 250,
	'e2e 2 install': 200,
	'e2e 2 send-faults': 180,
	'e2e 1 send-faults': 180,
	'e2e 2 send-and-wait': 170,
	'e2e 1 send-and-wait': 170,
	'e2e 2 retries': 130,
	'e2e 1 retries': 130,
	'e2e 2 mcp': 80,
	'e2e 2 main': 70,
	'e2e 1 main': 70,
	'e2e 2 explorer': 50,
	'tooling start': 180,
	'tooling verify': 180,
	'tooling n8n-runtime': 90,
	'tooling dev': 90,
};

/** Each suite's time in the last run (written by the runs), else its typical time. */
export const TIMES_FILE = path.join(root, '.tmp', 'suite-times.json');
export const lastTimes = () => ({
	...TYPICAL_SECONDS,
	...(existsSync(TIMES_FILE) ? JSON.parse(readFileSync(TIMES_FILE, 'utf8')) : {}),
});
export function rememberTimes(rows) {
	const times = existsSync(TIMES_FILE) ? JSON.parse(readFileSync(TIMES_FILE, 'utf8')) : {};
	for (const row of rows) times[row.name] = Math.round(row.ms / 1000);
	mkdirSync(path.dirname(TIMES_FILE), { recursive: true });
	writeFileSync(TIMES_FILE, JSON.stringify(times, null, 2));
}

/** A suite that runs longer than this is stopped and fails (minutes; E2E_SUITE_LIMIT_MINUTES): a backstop for a hung suite, twice the longest suite's time on a busy machine (the browser suite took 40 min and more at a load average of 27). */
const LIMIT_MINUTES = Number(process.env.E2E_SUITE_LIMIT_MINUTES ?? 60);

/**
 * The suites to run as tasks for runInLanes: `E2E_LINES` and `E2E_SUITES` pick; each task installs its line's n8n
 * if needed (done once before, by npm test) and runs the suite. Throws on a suite name no line has.
 */
export function e2eTasks() {
	const lines = (process.env.E2E_LINES ?? '2,1')
		.split(',')
		.map((line) => line.trim())
		.filter(Boolean);
	const chosen = process.env.E2E_SUITES?.split(',').map((suite) => suite.trim());
	const unknown = chosen?.filter((suite) => !Object.values(SUITES).flat().includes(suite)) ?? [];
	if (unknown.length > 0)
		throw new Error(
			`No end-to-end suite named ${unknown.join(', ')}; the suites: ${[...new Set(Object.values(SUITES).flat())].join(', ')}`,
		);
	const times = lastTimes();
	mkdirSync(path.join(root, '.tmp'), { recursive: true });
	return lines.flatMap((line) =>
		SUITES[line]
			.filter((suite) => !chosen || chosen.includes(suite))
			.map((suite) => {
				const name = `e2e ${line} ${suite}`;
				return {
					name,
					line,
					suite,
					cost: times[name] ?? 0,
					run: async () => {
						installN8n(line);
						const result = await runSuite({
							file: path.join(root, 'test', 'e2e', `${suite}.e2e.mjs`),
							tap: path.join(root, '.tmp', `e2e-${line}-${suite}.tap`),
							prefix: `[${line} ${suite}]`,
							cwd: root,
							env: { ...process.env, N8N_LINE: line },
							limitMs: LIMIT_MINUTES * 60_000,
						});
						console.log(
							`n8n line ${line}: ${suite} suite ${result.ok ? 'passed' : 'FAILED'} in ${Math.round(result.ms / 1000)} s`,
						);
						return { name, ...result };
					},
				};
			}),
	);
}

/**
 * What must hold before any suite runs: each line installed, and the in-process suites' engine the main line's.
 * Returns the problems found (the run fails with them).
 */
export function e2ePreconditions(tasks) {
	const problems = [];
	for (const line of new Set(tasks.map((task) => task.line))) {
		installN8n(line);
		const mismatch = line === '2' ? engineMismatch(line) : undefined;
		if (mismatch) problems.push(`the in-process engine (${mismatch})`);
	}
	return problems;
}

/**
 * Lanes for suites side by side (E2E_LANES, 2 by default: the machine's two cores). Three were measured no faster
 * on a fresh clone (34 min 14 s at a load average of 9.5, against 33 min 23 s with two at 5.5): the suites' n8n
 * starts, Chromium and the engine keep both cores busy, and a third lane only makes every wait longer.
 */
export const lanes = () => Number(process.env.E2E_LANES ?? 2);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	let tasks;
	try {
		tasks = e2eTasks();
	} catch (error) {
		console.error(error.message);
		process.exit(2);
	}
	for (const signal of ['SIGINT', 'SIGTERM'])
		process.on(signal, () => {
			stopAllSuites();
			process.exit(130);
		});
	const problems = e2ePreconditions(tasks);
	const results = await runInLanes(tasks, lanes());
	rememberTimes(results);
	const totals = { passed: 0, failed: 0, skipped: 0, skips: [], suites: [] };
	for (const result of results) {
		totals.passed += result.passed;
		totals.failed += result.failed;
		totals.skipped += result.skipped;
		totals.skips.push(...result.skips);
		totals.suites.push({ name: result.name, seconds: Math.round(result.ms / 1000), ok: result.ok });
	}
	if (process.env.E2E_SUMMARY) writeFileSync(process.env.E2E_SUMMARY, JSON.stringify(totals));
	const failed = [...problems, ...results.filter((result) => !result.ok).map((r) => r.name)];
	if (failed.length > 0) {
		console.error(`End-to-end suites that failed: ${failed.join(', ')}`);
		process.exit(1);
	}
}
