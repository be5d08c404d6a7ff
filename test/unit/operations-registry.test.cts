/**
 * Every operation the panel offers is complete: the node's Operation fields list exactly the modules of each
 * resource, each module's fields are shown for it, it has a Description for AI agents and an output schema,
 * every operation run item by item offers Requests in Parallel as Send does, and every one that changes
 * something offers Redo After a Crash, and each states how it runs: one that combines items its `steps`, every
 * other its two steps, `prepare` and (unless its plan is one request) `send` (the modules describe themselves:
 * run/operation.ts, actions/resource.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { resources, toolDescriptionOf } from '../../nodes/MailDelivery/actions';
import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { combinesItems } from '../../nodes/MailDelivery/run/operation';

const { properties } = new MailDelivery().description;
const shownFor = (property: INodeProperties, resource: string, operation: string) =>
	(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource) &&
	(property.displayOptions?.show?.operation as string[] | undefined)?.includes(operation);
const offered = properties
	.filter((property) => property.name === 'operation')
	.flatMap((property) =>
		((property.options ?? []) as INodePropertyOptions[]).map(
			(option) => `${(property.displayOptions!.show!.resource as string[])[0]}.${option.value}`,
		),
	);
const modules = Object.entries(resources).flatMap(([resource, { operations }]) =>
	Object.entries(operations).map(([operation, module]) => ({ resource, operation, module })),
);
/** An operation's Options, those of a group under a heading (Send and Wait's Sending the Mail) included. */
const optionsOf = (resource: string, operation: string) =>
	(
		(properties.find((p) => p.name === 'options' && shownFor(p, resource, operation))?.options ??
			[]) as INodeProperties[]
	).flatMap((option) =>
		option.type === 'fixedCollection' && option.name !== 'limitWaitTime'
			? (option.options as Array<{ values: INodeProperties[] }>).flatMap((group) => group.values)
			: [option],
	);

test('the Operation fields offer exactly the operation modules', () => {
	expect(offered.sort()).toEqual(modules.map((m) => `${m.resource}.${m.operation}`).sort());
});

test.each(modules.map((m) => [`${m.resource}.${m.operation}`, m]))(
	'%s: its fields shown for it, a tool description, an output schema',
	(_, { resource, operation, module }) => {
		for (const field of module.properties)
			expect(
				properties.some((p) => p.name === field.name && shownFor(p, resource, operation)),
			).toBe(true);
		expect(toolDescriptionOf(resource, operation)).toBe(module.toolDescription);
		const schema = path.join(
			__dirname,
			'../../nodes/MailDelivery/__schema__/v1.0.0',
			resource,
			`${operation}.json`,
		);
		expect(existsSync(schema)).toBe(true);
	},
);

test('every operation offers Requests in Parallel with the same label and limits (but one that asks a person once per execution); those that change something, Redo After a Crash', () => {
	const send = optionsOf('transactionalMail', 'send').find((o) => o.name === 'parallelRequests')!;
	for (const { resource, operation, module } of modules) {
		const options = optionsOf(resource, operation);
		const parallel = options.find((o) => o.name === 'parallelRequests');
		const once = 'wait' in module;
		expect([resource, operation, parallel?.displayName, parallel?.typeOptions]).toEqual([
			resource,
			operation,
			once ? undefined : send.displayName,
			once ? undefined : send.typeOptions,
		]);
		const changes = 'effect' in module || 'executeBatch' in module;
		expect([resource, operation, options.some((o) => o.name === 'repeatOnRetry')]).toEqual([
			resource,
			operation,
			changes,
		]);
	}
});

test.each(modules.map((m) => [`${m.resource}.${m.operation}`, m]))(
	'%s: how it runs, as run/operation.ts says (its two steps, or the steps of one that combines items)',
	(_, { module }) => {
		const steps = ['prepare', 'send', 'steps', 'execute'].map((name) => [
			name,
			typeof (module as unknown as Record<string, unknown>)[name],
		]);
		if (combinesItems(module))
			expect(steps).toEqual([
				['prepare', 'undefined'],
				['send', 'undefined'],
				['steps', 'function'],
				['execute', 'undefined'],
			]);
		else
			expect(steps).toEqual([
				['prepare', 'function'],
				['send', module.send === undefined ? 'undefined' : 'function'],
				['steps', 'undefined'],
				['execute', 'undefined'],
			]);
	},
);
