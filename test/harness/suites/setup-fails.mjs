// A suite whose set-up starts a process (as the end-to-end suites start the emulator) and then fails, leaving the
// process running: test/tooling/suites.test.mjs runs it through scripts/suites.mjs.
import { spawn } from 'node:child_process';
import { before, test } from 'node:test';

before(() => {
	// Its output piped to the suite, as the emulator's is: the open pipe alone would keep the suite's process alive.
	spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000) // left by a set-up'], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	throw new Error('the set-up failed');
});

test('needs the set-up', () => {});
