// The README's test command: install if needed, lint, build, then every test suite.
// `--unit` runs only the in-process suites (jest); the default also runs the real-n8n end-to-end suite.
import { existsSync } from 'node:fs';
import path from 'node:path';

import { ensureDependencies, root, run } from './ensure-deps.mjs';

const unitOnly = process.argv.includes('--unit');
ensureDependencies();
run('npm run -s lint');
run('npm run -s build');
run('npx jest --ci');
if (!unitOnly && existsSync(path.join(root, 'test', 'e2e', 'run.mjs'))) run('node test/e2e/run.mjs');
