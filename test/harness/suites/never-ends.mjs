// A suite whose one test never ends: test/tooling/suites.test.mjs runs it through scripts/suites.mjs with a limit.
import { test } from 'node:test';

test('waits for what never comes', () => new Promise(() => setInterval(() => {}, 1000)));
