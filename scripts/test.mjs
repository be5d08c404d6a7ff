// The README's test command: install if needed, the project's lint, `npm run verify` (n8n's verification points:
// n8n-node lint and build, n8n's scanner, package metadata…), then every test suite, and one closing line with the
// totals of all of them. `--unit` runs only the in-process suites (jest and the tooling's tests).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ensureDependencies, root, run } from './ensure-deps.mjs';

const unitOnly = process.argv.includes('--unit');
const reports = path.join(root, '.tmp');
mkdirSync(reports, { recursive: true });

ensureDependencies();
run('npm run -s lint:project');
run('npm run -s verify'); // builds dist/ (n8n-node build) for the suites

/** Totals of a node:test run from its TAP report. */
function tapTotals(file) {
	const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
	const count = (name) => Number(new RegExp(`^# ${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
	return { passed: count('pass'), failed: count('fail'), skipped: count('skipped') };
}

const jestReport = path.join(reports, 'jest.json');
run(`npx jest --ci --json --outputFile="${jestReport}"`);
const jest = JSON.parse(readFileSync(jestReport, 'utf8'));
let passed = jest.numPassedTests;
let failed = jest.numFailedTests;
let skipped = jest.numPendingTests;
const skips = [];

// The tooling's own tests (node:test): verify fails, naming the point, when any one point is broken.
const toolingReport = path.join(reports, 'tooling.tap');
let toolingFailed = false;
try {
	run(
		`node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=tap --test-reporter-destination="${toolingReport}" test/tooling/`,
	);
} catch {
	toolingFailed = true;
}
const tooling = tapTotals(toolingReport);
passed += tooling.passed;
failed += tooling.failed;
skipped += tooling.skipped;

let e2eFailed = false;
if (!unitOnly) {
	const e2eReport = path.join(reports, 'e2e-summary.json');
	try {
		run('node test/e2e/run.mjs', { env: { ...process.env, E2E_SUMMARY: e2eReport } });
	} catch {
		// The totals below still print; a suite that failed before counting its tests fails the run too.
		e2eFailed = true;
	}
	if (existsSync(e2eReport)) {
		const e2e = JSON.parse(readFileSync(e2eReport, 'utf8'));
		passed += e2e.passed;
		failed += e2e.failed;
		skipped += e2e.skipped ?? 0;
		skips.push(...(e2e.skips ?? []));
	}
}
console.log(`\nAll suites (jest, tooling${unitOnly ? '' : ' and end-to-end'}):`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
for (const skip of skips) console.log(`  ${skip}`);
if (failed > 0 || e2eFailed || toolingFailed) process.exit(1);
