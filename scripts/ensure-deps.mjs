// Installs the project's dev dependencies when node_modules is missing or was installed from another lock
// file, so `npm start` and `npm test` work on a fresh clone with nothing installed by hand.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Installs when node_modules is missing or was installed from another package-lock.json. The lock file is
 * compared by its content, not its date: a fresh clone or a checkout gives every file a new date.
 *
 * `npm install --no-save`, not `npm ci`: both install exactly the versions package-lock.json names, but @n8n/node-cli
 * (n8n's own tool, a dev dependency as in n8n's starter) reaches unrs-resolver, whose optional native builds for
 * other platforms are not all on every npm registry. npm leaves those it cannot find out of the lock, and then `npm
 * ci` refuses the whole lock ("Missing: @unrs/resolver-binding-… from lock file"); `npm install` installs the lock
 * and skips an optional package it cannot find. `--no-save` keeps package.json and package-lock.json as committed.
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
			`node_modules is a link (to another checkout?) installed from another package-lock.json: run "node scripts/ensure-deps.mjs" there, or replace the link with a folder`,
		);
	}
	console.log('Installing dependencies (npm install from package-lock.json)...');
	execSync('npm install --no-save --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
	writeFileSync(marker, `${lockHash}\n`);
}

export function run(command, options = {}) {
	console.log(`\n> ${command}`);
	execSync(command, { cwd: root, stdio: 'inherit', ...options });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDependencies();
