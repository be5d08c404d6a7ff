// The two ways a user gets this package into n8n from a registry, done as the user (or n8n) does them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { cleanNpmEnv } from '../../scripts/n8n-install.mjs';

// Each run has its own registry; npm's cache of registry metadata (fresh for minutes) must not outlive it.
const npm = (args, cwd, registry) =>
	execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: cleanNpmEnv({ npm_config_registry: registry, npm_config_prefer_online: 'true' }) });

/** The README's self-hosted path: `npm install <package>` in ~/.n8n/nodes (`npm update <package>` later). */
export function installWithNpm({ userFolder, packageName, registry, update = false }) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	npm([update ? 'update' : 'install', packageName, '--no-audit', '--no-fund'], nodesDir, registry);
	return path.join(nodesDir, 'node_modules', packageName);
}

/**
 * n8n's own community-package installer, step for step as n8n 2.41.1's CommunityPackagesService does it
 * (`installOrUpdatePackage` → `downloadPackage`, in the n8n package's dist/modules/community-packages):
 * back up an installed copy, `npm pack <name>@<version>` in the nodes folder, unpack it into
 * node_modules/<name>, drop dev, peer and optional dependencies from its package.json, `npm install` there
 * with n8n's flags, check its nodes API version, record the version in the nodes folder's package.json,
 * delete the tarball and the backup. n8n's Install button runs this against the public registry only
 * (another registry needs an enterprise licence), so the steps are reproduced rather than the button.
 */
export function installLikeN8n({ userFolder, packageName, version, registry, n8nPackageDir }) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const ledger = path.join(nodesDir, 'package.json');
	mkdirSync(nodesDir, { recursive: true });
	// ensurePackageJson
	if (!existsSync(ledger)) writeFileSync(ledger, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
	const packageDir = path.join(nodesDir, 'node_modules', packageName);
	// backupPackageDirectory
	const backup = existsSync(packageDir) ? `${packageDir}.backup-${Date.now()}` : undefined;
	if (backup) renameSync(packageDir, backup);
	mkdirSync(packageDir, { recursive: true });
	const tarball = npm(['pack', `${packageName}@${version}`, '--quiet'], nodesDir, registry).trim();
	try {
		execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], { cwd: nodesDir });
		const manifestPath = path.join(packageDir, 'package.json');
		const { devDependencies, peerDependencies, optionalDependencies, ...manifest } = JSON.parse(readFileSync(manifestPath, 'utf8'));
		writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
		npm(['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'], packageDir, registry);
		// assertPackageApiVersionSupported, with n8n's own n8n-workflow
		const { checkNodesApiVersion } = createRequire(path.join(n8nPackageDir, 'package.json'))('n8n-workflow');
		const check = checkNodesApiVersion(manifest);
		if (!check.compatible) throw new Error(`n8n would refuse ${packageName}@${manifest.version}: nodes API version ${JSON.stringify(check.declared)}`);
		// updatePackageJsonDependency
		const installed = JSON.parse(readFileSync(ledger, 'utf8'));
		installed.dependencies[packageName] = manifest.version;
		writeFileSync(ledger, JSON.stringify(installed, null, 2));
	} catch (error) {
		// restorePackageDirectory
		rmSync(packageDir, { recursive: true, force: true });
		if (backup) renameSync(backup, packageDir);
		throw error;
	} finally {
		rmSync(path.join(nodesDir, tarball), { force: true });
	}
	if (backup) rmSync(backup, { recursive: true, force: true });
	return packageDir;
}

/**
 * Where the installed package's `require('n8n-workflow')` lands inside n8n: Node's resolution from the
 * package's own files, with the NODE_PATH n8n sets at start-up (its own module paths), as in n8n's
 * LoadNodesAndCredentials.init. Run with n8n's Node binary.
 */
export function resolveN8nWorkflowAsN8nDoes({ nodeBin, packageDir, n8nPackageDir }) {
	const n8nPaths = createRequire(path.join(n8nPackageDir, 'dist', 'load-nodes-and-credentials.js')).resolve.paths('x');
	const script = [
		"const Module = require('node:module');",
		'Module._initPaths();',
		`const fromPackage = Module.createRequire(${JSON.stringify(path.join(packageDir, 'package.json'))});`,
		`const fromN8n = Module.createRequire(${JSON.stringify(path.join(n8nPackageDir, 'dist', 'index.js'))});`,
		"const fs = require('node:fs');",
		"console.log(JSON.stringify({ package: fs.realpathSync(fromPackage.resolve('n8n-workflow')), n8n: fs.realpathSync(fromN8n.resolve('n8n-workflow')) }));",
	].join('\n');
	return JSON.parse(execFileSync(nodeBin, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_PATH: n8nPaths.join(path.delimiter) } }));
}
