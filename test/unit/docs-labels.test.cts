/**
 * Words that match the panel (issue 46.6): every option, field, choice and output label the README and docs/ name
 * in italics (*Options → Missing Tag Values: Send With the Tag Empty*) is one the nodes' descriptions give, one
 * of n8n's own (Settings → On Error…), or a button of the emulator's mail page. A label renamed in a description, or a doc written from memory, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { MailDeliveryAuthCodeOAuth2Api } from '../../credentials/MailDeliveryAuthCodeOAuth2Api.credentials';
import { MailDeliveryClientCredentialsOAuth2Api } from '../../credentials/MailDeliveryClientCredentialsOAuth2Api.credentials';
import { MailDeliverySignatureApi } from '../../credentials/MailDeliverySignatureApi.credentials';
import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { MailDeliveryTrigger } from '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';
import { outputRouting } from '../../nodes/MailDeliveryTrigger/outputs';
import { EVENT_BUTTONS } from '../../emulator/mailView.cts';

const root = path.join(__dirname, '..', '..');

/**
 * The pages checked. docs/human-review.md and Send and Wait for Response's Options are rewritten for issue 45 at
 * the same time: the page joins this list when both land.
 */
const PAGES = [
	'README.md',
	...readdirSync(path.join(root, 'docs'))
		.filter((name) => name.endsWith('.md') && name !== 'human-review.md')
		.map((name) => `docs/${name}`),
];

/** n8n's own words the docs use: its panels, settings, buttons and menus (n8n-editor-ui 2.41). */
const N8N_WORDS = [
	'Settings',
	'On Error',
	'Stop Workflow',
	'Continue (using error output)',
	'Continue (regular output)',
	'Retry On Fail',
	'Retry',
	'Stop',
	'Execute step',
	'Execute workflow',
	'Listen for test event',
	'Listening for test events',
	'Stop Listening',
	'Credential',
	'Test',
	'Save',
	'Community Nodes',
	'Install',
	'Human review',
	'Custom API Call',
	'Binary',
	// n8n's Convert to File node, which makes a file of the Sandbox preview's HTML (docs/sending.md).
	'Convert to File',
	// n8n's Remove Duplicates node, whose store the retry claims share (docs/reliability.md).
	'Scope',
	'Workflow',
	'Clear Deduplication History',
];

/** Italics that are not labels: emphasis, values the nodes output, and names of things. */
const NOT_LABELS = [
	'may have been sent',
	'before',
	'probe',
	'wait',
	'human',
	'failed',
	'approval',
	'Unfriendly parts',
	'Reliability',
	'No action required',
	'Hard bounce',
	'Transactional',
	'Mail Delivery',
];

/** Every label a person meets in the nodes' panels, lists and outputs, and in the credential dialogs. */
function panelWords(): Set<string> {
	const words = new Set<string>();
	const visit = (properties: INodeProperties[]) => {
		for (const property of properties) {
			words.add(property.displayName);
			for (const option of property.options ?? []) {
				if ('values' in option) {
					words.add(option.displayName);
					visit(option.values);
				} else if ('type' in option) visit([option as INodeProperties]);
				else if ('name' in option) words.add(String(option.name));
			}
			// Labels of the form a person reads (button labels, given as the field's default).
			if (typeof property.default === 'string' && /Label$/.test(property.displayName))
				words.add(property.default);
		}
	};
	const nodes: INodeTypeDescription[] = [
		new MailDelivery().description,
		new MailDeliveryTrigger().description,
	];
	for (const node of nodes) {
		words.add(node.displayName);
		visit(node.properties);
	}
	for (const credential of [
		new MailDeliverySignatureApi(),
		new MailDeliveryClientCredentialsOAuth2Api(),
		new MailDeliveryAuthCodeOAuth2Api(),
	]) {
		words.add(credential.displayName);
		visit(credential.properties);
	}
	// The trigger's outputs, as the canvas labels them.
	const { count } = outputRouting('perKind', ['*']);
	const labels = new MailDeliveryTrigger().description.outputs as string;
	const draw = new Function('$parameter', `return ${labels.slice(3, -2)}`) as (
		parameter: object,
	) => Array<{ displayName: string }>;
	const outputs = draw({ outputMode: 'perKind', events: ['*'] });
	expect(outputs).toHaveLength(count);
	for (const output of outputs) words.add(output.displayName);
	// The buttons of the emulator's mail page, which the README's demo steps name.
	for (const [, label] of EVENT_BUTTONS) words.add(label);
	return words;
}

/** The italic phrases of a page, outside code: `*Options → Missing Tag Values*`. */
function italicsOf(page: string): Array<{ phrase: string; line: number }> {
	const found: Array<{ phrase: string; line: number }> = [];
	readFileSync(path.join(root, page), 'utf8')
		.split('\n')
		.forEach((text, index) => {
			const prose = text.replace(/`[^`]*`/g, '');
			for (const match of prose.matchAll(/(?<![*\w])\*(?!\*)([^*\n]+?)\*(?!\*)/g))
				found.push({ phrase: match[1], line: index + 1 });
		});
	return found;
}

/** The labels a phrase names: "Options → Missing Tag Values: Fail the Item" is three. */
const partsOf = (phrase: string) =>
	phrase
		.split(/\s*→\s*|:\s+/)
		.map((part) => part.trim())
		.filter(Boolean);

test('every label the README and docs/ name in italics is in the panel as they write it', () => {
	const known = new Set([...panelWords(), ...N8N_WORDS, ...NOT_LABELS]);
	const unknown = PAGES.flatMap((page) =>
		italicsOf(page).flatMap(({ phrase, line }) =>
			partsOf(phrase)
				.filter((part) => !known.has(part))
				.map((part) => `${page}:${line}: "${part}" (in *${phrase}*)`),
		),
	);
	expect(unknown).toEqual([]);
});

test('the check reads what it should: a renamed option would be found', () => {
	const words = panelWords();
	for (const label of [
		'Missing Tag Values',
		'Send With the Tag Empty',
		'Give Way to Others',
		'Unsubscribe',
		'Sandbox Mode',
		'API Secret',
	])
		expect(words.has(label)).toBe(true);
	expect(partsOf('Options → Missing Tag Values: Fail the Item')).toEqual([
		'Options',
		'Missing Tag Values',
		'Fail the Item',
	]);
	expect(italicsOf('README.md').length).toBeGreaterThan(20);
});
