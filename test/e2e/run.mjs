// Runs the end-to-end suites: for each n8n line (default: 2 then 1; E2E_LINES=2 for one) its suites in turn
// (E2E_SUITES=main,trigger-faults,browser,… picks some). Both lines run the fault suites (a platform failing a chosen
// request: the trigger's record, Retry On Fail, time-outs) and Send and Wait for Response; line 2 also runs the MCP suite, the browser suite (the
// editor in Chromium), the install suite (the package from a registry), the queue-mode suite and a sample of the
// history explorer's histories (explorer); both run the retries suite (never twice around n8n's Retry).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { root } from '../../scripts/ensure-deps.mjs';
import { engineMismatch, installN8n } from '../../scripts/n8n-install.mjs';

const SUITES = {
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
const lines = (process.env.E2E_LINES ?? '2,1')
	.split(',')
	.map((line) => line.trim())
	.filter(Boolean);
const chosen = process.env.E2E_SUITES?.split(',').map((suite) => suite.trim());
const unknown = chosen?.filter((suite) => !Object.values(SUITES).flat().includes(suite)) ?? [];
if (unknown.length > 0) {
	console.error(
		`No end-to-end suite named ${unknown.join(', ')}; the suites: ${[...new Set(Object.values(SUITES).flat())].join(', ')}`,
	);
	process.exit(2);
}
const totals = { passed: 0, failed: 0, skipped: 0, skips: [] };
const failedSuites = [];
mkdirSync(path.join(root, '.tmp'), { recursive: true });
for (const line of lines) {
	const installStarted = Date.now();
	installN8n(line);
	const mismatch = line === '2' ? engineMismatch(line) : undefined;
	if (mismatch) failedSuites.push(`the in-process engine (${mismatch})`);
	console.log(
		`n8n line ${line}: install ready in ${Math.round((Date.now() - installStarted) / 1000)} s`,
	);
	for (const suite of SUITES[line].filter((name) => !chosen || chosen.includes(name))) {
		const started = Date.now();
		const tap = path.join(root, '.tmp', `e2e-${line}-${suite}.tap`);
		try {
			execFileSync(
				process.execPath,
				[
					'--test',
					'--test-concurrency=1',
					'--test-reporter=spec',
					'--test-reporter-destination=stdout',
					'--test-reporter=tap',
					`--test-reporter-destination=${tap}`,
					path.join(root, 'test', 'e2e', `${suite}.e2e.mjs`),
				],
				{ cwd: root, stdio: 'inherit', env: { ...process.env, N8N_LINE: line } },
			);
		} catch {
			// A failing suite does not keep the others from running; the run fails at the end.
			failedSuites.push(`${suite} (n8n line ${line})`);
		} finally {
			const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
			totals.passed += Number(/^# pass (\d+)/m.exec(text)?.[1] ?? 0);
			totals.failed += Number(/^# fail (\d+)/m.exec(text)?.[1] ?? 0);
			totals.skipped += Number(/^# skipped (\d+)/m.exec(text)?.[1] ?? 0);
			totals.skips.push(...[...text.matchAll(/^# SKIPPED (.+)$/gm)].map((match) => match[1]));
			if (process.env.E2E_SUMMARY) writeFileSync(process.env.E2E_SUMMARY, JSON.stringify(totals));
		}
		console.log(
			`n8n line ${line}: ${suite} suite finished in ${Math.round((Date.now() - started) / 1000)} s`,
		);
	}
}
if (failedSuites.length > 0) {
	console.error(`End-to-end suites that failed: ${failedSuites.join(', ')}`);
	process.exit(1);
}
