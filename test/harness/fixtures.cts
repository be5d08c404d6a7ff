/** Parameters and items the workflow tests share. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

export const TX = '/v5/transactional/mail/sends_customised';

/** A resource locator value given by name, as a user types it. */
export const rl = (value: string) => ({ __rl: true, mode: 'name', value });

/**
 * A transactional send of the seeded template to each item's `email`; `extra` adds or replaces parameters. The
 * template's {{name}} is left empty (Missing Tag Values: Send With the Tag Empty, unless `extra.options` says
 * otherwise): these sends test what happens around a send, not its tags (missing-tags.test.cts does).
 */
export const sendToEachItem = (extra: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: rl('welcome'),
	...extra,
	options: { missingTagValues: 'send', ...((extra.options as IDataObject | undefined) ?? {}) },
});

export const UPSERT = '/v5/contacts/upsert';

/** Contact → Create or Update of each item's `email`, with its `name`; `options` as the Options collection. */
export const upsert = (options: IDataObject = {}) => ({
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	additionalFields: { name: '={{ $json.name }}' },
	options,
});

/** `count` items, each with its own address p<i>@example.org. */
export const people = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({ json: { email: `p${i}@example.org` } }));

/** Every operation the action node offers, as "resource.operation", from its resources' lists (actions/). */
export async function everyOperation(): Promise<string[]> {
	const { resources } = await import('../../nodes/MailDelivery/actions');
	return Object.entries(resources)
		.flatMap(([resource, { operations }]) =>
			Object.keys(operations).map((operation) => `${resource}.${operation}`),
		)
		.sort();
}
