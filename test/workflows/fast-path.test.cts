/**
 * Values that only reference the item's fields ({{ $json.email }}, as n8n's drag and drop writes them) are
 * read straight from the item, without n8n's expression engine, and nothing that reaches the platform
 * changes: the same workflow with the same values wrapped in parentheses (which only n8n evaluates) sends
 * the same requests. A run that leaves many values to n8n says so in the output panel.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { people, rl, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();

/** Spies on n8n-core's one reader of parameters: every evaluation by n8n goes through it. */
async function countingReads<T>(run: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
	const { ExecuteContext } = await import('n8n-core');
	const spy = jest.spyOn(
		ExecuteContext.prototype as unknown as { _getNodeParameter: (name: string) => unknown },
		'_getNodeParameter',
	);
	try {
		const result = await run();
		return { result, reads: spy.mock.calls.map(([name]) => name) };
	} finally {
		spy.mockRestore();
	}
}

/** `expression` as n8n's engine alone evaluates it: the same value, in parentheses. */
const byN8n = (expression: string) => expression.replace(/\{\{ (\$json[^}]*?) \}\}/g, '{{ ($1) }}');

/** A send built by dragging input fields into To, tag values, a subject and an Additional Field. */
const dragged = (wrap: (expression: string) => string) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: wrap('={{ $json.email }}'),
	contentSource: 'html',
	content: '<p>Hello {{name}}, order {{orderNo}}</p>',
	subject: wrap('=Order {{ $json.order }} for {{ $json["full name"] }}'),
	tagValuesMode: 'fields',
	tagValues: {
		values: [
			{ name: rl('name'), value: wrap('={{ $json.customer.first }}') },
			{ name: rl('orderNo'), value: wrap('={{ $json.order }}') },
		],
	},
	additionalFields: { category: wrap('={{ $json.category }}') },
	options: { parallelRequests: 1 },
});

/** Items with text, numbers (0 among them), unicode and a missing field; one holds an object where text is read. */
const customers = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({
		json: {
			email: `c${i}@example.org`,
			order: i % 7 === 0 ? 0 : i * 1.5,
			'full name': i % 5 === 0 ? 'Zoë Ünal' : `Customer ${i}`,
			customer: { first: i === 3 ? { nested: true } : `First${i}` },
			...(i % 4 === 0 ? {} : { category: `cat-${i % 3}` }),
		},
	}));

/** The request bodies the platform received, without the request ids the node makes up. */
const bodies = () =>
	env
		.view()
		.requests.filter((request) => request.path === TX)
		.map((request) => {
			const { uniqueMsgID: _id, ...body } = request.body as IDataObject;
			return body;
		});

test('a send built by dragging fields sends exactly what n8n evaluating every expression sends, without evaluating them', async () => {
	const items = customers(300);
	const fast = await countingReads(
		async () =>
			await runWorkflow({
				...actionWorkflow(
					dragged((expression) => expression),
					{ onError: 'continueErrorOutput' },
				),
				credentials: env.credentials(),
				items,
			}),
	);
	const sentFast = bodies();
	env.emulator.reset();
	const slow = await countingReads(
		async () =>
			await runWorkflow({
				...actionWorkflow(dragged(byN8n), { onError: 'continueErrorOutput' }),
				credentials: env.credentials(),
				items,
			}),
	);
	expect(sentFast).toEqual(bodies());
	expect(sentFast.length).toBeGreaterThan(0);
	// n8n evaluated the parenthesised values for every item; the dragged ones only where an item held an
	// object (item 3's customer.first), which the node leaves to n8n.
	const evaluatedFast = fast.reads.filter((name) => name !== 'resource' && name !== 'operation');
	expect(evaluatedFast.filter((name) => name === 'to')).toHaveLength(0);
	expect(evaluatedFast.filter((name) => name === 'tagValues.values')).toHaveLength(1);
	expect(slow.reads.filter((name) => name === 'to')).toHaveLength(300);
	// Every item's output is the same, errors included (item 3's object tag value is refused in both).
	const outputs = (run: typeof fast.result) =>
		[...run.output('Mail Delivery', 0), ...run.output('Mail Delivery', 1)].map((item) => {
			const { uniqueMsgID: _id, ...json } = item.json;
			return json;
		});
	expect(outputs(fast.result)).toEqual(outputs(slow.result));
});

test('an operation run item by item reads dragged fields from the item too', async () => {
	const { reads } = await countingReads(
		async () =>
			await runWorkflow({
				...actionWorkflow({
					resource: 'contact',
					operation: 'upsert',
					email: '={{ $json.email }}',
					additionalFields: { name: '={{ $json.first }} {{ $json.last }}' },
				}),
				credentials: env.credentials(),
				items: people(20).map((item, i) => ({
					json: { ...item.json, first: `F${i}`, last: `L${i}` },
				})),
			}),
	);
	expect(reads.filter((name) => name === 'email' || name === 'additionalFields')).toEqual([]);
	const saved = env
		.view()
		.requests.filter((request) => request.path === '/v5/contacts/upsert')
		.map((request) => request.body as IDataObject);
	expect(saved).toHaveLength(20);
	expect(saved.find((body) => body.email === 'p7@example.org')?.name).toBe('F7 L7');
});

test('a run that leaves many values to n8n says which fields, and the faster way to give them', async () => {
	const result = await runWorkflow({
		...actionWorkflow({
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: '={{ $json.email.trim() }}',
			contentSource: 'template',
			templateName: rl('welcome'),
			options: { missingTagValues: 'send' },
		}),
		credentials: env.credentials(),
		items: people(150),
	});
	const hints = result.run.data.resultData.runData['Mail Delivery'][0].hints ?? [];
	expect(hints.map((hint) => hint.message)).toContainEqual(
		expect.stringMatching(
			/evaluated these fields item by item.*To \(150 items\): Recipients From → An Input Field/,
		),
	);

	// Values read from the items: no such hint.
	const fast = await runWorkflow({
		...actionWorkflow({
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: '={{ $json.email }}',
			contentSource: 'template',
			templateName: rl('welcome'),
			options: { missingTagValues: 'send' },
		}),
		credentials: env.credentials(),
		items: people(150),
	});
	const fastHints = fast.run.data.resultData.runData['Mail Delivery'][0].hints ?? [];
	expect(fastHints.filter((hint) => /item by item/.test(hint.message))).toEqual([]);
});
