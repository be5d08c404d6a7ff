/**
 * A line of real n8n as the install script keeps it (scripts/n8n-install.mjs, the one place that knows versions
 * and folders): installed first if missing (minutes, once; its progress on this process's output), then where
 * its packages and the Node.js it runs on are.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface InstalledN8n {
	/** The n8n version the line installs. */
	version: string;
	/** The folder whose node_modules holds n8n and its packages. */
	base: string;
	/** The Node.js binary n8n runs on. */
	nodeBin: string;
}

export function installedN8n(line: '1' | '2'): InstalledN8n {
	const root = path.join(__dirname, '..', '..');
	const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-paths-'));
	const file = path.join(folder, 'paths.json');
	try {
		execFileSync(
			process.execPath,
			[path.join(root, 'scripts', 'n8n-install.mjs'), line, '--paths', file],
			{ stdio: 'inherit' },
		);
		return JSON.parse(readFileSync(file, 'utf8')) as InstalledN8n;
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
