/**
 * Every example workflow passes the checks a workflow saved by n8n's editor passes (issue 32, item 7): each
 * stored parameter of this package's nodes is a field the panel shows for those values, in the shape the
 * editor writes (a resource locator as { __rl, mode, value } with one of the field's modes, an option that
 * exists, a collection's keys among its options), and n8n's own parameter check (NodeHelpers) finds no issue.
 * A resource locator stored as a bare string is what made Tag Values → Name show an empty "Mode…" selector.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodeTypeDescription,
	NodeParameterValueType,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { MailDeliveryTrigger } from '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';

const PACKAGE = 'n8n-nodes-mail-delivery';
const DESCRIPTIONS: Record<string, INodeTypeDescription> = {
	[`${PACKAGE}.mailDelivery`]: new MailDelivery().description,
	[`${PACKAGE}.mailDeliveryTrigger`]: new MailDeliveryTrigger().description,
};
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');

const examples = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({
		file,
		workflow: JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as { nodes: INode[] },
	}));

const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');

/** What is wrong with the stored values of `properties` (the fields at `at`), as the editor would see them. */
function problems(
	properties: INodeProperties[],
	values: INodeParameters,
	at: string,
	node: INode,
	description: INodeTypeDescription,
): string[] {
	const found: string[] = [];
	// The editor decides what it shows from the values with every default filled in.
	const full =
		NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters,
			true,
			false,
			node,
			description,
		) ?? {};
	const shown = (property: INodeProperties) =>
		NodeHelpers.displayParameterPath(full, property, at, node, description);
	for (const [name, value] of Object.entries(values)) {
		const where = at ? `${at}.${name}` : name;
		const candidates = properties.filter((property) => property.name === name);
		const property = candidates.find(shown);
		if (!property) {
			found.push(
				candidates.length
					? `${where}: the panel does not show this field for these values`
					: `${where}: no such field`,
			);
			continue;
		}
		found.push(...valueProblems(property, value, where, node, description));
	}
	return found;
}

function valueProblems(
	property: INodeProperties,
	value: NodeParameterValueType,
	where: string,
	node: INode,
	description: INodeTypeDescription,
): string[] {
	if (isExpression(value) && !['collection', 'fixedCollection'].includes(property.type)) return [];
	switch (property.type) {
		case 'resourceLocator': {
			const locator = value as { __rl?: unknown; mode?: unknown; value?: unknown };
			if (typeof value !== 'object' || value === null || locator.__rl !== true)
				return [`${where}: a resource locator must be stored as { __rl: true, mode, value }`];
			const modes = (property.modes ?? []).map((mode) => mode.name);
			if (!modes.includes(String(locator.mode)))
				return [`${where}: mode "${String(locator.mode)}" is not one of ${modes.join(', ')}`];
			return [];
		}
		case 'options': {
			const allowed = (property.options ?? []).map(
				(option) => (option as { value: unknown }).value,
			);
			return allowed.includes(value) ? [] : [`${where}: ${JSON.stringify(value)} is not an option`];
		}
		case 'multiOptions': {
			const allowed = (property.options ?? []).map(
				(option) => (option as { value: unknown }).value,
			);
			return Array.isArray(value) && value.every((entry) => allowed.includes(entry))
				? []
				: [`${where}: ${JSON.stringify(value)} is not a list of its options`];
		}
		case 'boolean':
		case 'number':
			return typeof value === property.type ? [] : [`${where}: not a ${property.type}`];
		case 'string':
		case 'json':
		case 'dateTime':
			return typeof value === 'string' ? [] : [`${where}: not text`];
		case 'collection': {
			if (typeof value !== 'object' || value === null || Array.isArray(value))
				return [`${where}: a collection must be an object`];
			return problems(
				(property.options ?? []) as INodeProperties[],
				value as INodeParameters,
				where,
				node,
				description,
			);
		}
		case 'fixedCollection': {
			if (typeof value !== 'object' || value === null || Array.isArray(value))
				return [`${where}: a fixed collection must be an object`];
			return Object.entries(value as INodeParameters).flatMap(([groupName, entries]) => {
				const group = (property.options as INodePropertyCollection[]).find(
					(option) => option.name === groupName,
				);
				if (!group) return [`${where}.${groupName}: no such group`];
				const multiple = property.typeOptions?.multipleValues === true;
				if (multiple !== Array.isArray(entries))
					return [`${where}.${groupName}: ${multiple ? 'must be a list' : 'must be one object'}`];
				const list = (multiple ? entries : [entries]) as INodeParameters[];
				return list.flatMap((entry, index) =>
					problems(
						group.values,
						entry,
						`${where}.${groupName}${multiple ? `[${index}]` : ''}`,
						node,
						description,
					),
				);
			});
		}
		default:
			return [];
	}
}

const ourNodes = examples.flatMap(({ file, workflow }) =>
	workflow.nodes
		.filter((node) => node.type in DESCRIPTIONS)
		.map((node) => [`${file}: ${node.name}`, node] as const),
);

test('the examples hold nodes of this package', () => {
	expect(ourNodes.length).toBeGreaterThanOrEqual(4);
});

test.each(ourNodes)('%s: every stored parameter has the shape the panel writes', (_name, node) => {
	const description = DESCRIPTIONS[node.type];
	expect(node.typeVersion).toBe([description.version].flat().sort().reverse()[0]);
	expect(problems(description.properties, node.parameters, '', node, description)).toEqual([]);
});

test.each(ourNodes)("%s: n8n's own parameter check finds no issue", (_name, node) => {
	const description = DESCRIPTIONS[node.type];
	expect(NodeHelpers.getNodeParametersIssues(description.properties, node, description)).toBeNull();
});

test('the checker finds what made Tag Values → Name show an empty "Mode…" selector', () => {
	const description = DESCRIPTIONS[`${PACKAGE}.mailDelivery`];
	const node = {
		name: 'Send',
		type: `${PACKAGE}.mailDelivery`,
		typeVersion: 1,
		parameters: {
			resource: 'transactionalMail',
			operation: 'send',
			tagValues: { values: [{ name: 'name', value: '={{ $json.name }}' }] },
		},
	} as unknown as INode;
	expect(problems(description.properties, node.parameters, '', node, description)).toEqual([
		'tagValues.values[0].name: a resource locator must be stored as { __rl: true, mode, value }',
	]);
});
