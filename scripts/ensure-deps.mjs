// Installs the project's dev dependencies when node_modules is missing or older than the lock file,
// so `npm start` and `npm test` work on a fresh clone with nothing installed by hand.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function ensureDependencies() {
	const marker = path.join(root, 'node_modules', '.package-lock.json');
	const lock = path.join(root, 'package-lock.json');
	if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
	console.log('Installing dependencies (npm ci)...');
	execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}

export function run(command, options = {}) {
	console.log(`\n> ${command}`);
	execSync(command, { cwd: root, stdio: 'inherit', ...options });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDependencies();
