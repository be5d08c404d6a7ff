// Runs node:test files as suites, side by side in lanes (the machine has two cores, and an end-to-end suite spends
// most of its time waiting for n8n), each in a process group of its own: when a suite's process ends, whatever it
// left running is killed and named, and a suite that passes its time limit is stopped, so that one suite can neither
// hold the run forever nor leave processes that hold the next one.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import readline from 'node:readline';
import { statFields } from './processes.mjs';

/**
 * Totals of a node:test run from its TAP report, the reasons of the tests it skipped, and each failed test with the
 * first lines of its error (printed again at the end of the run, where a CI log's tail shows them). Counted from the
 * tests' own lines (subtests too, describe blocks not), not from the closing summary: a run that --test-force-exit
 * ends may leave the summary unwritten.
 */
export function tapTotals(file) {
	const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
	const totals = { passed: 0, failed: 0, skipped: 0, skips: [], failures: [] };
	lines.forEach((line, index) => {
		const result = /^\s*(not )?ok \d+ - /.exec(line);
		if (!result) {
			if (line.startsWith('# SKIPPED ')) totals.skips.push(line.slice('# SKIPPED '.length));
			return;
		}
		// The YAML block after a result: "type: 'suite'" marks a describe block.
		const details = lines.slice(index + 1, index + 6).join('\n');
		if (/^\s*type: 'suite'/m.test(details.split(/^\s*\.\.\.$/m)[0])) return;
		if (result[1]) {
			totals.failed++;
			totals.failures.push(failureOf(line, lines.slice(index + 1, index + 40)));
		} else if (/# SKIP\b/.test(line)) totals.skipped++;
		else totals.passed++;
	});
	return totals;
}

/** A failed test's name and its error's first lines, from its TAP line and the YAML block after it. */
function failureOf(line, after) {
	const name = line.replace(/^\s*not ok \d+ - /, '');
	const end = after.findIndex((text) => /^\s*\.\.\.$/.test(text));
	const block = after.slice(0, end === -1 ? after.length : end);
	const start = block.findIndex((text) => /^\s*error: /.test(text));
	if (start === -1) return name;
	// YAML: the error on its line, quoted, or in the lines after `|-`.
	const first = block[start]
		.replace(/^\s*error: (\|-)?/, '')
		.trim()
		.replace(/^'(.*)'$/, '$1');
	const error = (first ? [first] : block.slice(start + 1, start + 4).map((text) => text.trim()))
		.filter(Boolean)
		.join(' ')
		.slice(0, 400);
	return `${name}\n      ${error}`;
}

/** The processes of process group `group` (read from /proc): pid and command line. */
function groupMembers(group) {
	const members = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const [state, , processGroup] = statFields(entry);
			if (Number(processGroup) !== group || state === 'Z') continue;
			const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
			members.push(`${entry} ${command.trim().slice(0, 160)}`);
		} catch {
			// gone meanwhile
		}
	}
	return members;
}

/** Sends `signal` to every process of group `group`, if any is left. */
function signalGroup(group, signal) {
	try {
		process.kill(-group, signal);
	} catch {
		// the group has ended
	}
}

/**
 * CPU seconds of this process's children that have ended and been reaped: Linux adds a child's time, with that of
 * every descendant it reaped (n8n, its task runner, Chromium, the emulator), to its parent's when the child is reaped.
 * The difference across one suite's end is that suite's CPU: each suite is a child of this process, and two suites
 * ending within the same moment is the only way to mix them up.
 */
export function reapedChildrenCpuSeconds() {
	try {
		const fields = statFields();
		return (Number(fields[13]) + Number(fields[14])) / 100; // cutime and cstime
	} catch {
		return Number.NaN; // not Linux
	}
}
let reapedCpuSeen = reapedChildrenCpuSeconds();
/** CPU seconds reaped since the last call: called at each suite's end, the suite's own. */
function cpuSinceLastEnd() {
	const now = reapedChildrenCpuSeconds();
	const spent = now - reapedCpuSeen;
	reapedCpuSeen = now;
	return spent;
}

const running = new Set();
/** Stops every suite still running (Ctrl-C of the whole run: the suites' groups are not the terminal's). */
export function stopAllSuites(signal = 'SIGTERM') {
	for (const group of running) signalGroup(group, signal);
}

/**
 * Runs `node --test` on `file` in a process group of its own, its output printed line by line after `prefix`,
 * a TAP report written to `tap`. Resolves with its totals, its time and CPU seconds, whether it passed its limit,
 * and the processes it left running (killed).
 */
export async function runSuite({ file, tap, prefix, env = process.env, cwd, limitMs }) {
	const started = Date.now();
	const child = spawn(
		process.execPath,
		[
			'--test',
			// The process ends once its tests have, whatever handles are still open (a set-up that failed).
			'--test-force-exit',
			'--test-concurrency=1',
			'--test-reporter=spec',
			'--test-reporter-destination=stdout',
			'--test-reporter=tap',
			`--test-reporter-destination=${tap}`,
			file,
		],
		// Without the variable node:test sets in its own test files: the suite is a run of its own, not a subtest.
		{
			cwd,
			env: { ...env, NODE_TEST_CONTEXT: undefined },
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	running.add(child.pid);
	for (const stream of [child.stdout, child.stderr])
		readline
			.createInterface({ input: stream })
			.on('line', (line) => console.log(`${prefix} ${line}`));
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		console.log(`${prefix} passed its limit of ${limitMs / 60_000} min: stopping it`);
		signalGroup(child.pid, 'SIGTERM');
		setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 10_000).unref();
	}, limitMs);
	const exit = await new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal, cpuSeconds: cpuSinceLastEnd() })),
	);
	clearTimeout(timer);
	const leftBehind = groupMembers(child.pid);
	if (leftBehind.length > 0) {
		console.log(
			`${prefix} left running, now killed:\n${leftBehind.map((row) => `  ${row}`).join('\n')}`,
		);
		signalGroup(child.pid, 'SIGKILL');
	}
	running.delete(child.pid);
	const totals = tapTotals(tap);
	return {
		...totals,
		ms: Date.now() - started,
		cpuSeconds: exit.cpuSeconds,
		timedOut,
		leftBehind,
		ok: exit.code === 0 && !timedOut && totals.failed === 0,
	};
}

/**
 * Runs `tasks` (each `{ name, cost?, run() }`) in `lanes` lanes, the costliest first (a long suite started last
 * would run alone at the end). Resolves with each task's result, in the order given.
 */
export async function runInLanes(tasks, lanes) {
	cpuSinceLastEnd(); // what ended before the lanes is not the first suite's
	const queue = [...tasks].sort((a, b) => (b.cost ?? 0) - (a.cost ?? 0));
	const results = new Map();
	const lane = async () => {
		for (let task = queue.shift(); task; task = queue.shift()) results.set(task, await task.run());
	};
	await Promise.all(Array.from({ length: Math.max(1, lanes) }, lane));
	return tasks.map((task) => results.get(task));
}
