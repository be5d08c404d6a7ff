// The project's own lint of the published code, beside n8n's (eslint.config.mjs, n8n's default, run by
// `n8n-node lint`): the newer eslint-plugin-n8n-nodes-base rule sets (community, credentials, nodes) and
// @n8n/eslint-plugin-community-nodes, with inline configuration off as in n8n's scanner, so an eslint-disable
// comment that `n8n-node lint` would honour cannot hide a finding here (`npm run lint:project` fails on the
// warning such a comment gets).
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const n8nBase = { 'n8n-nodes-base': n8nNodesBase };

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
	{ linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' } },
	{
		files: ['package.json'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: n8nBase,
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: n8nBase,
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// As in n8n's own community-node config (@n8n/node-cli): this rule is for n8n's main
			// repository, and the scanner's credential-password-field rule is the more accurate one.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: n8nBase,
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// As in @n8n/node-cli: inputs and outputs use the NodeConnectionTypes enum that the scanner
			// requires, and a real API maximum is a valid maxValue.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['package.json', 'credentials/**/*.ts', 'nodes/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
];
