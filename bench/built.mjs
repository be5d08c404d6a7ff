// The n8n benches load the package from dist/ (scripts/n8n-runtime.mjs copies it into n8n's nodes folder): each
// builds it first, so that a figure is never of code older than the working tree (a stale dist/ measured the code
// before the latest change, silently). Imported for this effect; n8n-node build takes some 7 s.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.stderr.write('Building the package (npm run build) for the bench…\n');
execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
