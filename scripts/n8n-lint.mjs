// n8n's own lint configuration for community nodes (`@n8n/node-cli`'s eslint config, the one `n8n-node lint`
// applies) over the published code, beside the project's stricter eslint.config.mjs. @n8n/node-cli is installed
// once under .n8n-local/node-cli with `npm install`, not in the project's lock file: its import resolver lists
// native packages for every platform, some of which not every npm registry mirror holds, and `npm ci` refuses a
// lock file without them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { root } from './ensure-deps.mjs';
import { cleanNpmEnv } from './n8n-install.mjs';

const NODE_CLI_DIR = path.join(root, '.n8n-local', 'node-cli');
const VERSIONS = { '@n8n/node-cli': '0.48.3', eslint: '9.29.0', typescript: '5.9.3' };

if (!existsSync(path.join(NODE_CLI_DIR, 'node_modules', '@n8n', 'node-cli', 'package.json'))) {
	console.log(
		`Installing @n8n/node-cli ${VERSIONS['@n8n/node-cli']} for n8n's lint configuration (once)...`,
	);
	mkdirSync(NODE_CLI_DIR, { recursive: true });
	writeFileSync(
		path.join(NODE_CLI_DIR, 'package.json'),
		JSON.stringify({ name: 'n8n-lint', private: true, dependencies: VERSIONS }, null, 2),
	);
	execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], {
		cwd: NODE_CLI_DIR,
		stdio: 'inherit',
		env: cleanNpmEnv(),
	});
}
try {
	execFileSync(
		process.execPath,
		[
			path.join(NODE_CLI_DIR, 'node_modules', 'eslint', 'bin', 'eslint.js'),
			'-c',
			path.join(root, 'eslint.n8n.config.mjs'),
			'nodes',
			'credentials',
			'package.json',
		],
		{
			cwd: root,
			stdio: 'inherit',
		},
	);
} catch {
	console.error("n8n's community-node lint configuration reports the findings above.");
	process.exit(1);
}
console.log("n8n's community-node lint configuration: no finding.");
