// The queue stack's pid files (scripts/queue-stack.mjs): Redis creates its pid file before it writes the number, and
// a pid read as 0 then stopped the whole process group at the end of the queue suite (process.kill(0) signals the
// group: the suite itself), after its 13 tests had passed. A pid file is read only once it holds a real pid.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { pidIn } from '../../scripts/queue-stack.mjs';

const folder = mkdtempSync(path.join(os.tmpdir(), 'queue-stack-test-'));
after(() => rmSync(folder, { recursive: true, force: true }));

test('a pid file is read only once it holds a real pid: missing, empty or 0 is none', () => {
	const file = path.join(folder, 'redis.pid');
	assert.equal(pidIn(file), undefined);
	writeFileSync(file, '');
	assert.equal(pidIn(file), undefined);
	writeFileSync(file, '0\n');
	assert.equal(pidIn(file), undefined);
	writeFileSync(file, '4242\n');
	assert.equal(pidIn(file), 4242);
	// PostgreSQL's postmaster.pid: the pid on its first line, then the data folder and more.
	writeFileSync(file, '5151\n/tmp/data\n1700000000\n');
	assert.equal(pidIn(file), 5151);
});
