// Installing this package into n8n from a registry as a user does it by hand; n8n's own installer is driven
// through its endpoints by the install suite.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { cleanNpmEnv } from '../../scripts/n8n-install.mjs';

// Each run has its own registry; npm's cache of registry metadata (fresh for minutes) must not outlive it.
const npm = (args, cwd, registry) =>
	execFileSync('npm', args, {
		cwd,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		env: cleanNpmEnv({ npm_config_registry: registry, npm_config_prefer_online: 'true' }),
	});

/** The README's self-hosted path: `npm install <package>` in ~/.n8n/nodes (`npm update <package>` later). */
export function installWithNpm({ userFolder, packageName, registry, update = false }) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	npm([update ? 'update' : 'install', packageName, '--no-audit', '--no-fund'], nodesDir, registry);
	return path.join(nodesDir, 'node_modules', packageName);
}

/**
 * Where the installed package's `require('n8n-workflow')` lands inside n8n: Node's resolution from the
 * package's own files, with the NODE_PATH n8n sets at start-up (its own module paths), as in n8n's
 * LoadNodesAndCredentials.init. Run with n8n's Node binary.
 */
export function resolveN8nWorkflowAsN8nDoes({ nodeBin, packageDir, n8nPackageDir }) {
	const n8nPaths = createRequire(
		path.join(n8nPackageDir, 'dist', 'load-nodes-and-credentials.js'),
	).resolve.paths('x');
	const script = [
		"const Module = require('node:module');",
		'Module._initPaths();',
		`const fromPackage = Module.createRequire(${JSON.stringify(path.join(packageDir, 'package.json'))});`,
		`const fromN8n = Module.createRequire(${JSON.stringify(path.join(n8nPackageDir, 'dist', 'index.js'))});`,
		"const fs = require('node:fs');",
		"console.log(JSON.stringify({ package: fs.realpathSync(fromPackage.resolve('n8n-workflow')), n8n: fs.realpathSync(fromN8n.resolve('n8n-workflow')) }));",
	].join('\n');
	return JSON.parse(
		execFileSync(nodeBin, ['-e', script], {
			encoding: 'utf8',
			env: { ...process.env, NODE_PATH: n8nPaths.join(path.delimiter) },
		}),
	);
}
