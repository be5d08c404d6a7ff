// Installs the project's dev dependencies when node_modules is missing or was installed from another lock
// file, so `npm start` and `npm test` work on a fresh clone with nothing installed by hand.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Installs (npm ci) when node_modules is missing or was installed from another package-lock.json. The
 * lock file is compared by its content, not its date: a fresh clone or a checkout gives every file a new
 * date, and npm ci empties node_modules first.
 */
export function ensureDependencies() {
	const modules = path.join(root, 'node_modules');
	const marker = path.join(modules, '.installed-lock-sha256');
	const lockHash = createHash('sha256')
		.update(readFileSync(path.join(root, 'package-lock.json')))
		.digest('hex');
	if (existsSync(marker) && readFileSync(marker, 'utf8').trim() === lockHash) return;
	if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
		throw new Error(
			`node_modules is a link (to another checkout?) installed from another package-lock.json: run npm ci there, or replace the link with a folder`,
		);
	}
	console.log('Installing dependencies (npm ci)...');
	execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
	writeFileSync(marker, `${lockHash}\n`);
}

export function run(command, options = {}) {
	console.log(`\n> ${command}`);
	execSync(command, { cwd: root, stdio: 'inherit', ...options });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDependencies();
