// n8n's own lint configuration for community nodes, as `n8n-node lint` applies it; `node scripts/n8n-lint.mjs`
// installs @n8n/node-cli under .n8n-local/node-cli and runs this over the published code.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { config } = createRequire(path.join(here, '.n8n-local', 'node-cli', 'package.json'))(
	'@n8n/node-cli/eslint',
);

export default [
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'.n8n-local/**',
			'emulator/**',
			'test/**',
			'bench/**',
			'scripts/**',
			'*.js',
			'*.mjs',
		],
	},
	...config,
];
