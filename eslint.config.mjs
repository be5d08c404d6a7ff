// Lints the published code with n8n's own rule sets: eslint-plugin-n8n-nodes-base (community, credentials,
// nodes) and @n8n/eslint-plugin-community-nodes (the rules n8n's community package scanner applies).
// Inline configuration is off, as in the scanner, so an eslint-disable comment cannot hide a finding.
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const n8nBase = { 'n8n-nodes-base': n8nNodesBase };

export default [
	{
		ignores: [
			'dist/**',
			'node_modules/**',
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
