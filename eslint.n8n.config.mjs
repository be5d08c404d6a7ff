// n8n's own lint configuration for community nodes (`@n8n/node-cli`'s eslint config, the one `n8n-node lint`
// applies), run over the published code as it is, beside the project's stricter eslint.config.mjs.
import { config } from '@n8n/node-cli/eslint';

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'emulator/**', 'test/**', 'bench/**', 'scripts/**', '*.js', '*.mjs'] },
	...config,
];
