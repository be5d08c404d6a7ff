// The README's test command: install if needed, lint, build, then every test suite, and one closing
// line with the totals of all of them. `--unit` runs only the in-process suites (jest).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { ensureDependencies, root, run } from './ensure-deps.mjs';

const unitOnly = process.argv.includes('--unit');
const reports = path.join(root, '.tmp');
mkdirSync(reports, { recursive: true });

ensureDependencies();
run('npm run -s lint');
run('npm run -s build');

const jestReport = path.join(reports, 'jest.json');
run(`npx jest --ci --json --outputFile="${jestReport}"`);
const jest = JSON.parse(readFileSync(jestReport, 'utf8'));
let passed = jest.numPassedTests;
let failed = jest.numFailedTests;
let skipped = jest.numPendingTests;
const skips = [];

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
console.log(`\nAll suites (jest${unitOnly ? '' : ' and end-to-end'}):`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
for (const skip of skips) console.log(`  ${skip}`);
if (failed > 0 || e2eFailed) process.exit(1);
