// A local npm registry (verdaccio, from the npm registry) for the install suite: started on a loopback port
// with its storage in a temporary folder, proxying everything but this package to the machine's registry,
// with one user for publishing. Installed once in the install cache every checkout shares (installCache()).
import { execSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { cleanNpmEnv, ensureNodeBinary, installCache } from './n8n-install.mjs';

const VERDACCIO = '6.10.4';
const base = path.join(installCache(), `verdaccio-${VERDACCIO}`);
const bin = path.join(base, 'node_modules', 'verdaccio', 'bin', 'verdaccio');

export function installRegistry() {
	if (existsSync(path.join(base, '.installed'))) return;
	console.log(`Installing verdaccio ${VERDACCIO} (once)...`);
	// In a folder of its own, renamed into place once whole: another checkout may install it at the same time.
	mkdirSync(path.dirname(base), { recursive: true });
	const staging = mkdtempSync(`${base}.installing-`);
	try {
		// Some registry mirrors lack node-fetch's "cjs" dist-tag, which verdaccio-audit asks for.
		writeFileSync(
			path.join(staging, 'package.json'),
			JSON.stringify(
				{
					name: 'local-registry',
					private: true,
					dependencies: { verdaccio: VERDACCIO },
					overrides: { 'verdaccio-audit': { 'node-fetch': '2.7.0' } },
				},
				null,
				2,
			),
		);
		execSync('npm install --no-audit --no-fund --loglevel=error', {
			cwd: staging,
			stdio: 'inherit',
			env: cleanNpmEnv(),
		});
		writeFileSync(path.join(staging, '.installed'), new Date().toISOString());
		if (existsSync(path.join(base, '.installed'))) return;
		rmSync(base, { recursive: true, force: true });
		renameSync(staging, base);
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
}

function upstreamRegistry() {
	try {
		return (
			execSync('npm config get registry', { env: cleanNpmEnv(), encoding: 'utf8' }).trim() ||
			'https://registry.npmjs.org/'
		);
	} catch {
		return 'https://registry.npmjs.org/';
	}
}

/**
 * Starts the registry and creates a publishing user. Returns its URL, an npm user config file that
 * points npm at it with that user's token, and stop(), which also removes its storage.
 */
export async function startRegistry({ port, packageName }) {
	installRegistry();
	const folder = mkdtempSync(path.join(tmpdir(), 'mail-delivery-registry-'));
	const url = `http://127.0.0.1:${port}/`;
	writeFileSync(
		path.join(folder, 'config.yaml'),
		[
			`storage: ${path.join(folder, 'storage')}`,
			'auth:',
			'  htpasswd:',
			`    file: ${path.join(folder, 'htpasswd')}`,
			'    max_users: 10',
			'uplinks:',
			'  upstream:',
			`    url: ${upstreamRegistry()}`,
			'    timeout: 60s',
			'packages:',
			`  '${packageName}':`,
			'    access: $all',
			'    publish: $authenticated',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'    proxy: upstream',
			'web:',
			'  enable: false',
			'log: { type: stdout, format: pretty, level: warn }',
			'',
		].join('\n'),
	);
	// Verdaccio 6.10 needs Node >= 22: it runs on the Node.js of n8n's 2.x line.
	const child = spawn(
		ensureNodeBinary('2'),
		[bin, '--config', path.join(folder, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
		{
			cwd: folder,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: cleanNpmEnv(),
		},
	);
	const output = [];
	child.stdout.on('data', (chunk) => output.push(chunk.toString()));
	child.stderr.on('data', (chunk) => output.push(chunk.toString()));
	const stop = async () => {
		if (child.exitCode === null) {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		}
		rmSync(folder, { recursive: true, force: true });
	};
	const started = Date.now();
	for (;;) {
		if (child.exitCode !== null)
			throw new Error(`verdaccio exited with code ${child.exitCode}:\n${output.join('')}`);
		try {
			if ((await fetch(`${url}-/ping`)).ok) break;
		} catch {
			// not listening yet
		}
		if (Date.now() - started > 30_000) {
			await stop();
			throw new Error(`verdaccio did not answer within 30 s:\n${output.join('')}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	// npm's own "adduser" request, without its prompts.
	const user = { name: 'publisher', password: 'publisher-password' };
	const answer = await fetch(`${url}-/user/org.couchdb.user:${user.name}`, {
		method: 'PUT',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({
			_id: `org.couchdb.user:${user.name}`,
			type: 'user',
			roles: [],
			...user,
		}),
	});
	const { token } = await answer.json();
	if (!token) {
		await stop();
		throw new Error(`verdaccio refused to create the publishing user: HTTP ${answer.status}`);
	}
	const userConfig = path.join(folder, 'npmrc');
	writeFileSync(userConfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
	return { url, userConfig, folder, startupMs: Date.now() - started, output, stop };
}
