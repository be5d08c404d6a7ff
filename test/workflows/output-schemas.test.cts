/**
 * The output schemas n8n shows before a node has run ("Usually outputs the following fields", mapping, its AI
 * features): one per operation under nodes/MailDelivery/__schema__/v1.0.0/<resource>/<operation>.json and one
 * for the trigger's events (nodes/MailDeliveryTrigger/__schema__/v2.0.0/output.json). Real outputs of every
 * operation (Simplify on and off, sandbox answers, messages with missing tags) and every event kind are checked
 * against them both ways, so they cannot drift: every output field is in the schema with its type, every
 * required field is in every output, and every field the schema lists appears in some output.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { expectCode } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';
import { everyOperation, rl } from '../harness/fixtures.cts';
import {
	actionWorkflow,
	linksOf,
	runToWait,
	runWorkflow,
	startTriggerHost,
	type WaitingRun,
} from '../harness/n8n.cts';

const env = useEmulator({ messages: 'en' });
const ROOT = path.join(__dirname, '..', '..');
const later = () => new Date(Date.now() + 86400_000).toISOString();
const today = () => new Date().toISOString().slice(0, 10);

interface JsonSchema {
	type: string | string[];
	properties?: Record<string, JsonSchema>;
	required?: string[];
	items?: JsonSchema;
}

function schemaOf(file: string): JsonSchema {
	return JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as JsonSchema;
}

const kindOf = (value: unknown) =>
	value === null
		? 'null'
		: Array.isArray(value)
			? 'array'
			: typeof value === 'number' && Number.isInteger(value)
				? 'integer'
				: typeof value;

/**
 * A small JSON Schema check (type, properties, required, items), strict about fields the schema does not list.
 * `seen` collects the schema paths the value gave, for the check that the schema lists nothing unused.
 */
function validate(value: unknown, schema: JsonSchema, at: string, seen: Set<string>): string[] {
	seen.add(at);
	const types = [schema.type].flat();
	const kind = kindOf(value);
	if (!types.includes(kind) && !(kind === 'integer' && types.includes('number')))
		return [`${at || 'the item'} is ${kind}, the schema says ${types.join(' or ')}`];
	if (kind === 'array' && schema.items)
		return (value as unknown[]).flatMap((entry) => validate(entry, schema.items!, `${at}[]`, seen));
	if (kind !== 'object' || !schema.properties) return [];
	const record = value as IDataObject;
	return [
		...(schema.required ?? [])
			.filter((key) => !(key in record))
			.map((key) => `${at}.${key} is required by the schema but missing`),
		// n8n's JSON leaves out a key whose value is undefined.
		...Object.entries(record).flatMap(([key, entry]) =>
			entry === undefined
				? []
				: schema.properties![key]
					? validate(entry, schema.properties![key], `${at}.${key}`, seen)
					: [`${at}.${key} is not in the schema`],
		),
	];
}

/** Every path the schema describes: what some output must give. */
function schemaPaths(schema: JsonSchema, at = ''): string[] {
	const own = [at];
	if (schema.items) return [...own, ...schemaPaths(schema.items, `${at}[]`)];
	return [
		...own,
		...Object.entries(schema.properties ?? {}).flatMap(([key, child]) =>
			schemaPaths(child, `${at}.${key}`),
		),
	];
}

/** Outputs by operation, collected over the cases below. */
const outputs = new Map<string, IDataObject[]>();

async function run(parameters: IDataObject, items: INodeExecutionData[] = [{ json: {} }]) {
	const result = await runWorkflow({
		...actionWorkflow(parameters),
		credentials: env.credentials(),
		items,
	});
	const error = result.error() as (Error & { description?: string }) | undefined;
	if (error) throw new Error(`${error.message}: ${error.description ?? ''}`);
	const json = result.output('Mail Delivery').map((item) => item.json);
	const key = `${String(parameters.resource)}/${String(parameters.operation)}`;
	outputs.set(key, [...(outputs.get(key) ?? []), ...json]);
	return json;
}

/** Runs a workflow that waits, answers it, and collects what the node gave while waiting and once answered. */
async function runWaiting(
	parameters: IDataObject,
	answer?: (run: WaitingRun, link: string) => Promise<unknown>,
) {
	const waiting = await runToWait(parameters, env.credentials());
	const collected = waiting.first.output('Mail Delivery').map((item) => item.json);
	if (answer) {
		const link = linksOf(env.view().mails.at(-1)!.html!).find((href) =>
			href.includes('/webhook-waiting/'),
		)!;
		await answer(waiting, link);
		collected.push(...waiting.last.output('After').map((item) => item.json));
	}
	const key = 'transactionalMail/sendAndWait';
	outputs.set(key, [...(outputs.get(key) ?? []), ...collected]);
}

const campaign = (mailName: string, extra: IDataObject = {}) => ({
	resource: 'campaign',
	operation: 'create',
	mailName,
	senderMail: rl('news@example.com'),
	sendLists: { list: [{ listName: rl('newsletter') }] },
	subject: 'Spring',
	content: '<p>hi</p>',
	...extra,
});

/** Every operation, run as users run it; each case's outputs are added to `outputs`. */
async function runEveryOperation() {
	// Campaigns: one completed (it has mailStats), one scheduled; Simplify on and off.
	await run(campaign('done'));
	await env.control('POST', 'flush');
	await run(campaign('scheduled', { additionalFields: { sendDate: later() } }));
	await run(campaign('tried', { sandboxMode: true }));
	await run({ resource: 'campaign', operation: 'getMany', returnAll: true });
	await run({ resource: 'campaign', operation: 'getMany', returnAll: true, simplify: false });
	await run({ resource: 'campaign', operation: 'getStats', startDate: today(), endDate: today() });
	await run({
		resource: 'campaign',
		operation: 'cancel',
		mailName: rl('scheduled'),
		sandboxMode: true,
	});
	await run({ resource: 'campaign', operation: 'cancel', mailName: rl('scheduled') });
	await run({ resource: 'campaign', operation: 'delete', mailName: rl('scheduled') });
	await run({ resource: 'campaign', operation: 'delete', mailName: rl('done'), sandboxMode: true });

	// Templates.
	await run({
		resource: 'template',
		operation: 'create',
		templateName: 'receipt',
		templateSubject: 'Receipt {{orderId}}',
		templateContent: '<p>Thanks {{firstName}}</p>',
	});
	await run({ resource: 'template', operation: 'getMany', returnAll: true });
	await run({ resource: 'template', operation: 'getMany', returnAll: true, simplify: false });
	await run({ resource: 'template', operation: 'delete', templateName: rl('receipt') });

	// Contacts.
	await run({
		resource: 'contact',
		operation: 'upsert',
		email: 'new@example.org',
		additionalFields: { name: 'New', listName: rl('newsletter') },
	});
	await run({
		resource: 'contact',
		operation: 'upsert',
		email: 'phone@example.org',
		additionalFields: { phoneNumber: '+33612345678' },
	});
	await run({
		resource: 'contact',
		operation: 'upsert',
		email: 'sb@example.org',
		sandboxMode: true,
	});
	await run({ resource: 'contact', operation: 'get', email: 'new@example.org' });
	await run({ resource: 'contact', operation: 'get', email: 'ada@example.org' });
	await run(
		{
			resource: 'contact',
			operation: 'import',
			updateMode: 1,
			additionalFields: { listName: rl('vip') },
		},
		[{ json: { email: 'x@example.org', name: 'X' } }, { json: { email: 'y@example.org' } }],
	);
	await run({ resource: 'contact', operation: 'import', updateMode: 1, sandboxMode: true }, [
		{ json: { email: 'z@example.org' } },
	]);
	await run({ resource: 'contact', operation: 'delete', email: 'x@example.org' });
	await run({
		resource: 'contact',
		operation: 'delete',
		email: 'y@example.org',
		sandboxMode: true,
	});

	// Contact lists.
	await run({ resource: 'contactList', operation: 'create', listName: 'fresh' });
	await run({ resource: 'contactList', operation: 'create', listName: 'sb', sandboxMode: true });
	await run({ resource: 'contactList', operation: 'getMany', returnAll: true });
	await run({ resource: 'contactList', operation: 'delete', listName: rl('fresh') });
	await run({
		resource: 'contactList',
		operation: 'delete',
		listName: rl('vip'),
		sandboxMode: true,
	});

	// Verified senders.
	await run({
		resource: 'verifiedSender',
		operation: 'add',
		senderEmail: 'shop@shop.example',
		senderType: '2',
	});
	await run({
		resource: 'verifiedSender',
		operation: 'add',
		senderEmail: 'sb@shop.example',
		senderType: '1',
		sandboxMode: true,
	});
	await run({ resource: 'verifiedSender', operation: 'getMany', returnAll: true });
	await run({
		resource: 'verifiedSender',
		operation: 'verify',
		fromDomain: rl('sender@example.com'),
		selector: 'default',
	});
	await run({
		resource: 'verifiedSender',
		operation: 'delete',
		senderEmail: rl('shop@shop.example'),
	});
	await run({
		resource: 'verifiedSender',
		operation: 'delete',
		senderEmail: rl('news@example.com'),
		sandboxMode: true,
	});

	// Transactional mail: a template send where one item lacks {{name}} (sent with the tag empty, so its output
	// lists missingTags), an HTML send in the sandbox.
	await run(
		{
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			recipientSource: 'inputField',
			contentSource: 'template',
			templateName: rl('welcome'),
			tagValuesMode: 'inputFields',
			options: { missingTagValues: 'send' },
		},
		[{ json: { email: 'ada@example.org', name: 'Ada' } }, { json: { email: 'grace@example.org' } }],
	);
	await run({
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: rl('sender@example.com'),
		to: 'a@example.org',
		contentSource: 'html',
		content: '<p/>',
		subject: 's',
		sandboxMode: true,
		additionalFields: { cc: 'c@example.org', bcc: 'b@example.org' },
	});
	// Sandbox previews of a template that cannot be read: an item with two versions, and one with one message.
	for (const versions of [
		'[{"to": [{"email": "a@example.org"}], "cc": [{"email": "c@example.org"}], "bcc": [{"email": "b@example.org"}]}, {"to": [{"email": "b@example.org"}]}]',
		'',
	]) {
		await env.control('POST', 'fault', {
			path: '/v5/campaign/mail/template/get',
			fault: 'badGateway',
		});
		await run({
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			...(versions
				? { messageSource: 'definedHere', versionsMode: 'json', messageVersionsJson: versions }
				: { to: 'a@example.org' }),
			contentSource: 'template',
			templateName: rl('welcome'),
			sandboxMode: true,
			options: { missingTagValues: 'send' },
		});
	}
	await run({
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: rl('sender@example.com'),
		messageSource: 'definedHere',
		versionsMode: 'json',
		messageVersionsJson:
			'[{"to": [{"email": "a@example.org"}]}, {"to": [{"email": "b@example.org"}]}]',
		contentSource: 'html',
		content: '<p/>',
		subject: 's',
		sandboxMode: true,
	});
	await env.control('POST', 'flush');
	await run({ resource: 'transactionalMail', operation: 'getStats' });

	// Send and Wait for Response: its output while it waits, or in the sandbox; then the answers that resume it.
	const ask = {
		resource: 'transactionalMail',
		operation: 'sendAndWait',
		senderMail: rl('sender@example.com'),
		sendTo: 'a@example.org',
		subject: 's',
		message: 'm',
	};
	await runWaiting({ ...ask, sandboxMode: true });
	await runWaiting(
		{ ...ask, options: { limitWaitTime: { values: { resumeAmount: 1, resumeUnit: 'days' } } } },
		async (waiting, link) => await waiting.open(link, { method: 'POST' }),
	);
	// Without an answer until the limit: the input items, each saying it timed out.
	await runWaiting(
		{ ...ask, options: { limitWaitTime: { values: { resumeAmount: 1, resumeUnit: 'days' } } } },
		async (waiting) => await waiting.timeOut(),
	);
	await runWaiting(
		{ ...ask, responseType: 'freeText' },
		async (waiting, link) =>
			await waiting.open(link, { method: 'POST', body: { data: { 'field-0': 'fine' } } }),
	);

	// Webhook: nothing configured, then saved, then read again.
	await run({ resource: 'webhook', operation: 'get' });
	await run({
		resource: 'webhook',
		operation: 'save',
		updateFields: {
			transCallbackUrl: 'https://hooks.example/mail',
			transEvent: ['Bounced', 'Opened'],
			transEnable: true,
			transCallbackUrlExtra: {
				entries: [{ sender: 'news@example.com', url: 'https://hooks.example/news' }],
			},
			transCallbackUrlExtraUpdateMode: 'save',
		},
	});
	await run({ resource: 'webhook', operation: 'get' });
}

const operations = (() => {
	const { properties } = new MailDelivery().description;
	const resources = properties.find((property) => property.name === 'resource')!.options as Array<{
		value: string;
	}>;
	return resources.flatMap(({ value: resource }) =>
		properties
			.filter(
				(property) =>
					property.name === 'operation' &&
					(property.displayOptions?.show?.resource as string[]).includes(resource),
			)
			.flatMap((property) =>
				(property.options as Array<{ value: string }>).map(({ value }) => `${resource}/${value}`),
			),
	);
})();

describe('Mail Delivery: every operation', () => {
	beforeAll(async () => {
		await env.emulator.reset();
		await runEveryOperation();
	}, 60_000);

	test('there is a schema for each operation offered, and each ran here', async () => {
		expect(operations.map((operation) => operation.replace('/', '.')).sort()).toEqual(
			await everyOperation(),
		);
		const file = (operation: string) => `nodes/MailDelivery/__schema__/v1.0.0/${operation}.json`;
		expect(operations.filter((operation) => !existsSync(path.join(ROOT, file(operation))))).toEqual(
			[],
		);
		expect(operations.filter((operation) => !outputs.get(operation)?.length)).toEqual([]);
	});

	test.each(operations)(
		'%s: outputs match the schema, and the schema lists nothing they never give',
		(operation) => {
			const schema = schemaOf(`nodes/MailDelivery/__schema__/v1.0.0/${operation}.json`);
			const seen = new Set<string>();
			const problems = (outputs.get(operation) ?? []).flatMap((item) =>
				validate(item, schema, '', seen),
			);
			expect(problems).toEqual([]);
			expect(schemaPaths(schema).filter((at) => !seen.has(at))).toEqual([]);
		},
	);
});

describe('Mail Delivery Trigger: every event kind', () => {
	const events: IDataObject[] = [];

	/** Every kind the emulator pushes, as the trigger outputs it with and without its options. */
	beforeAll(async () => {
		await env.emulator.reset();
		for (const options of [{}, { addIsoTimes: true, eventTimeZone: 'Europe/Paris' }]) {
			const host = await startTriggerHost({ events: ['*'], options }, env.credentials());
			try {
				await host.create();
				await expectCode(
					env.emulator,
					'/v5/transactional/mail/sends_customised',
					{
						senderMail: 'sender@example.com',
						subject: 's',
						content: 'c',
						category: 'welcome',
						uniqueMsgID: 'order-1',
						messageVersions: [
							{
								to: ['ok', 'bounce', 'soft', 'filtered', 'expired'].map((local) => ({
									email: `${local}@example.org`,
								})),
							},
						],
					},
					200,
				);
				for (const kind of ['Opened', 'Clicked', 'Unsubscribed', 'SpamReport'])
					await env.control('POST', 'events', { kind, email: 'ok@example.org' });
				await run(campaign(`c${events.length}`));
				await env.control('POST', 'flush');
				events.push(
					...host.executions.flatMap((execution) => execution.flat()).map((item) => item.json),
				);
				await host.remove();
			} finally {
				await host.close();
			}
		}
	}, 60_000);

	test('events of every kind match the schema, and the schema lists nothing they never give', () => {
		const kinds = new Set(events.map((event) => event.EventCode));
		expect([...kinds].sort()).toEqual(
			[
				'Bounced',
				'Clicked',
				'Delivered',
				'Dropped',
				'Opened',
				'SpamReport',
				'TaskStatus',
				'Unsubscribed',
			].sort(),
		);
		const schema = schemaOf('nodes/MailDeliveryTrigger/__schema__/v2.0.0/output.json');
		const seen = new Set<string>();
		expect(events.flatMap((event) => validate(event, schema, '', seen))).toEqual([]);
		expect(schemaPaths(schema).filter((at) => !seen.has(at))).toEqual([]);
	});
});
