// A copy of the project that `npm start` or `npm run dev` can run in and a test may change: its sources, with this
// checkout's node_modules linked in and n8n from the install cache every checkout shares. The test's cleanups remove it.
import { cpSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { root } from '../../scripts/ensure-deps.mjs';
import { installN8n } from '../../scripts/n8n-install.mjs';

const COPIED = [
	'package.json',
	'package-lock.json',
	'tsconfig.json',
	'gulpfile.js',
	'.npmrc',
	'nodes',
	'credentials',
	'scripts',
	'emulator',
	'examples',
];

/** The copy's folder; `cleanups` gets what removes it. */
export function copyOfProject(cleanups) {
	const copy = mkdtempSync(path.join(os.tmpdir(), 'project-copy-'));
	cleanups.push(() => rmSync(copy, { recursive: true, force: true }));
	for (const name of COPIED)
		cpSync(path.join(root, name), path.join(copy, name), { recursive: true });
	symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(copy, 'node_modules'));
	installN8n('2');
	return copy;
}

/** Waits until `check()` gives something other than undefined, or fails saying what it waited for. */
export async function eventually(check, what, timeoutMs) {
	const started = Date.now();
	for (;;) {
		const value = await check().catch(() => undefined);
		if (value !== undefined) return value;
		if (Date.now() - started > timeoutMs)
			throw new Error(`gave up after ${timeoutMs / 1000} s waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** Whether any process of group `pid` is alive. */
export const groupAlive = (pid) => {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		return false;
	}
};
