/**
 * n8n's editor leaves out of a node's panel every parameter that an "authentication field" shows or
 * hides by (editor-ui nodeTypesUtils: getNodeAuthFields + isAuthRelatedParameter): the fields the
 * credentials depend on are drawn in the credential area, and what they depend on vanishes. This
 * applies that rule to both nodes, so a parameter can never silently disappear from the panel again.
 * The browser suite checks the real panel; this fails in a second.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { MailDeliveryTrigger } from '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';

function hiddenAsAuthenticationRelated(description: INodeTypeDescription): string[] {
	const dependencies = new Set(
		(description.credentials ?? []).flatMap((credential) =>
			Object.keys(credential.displayOptions?.show ?? {}),
		),
	);
	const authFields = description.properties.filter((property) => dependencies.has(property.name));
	const related = (parameter: INodeProperties) =>
		authFields.some((field) => parameter.name in (field.displayOptions?.show ?? {}));
	return [...new Set(description.properties.filter(related).map((property) => property.name))];
}

test.each([
	['Mail Delivery', new MailDelivery().description],
	['Mail Delivery Trigger', new MailDeliveryTrigger().description],
])('%s: no parameter is hidden from the panel as authentication-related', (_name, description) => {
	expect(hiddenAsAuthenticationRelated(description)).toEqual([]);
});

test('the trigger shows its credential only for automatic registration, and Registration itself in the panel', () => {
	const { credentials, properties } = new MailDeliveryTrigger().description;
	for (const credential of credentials ?? [])
		expect(credential.displayOptions?.show?.registration).toEqual(['automatic']);
	const registration = properties.find((property) => property.name === 'registration');
	expect(registration?.displayOptions).toBeUndefined();
});

test('every operation orders its panel the same way: its own fields, then Sandbox Mode, then Options or Additional Fields', () => {
	const { properties } = new MailDelivery().description;
	const operations = new Map<string, string[]>();
	for (const property of properties) {
		const show = property.displayOptions?.show;
		// Fields of the AI-tool version only (its Description) come last there and are not in the panel otherwise.
		if (!show?.resource || !show.operation || show['@tool']) continue;
		for (const resource of show.resource as string[]) {
			for (const operation of show.operation as string[]) {
				const key = `${resource}.${operation}`;
				operations.set(key, [
					...(operations.get(key) ?? []),
					property.type === 'collection' ? 'collection' : property.name,
				]);
			}
		}
	}
	const misplaced = [...operations].filter(([, names]) => {
		const sandbox = names.indexOf('sandboxMode');
		if (sandbox === -1) return false;
		return (
			names.slice(sandbox + 1).some((name) => name !== 'collection') ||
			names.slice(0, sandbox).includes('collection')
		);
	});
	expect(misplaced.map(([key]) => key)).toEqual([]);
});

test("the trigger's outputs, as the editor evaluates their expression: one per chosen kind in a fixed order, Other when all are chosen", () => {
	const outputs = new MailDeliveryTrigger().description.outputs as string;
	// The editor evaluates the text between ={{ and }} with $parameter; the function is self-contained.
	const draw = (parameter: object) =>
		(
			new Function('$parameter', `return ${outputs.slice(3, -2)}`) as (
				p: object,
			) => Array<{ displayName: string }>
		)(parameter);
	expect(draw({ outputMode: 'single' })).toHaveLength(1);
	expect(
		draw({ outputMode: 'perKind', events: ['Opened', 'Delivered'] }).map(
			(output) => output.displayName,
		),
	).toEqual(['Delivered', 'Opened']);
	expect(
		draw({
			outputMode: 'perKind',
			events: [
				'TaskStatus',
				'SpamReport',
				'Unsubscribed',
				'Clicked',
				'Opened',
				'Dropped',
				'Bounced',
				'Delivered',
			],
		}).map((output) => output.displayName),
	).toEqual([
		'Delivered',
		'Bounced',
		'Dropped',
		'Opened',
		'Clicked',
		'Unsubscribe', // whole on the canvas beside an output not yet connected (outputs.ts)
		'SpamReport',
		'TaskStatus',
		'Other',
	]);
	// Events → Any Event: every kind, and Other.
	expect(draw({ outputMode: 'perKind', events: ['*'] })).toHaveLength(9);
});

test('the retry options show the defaults the run uses, and the maximum wait it accepts', async () => {
	const { DEFAULT_RETRY } = await import('../../nodes/shared/transport');
	const { MAX_RETRY_WAIT_SECONDS } = await import('../../nodes/MailDelivery/run/throughput');
	const { throughputOptions } =
		await import('../../nodes/MailDelivery/actions/common.descriptions');
	const field = (name: string) => throughputOptions().find((option) => option.name === name)!;
	expect(field('retryAttempts').default).toBe(DEFAULT_RETRY.maxAttempts);
	expect(field('retryMaxWaitSeconds').default).toBe(DEFAULT_RETRY.maxWaitMs / 1000);
	expect(field('retryMaxWaitSeconds').typeOptions?.maxValue).toBe(MAX_RETRY_WAIT_SECONDS);
});

test('the Timeout option shows the time-out every request uses unless it is set', async () => {
	const { DEFAULT_TIMEOUT_MS } = await import('../../nodes/shared/transport');
	const { MAX_TIMEOUT_SECONDS } = await import('../../nodes/MailDelivery/run/throughput');
	const { throughputOptions } =
		await import('../../nodes/MailDelivery/actions/common.descriptions');
	const timeout = throughputOptions().find((option) => option.name === 'timeoutSeconds')!;
	expect(timeout.default).toBe(DEFAULT_TIMEOUT_MS / 1000);
	expect(timeout.typeOptions?.maxValue).toBe(MAX_TIMEOUT_SECONDS);
	// Well under n8n's own 300 s.
	expect(DEFAULT_TIMEOUT_MS).toBeLessThanOrEqual(60_000);
});

test("Additional Fields hold what goes to the platform; Options hold only how the node behaves (as n8n's nodes separate them)", () => {
	const { properties } = new MailDelivery().description;
	const collection = (operation: string, name: string) =>
		properties
			.filter(
				(property) =>
					property.name === name &&
					(property.displayOptions?.show?.operation as string[] | undefined)?.includes(operation),
			)
			.flatMap((property) =>
				(property.options ?? []).map((option) => (option as { name: string }).name),
			);
	const behaviour = [
		'combineItems',
		'includeInputFields',
		'missingTagValues',
		'parallelRequests',
		'repeatOnRetry',
		'retryAttempts',
		'retryMaxWaitSeconds',
		'batchSize',
		'timeoutSeconds',
	];
	for (const operation of ['send', 'import']) {
		const options = collection(operation, 'options');
		expect(options.length).toBeGreaterThan(0);
		expect(options.filter((name) => !behaviour.includes(name))).toEqual([]);
		const fields = collection(operation, 'additionalFields');
		expect(fields.length).toBeGreaterThan(0);
		expect(fields.filter((name) => behaviour.includes(name))).toEqual([]);
	}
});

test("each node's codex file names its one version and categories from n8n's list, so the node creator files it", () => {
	const N8N_CATEGORIES = [
		'Data & Storage',
		'Finance & Accounting',
		'Marketing & Content',
		'Productivity',
		'Miscellaneous',
		'Sales',
		'Development',
		'Analytics',
		'Communication',
		'Utility',
		// Human in the Loop, as n8n's own send-and-wait nodes (Gmail.node.json) file themselves.
		'HITL',
	];
	for (const [node, codexFile] of [
		[new MailDelivery(), '../../nodes/MailDelivery/MailDelivery.node.json'],
		[new MailDeliveryTrigger(), '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node.json'],
	] as const) {
		const codex = require(codexFile) as { nodeVersion: string; categories: string[] };
		expect(typeof node.description.version).toBe('number');
		expect(Number(codex.nodeVersion)).toBe(node.description.version);
		expect(codex.categories.filter((category) => !N8N_CATEGORIES.includes(category))).toEqual([]);
	}
});

/**
 * n8n's editor fetches a field's load-options list as soon as the field is drawn. A node added from the node
 * creator gets its credential a moment later, while that first fetch is under way, and n8n drops the reload
 * it would make for the credential: the field stays at "Error fetching options" until the panel is reopened
 * (editor-ui ParameterInput: the credentials watcher calls the loader, which returns while a load runs).
 * Searchable lists (resource locators) fetch only when opened, by then with the credential. So no field with
 * loadOptions may be on the panel when it first opens, for any operation, with its defaults.
 */
test.each([
	['Mail Delivery', new MailDelivery().description],
	['Mail Delivery Trigger', new MailDeliveryTrigger().description],
])('%s: no field that loads its options is on a panel as it first opens', (_name, description) => {
	const { NodeHelpers } = require('n8n-workflow') as typeof import('n8n-workflow');
	const loads = (property: INodeProperties) =>
		Boolean(property.typeOptions?.loadOptionsMethod ?? property.typeOptions?.loadOptions);
	const resources = description.properties.find((property) => property.name === 'resource')
		?.options as Array<{ value: string }> | undefined;
	const found: string[] = [];
	for (const resource of resources?.map((option) => option.value) ?? [undefined]) {
		const operations = description.properties.find(
			(property) =>
				property.name === 'operation' &&
				(resource === undefined ||
					(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource)),
		)?.options as Array<{ value: string }> | undefined;
		for (const operation of operations?.map((option) => option.value) ?? [undefined]) {
			const chosen = { ...(resource ? { resource } : {}), ...(operation ? { operation } : {}) };
			const parameters = NodeHelpers.getNodeParameters(
				description.properties,
				chosen,
				true,
				false,
				null,
				description,
			)!;
			for (const property of description.properties) {
				if (!NodeHelpers.displayParameter(parameters, property, null, description)) continue;
				// Top-level fields, and the entries a fixed collection shows by default.
				const shown = [property, ...nestedShownByDefault(property)];
				for (const field of shown.filter(loads))
					found.push(`${resource ?? ''}.${operation ?? ''}: ${field.displayName}`);
			}
		}
	}
	expect(found).toEqual([]);
});

function nestedShownByDefault(property: INodeProperties): INodeProperties[] {
	if (property.type !== 'fixedCollection') return [];
	const defaults = (property.default ?? {}) as Record<string, unknown>;
	return (property.options ?? []).flatMap((option) =>
		option && 'values' in option && defaults[option.name] !== undefined ? option.values : [],
	);
}
