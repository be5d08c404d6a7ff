// How npm test and npm run test:e2e run a suite (scripts/suites.mjs, issue 53 item 3): a suite whose set-up failed
// ends and fails even though a process it started is still running (that process is killed and named), and a
// suite that passes its time limit is stopped, so that the run goes on; a failed test is named with its error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { isAlive } from '../../scripts/processes.mjs';
import { runSuite } from '../../scripts/suites.mjs';

const folder = mkdtempSync(path.join(os.tmpdir(), 'suites-test-'));
after(() => rmSync(folder, { recursive: true, force: true }));
const suite = (name) => path.join(import.meta.dirname, '..', 'harness', 'suites', `${name}.mjs`);

test('a suite whose set-up fails with a process still running: the suite ends and fails, the process is killed and named', async () => {
	const result = await runSuite({
		file: suite('setup-fails'),
		tap: path.join(folder, 'setup-fails.tap'),
		prefix: '[setup-fails]',
		limitMs: 600_000,
	});
	assert.equal(result.ok, false);
	assert.equal(result.timedOut, false, 'the suite ended by itself');
	assert.equal(result.leftBehind.length, 1, result.leftBehind.join('\n'));
	assert.match(result.leftBehind[0], /left by a set-up/);
	// Named again at the end of npm test, with its error, where a CI log's tail shows it.
	assert.equal(result.failures.length, 1);
	assert.match(result.failures[0], /^needs the set-up\n\s+the set-up failed/);
	// The table's CPU column: the suite's process, at least Node's own start.
	assert.ok(result.cpuSeconds > 0, `CPU seconds: ${result.cpuSeconds}`);
	const pid = Number(result.leftBehind[0].split(' ')[0]);
	await new Promise((resolve) => setTimeout(resolve, 500));
	assert.equal(isAlive(pid), false, 'the process the set-up left is still running');
});

test('a suite that passes its time limit is stopped and fails', async () => {
	const result = await runSuite({
		file: suite('never-ends'),
		tap: path.join(folder, 'never-ends.tap'),
		prefix: '[never-ends]',
		limitMs: 3_000,
	});
	assert.equal(result.timedOut, true);
	assert.equal(result.ok, false);
});
