/**
 * The template's look-up of a send under Missing Tag Values (issue 61, item 2): the first item's template is
 * looked up from the node's start, so that its round trip overlaps the reading of the items, and still no mail
 * leaves before its template's tags are known.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { rl, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator({ messages: 'en' });
const TEMPLATE_GET = '/v5/campaign/mail/template/get';

/** The README's fast path: addresses and tag values read from the items' fields, template "welcome". */
const send = (options: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	recipientSource: 'inputField',
	recipientField: 'email',
	contentSource: 'template',
	templateName: rl('welcome'),
	tagValuesMode: 'inputFields',
	options,
});
const customers = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({
		json: { email: `c${i}@example.org`, name: `C${i}` },
	}));
const requestsTo = (path: string) => env.view().requests.filter((r) => r.path === path);

async function run(parameters: IDataObject, items: INodeExecutionData[]) {
	const result = await runWorkflow({
		...actionWorkflow(parameters),
		credentials: env.credentials(),
		items,
	});
	return { result, output: result.output('Mail Delivery').map((item) => item.json) };
}

test("the template's look-up reaches the platform while the items are still being read", async () => {
	const items = customers(400);
	// The last item's address is read last: what the platform had seen of the template by then.
	let lookUpsSeenAtLastItem: number | undefined;
	const last = items[items.length - 1].json;
	Object.defineProperty(last, 'email', {
		enumerable: true,
		get: () => {
			lookUpsSeenAtLastItem ??= requestsTo(TEMPLATE_GET).length;
			return 'last@example.org';
		},
	});
	const { result, output } = await run(send(), items);
	expect(result.error()).toBeUndefined();
	expect(output).toHaveLength(400);
	expect(lookUpsSeenAtLastItem).toBe(1);
	expect(requestsTo(TEMPLATE_GET)).toHaveLength(1);
});

test("with the template's look-up answered late, no mail leaves before it is answered", async () => {
	// The first look-up is refused with "too many requests" (Retry-After: 1): its answer comes a second late.
	await env.control('POST', 'fault', { path: TEMPLATE_GET, fault: 'tooManyRequests' });
	const { result, output } = await run(send(), customers(300));
	expect(result.error()).toBeUndefined();
	expect(output).toHaveLength(300);
	const log = env.view().requests;
	const answered = log.findIndex((r) => r.path === TEMPLATE_GET && r.code === 200);
	const firstSend = log.findIndex((r) => r.path === TX);
	expect(log.filter((r) => r.path === TEMPLATE_GET).map((r) => r.code)).toEqual([429, 200]);
	expect(answered).toBeGreaterThanOrEqual(0);
	expect(firstSend).toBeGreaterThan(answered);
	expect(requestsTo(TX)).toHaveLength(3);
});

test('Send With the Tag Empty: the mails do not wait for a late look-up, and each still says which tags it lacked', async () => {
	await env.control('POST', 'fault', { path: TEMPLATE_GET, fault: 'tooManyRequests' });
	const { result, output } = await run(send({ missingTagValues: 'send' }), customers(300));
	expect(result.error()).toBeUndefined();
	const log = env.view().requests;
	const answered = log.findIndex((r) => r.path === TEMPLATE_GET && r.code === 200);
	expect(log.findIndex((r) => r.path === TX)).toBeLessThan(answered);
	// "welcome" uses {{name}}, which every item gives: nothing is missing, and the outputs were made after the answer.
	for (const item of output) expect(item).toMatchObject({ success: true });
	for (const item of output) expect(item).not.toHaveProperty('missingTags');
});

test('a run that stops before its first send (items refused under Stop Workflow) leaves no look-up under way after it', async () => {
	const { result } = await run(
		{ ...send({ missingTagValues: 'send' }), sandboxMode: '={{ "yes" }}' },
		customers(2),
	);
	expect(result.error()?.message).toBe(
		'Field "Sandbox Mode" must be true or false (it is "yes"), in item 0 (the 1st input item)',
	);
	// Answered before the node ended: nothing of this run reaches the platform later.
	expect(requestsTo(TEMPLATE_GET)).toHaveLength(1);
	expect(requestsTo(TX)).toHaveLength(0);
});
