/**
 * What n8n's three "On Error" settings show for a failed item, run through n8n-core's own engine
 * (WorkflowExecute routes items to the error output by their shape, not by the node's say-so).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const rl = (value: string) => ({ __rl: true, mode: 'name', value });
const send = (extra: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: { __rl: true, mode: 'name', value: '={{ $json.template ?? "welcome" }}' },
	...extra,
	// Items without a name are sent with {{name}} empty: these tests are not about tags (missing-tags.test.cts is).
	options: { missingTagValues: 'send', ...((extra.options as IDataObject | undefined) ?? {}) },
});
const orders = (): INodeExecutionData[] =>
	['ada', 'grace', 'margaret', 'linus', 'alan'].map((name, i) => ({
		json: { email: `${name}@example.org`, orderId: `A-100${i}`, name },
	}));
const pairedItemOf = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;

describe('On Error = Continue (using error output)', () => {
	test('an invalid address: four items on the success output, the bad one alone on the error output with its input fields', async () => {
		const items = orders();
		items[2].json.email = 'margaret(at)example.org';
		const result = await runWorkflow({
			...actionWorkflow(send(), { onError: 'continueErrorOutput' }),
			credentials: env.credentials(),
			items,
		});
		const success = result.output('Mail Delivery', 0);
		const failed = result.output('Mail Delivery', 1);
		expect(success.map(pairedItemOf)).toEqual([0, 1, 3, 4]);
		expect(failed).toHaveLength(1);
		expect(pairedItemOf(failed[0])).toBe(2);
		// n8n puts the input item's fields back beside the error.
		expect(failed[0].json).toMatchObject({
			orderId: 'A-1002',
			name: 'margaret',
			email: 'margaret(at)example.org',
		});
		expect(String(failed[0].json.error)).toMatch(/not a valid email address/);
		expect(
			env
				.view()
				.mails.map((mail) => mail.email)
				.sort(),
		).toEqual(['ada@example.org', 'alan@example.org', 'grace@example.org', 'linus@example.org']);
	});

	test('a request the platform refused: only the item at fault reaches the error output, with the platform code in its details', async () => {
		const items = orders();
		items[3].json.template = 'missing';
		const result = await runWorkflow({
			...actionWorkflow(send(), { onError: 'continueErrorOutput' }),
			credentials: env.credentials(),
			items,
		});
		expect(result.output('Mail Delivery', 0).map(pairedItemOf)).toEqual([0, 1, 2, 4]);
		const [failed, ...others] = result.output('Mail Delivery', 1);
		expect(others).toHaveLength(0);
		expect(failed.json).toMatchObject({ orderId: 'A-1003', template: 'missing' });
		expect((failed.json.details as IDataObject).code).toBe(400);
		expect(String((failed.json.details as IDataObject).description)).toContain(
			'Nothing of that request was sent',
		);
	});

	test('an operation run item by item routes its failed item the same way', async () => {
		const items: INodeExecutionData[] = [
			{ json: { email: 'ada@example.org', ref: 1 } },
			{ json: { email: 'nobody@example.org', ref: 2 } },
		];
		await env.control('POST', 'reset');
		const upsert = await runWorkflow({
			...actionWorkflow({ resource: 'contact', operation: 'upsert', email: 'ada@example.org' }),
			credentials: env.credentials(),
		});
		expect(upsert.error()).toBeUndefined();
		const result = await runWorkflow({
			...actionWorkflow(
				{ resource: 'contact', operation: 'get', email: '={{ $json.email }}' },
				{ onError: 'continueErrorOutput' },
			),
			credentials: env.credentials(),
			items,
		});
		expect(result.output('Mail Delivery', 0).map(pairedItemOf)).toEqual([0]);
		const failed = result.output('Mail Delivery', 1);
		expect(failed.map(pairedItemOf)).toEqual([1]);
		expect(failed[0].json).toMatchObject({ ref: 2, email: 'nobody@example.org' });
		expect(failed[0].json.error).toBeTruthy();
	});
});

test('On Error = Continue (regular output): every item on the one output, the bad one with its error', async () => {
	const items = orders();
	items[2].json.email = 'margaret(at)example.org';
	const result = await runWorkflow({
		...actionWorkflow(send(), { onError: 'continueRegularOutput' }),
		credentials: env.credentials(),
		items,
	});
	const out = result.output('Mail Delivery', 0);
	expect(out.map(pairedItemOf)).toEqual([0, 1, 2, 3, 4]);
	expect(out.filter((item) => item.json.error).map(pairedItemOf)).toEqual([2]);
	expect(out[0].json.success).toBe(true);
});

test('On Error = Stop Workflow after a partial send: the error says in words how many items were not sent and which were', async () => {
	const items = orders();
	items[3].json.template = 'missing';
	const result = await runWorkflow({
		...actionWorkflow(send({ options: { parallelRequests: 1 } })),
		credentials: env.credentials(),
		items,
	});
	const error = result.error() as Error & { description?: string };
	expect(error.message).toMatch(/^1 of 5 items not sent: /);
	expect(error.message).not.toMatch(/transactional\/mail/);
	expect(error.description).toContain('Items 0–2 and 4 were sent');
	expect(error.description).toContain('item 3 (the 4th input item) was not sent');
	expect(env.view().mails).toHaveLength(4);
});
