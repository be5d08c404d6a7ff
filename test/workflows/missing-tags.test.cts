/**
 * Tags the content uses that a message carries no value for (issue 32, item 1): the platform fills them with
 * nothing and answers success, so the node checks the prepared messages before any request.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { rl, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator({ messages: 'en' });
const TEMPLATE_GET = '/v5/campaign/mail/template/get';

/** The README's fast path: addresses and tag values straight from the items' fields. */
const fastPath = (extra: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	recipientSource: 'inputField',
	recipientField: 'email',
	contentSource: 'template',
	templateName: rl('welcome'),
	tagValuesMode: 'inputFields',
	...extra,
});
/** Options → Missing Tag Values: Send With the Tag Empty. */
const sendAnyway = (extra: IDataObject = {}) =>
	fastPath({ ...extra, options: { missingTagValues: 'send' } });
const customers = (count: number, extra: (i: number) => IDataObject = () => ({})) =>
	Array.from({ length: count }, (_, i) => ({
		json: {
			email: `c${i}@example.org`,
			firstName: `C${i}`,
			orderId: `O-${i}`,
			city: 'Lyon',
			...extra(i),
		},
	}));

async function run(
	parameters: IDataObject,
	items: INodeExecutionData[],
	options: Parameters<typeof actionWorkflow>[1] = {},
) {
	const result = await runWorkflow({
		...actionWorkflow(parameters, options),
		credentials: env.credentials(),
		items,
	});
	const task = result.run.data.resultData.runData['Mail Delivery']?.[0];
	return {
		result,
		output: result.output('Mail Delivery').map((item) => item.json),
		// The missing tags' hints (not the advice on crashes every run of several requests gives: retried-executions).
		hints: (task?.hints ?? [])
			.map((hint) => hint.message)
			.filter((message) => !message.startsWith('If n8n stops while this node sends')),
	};
}
const requestsTo = (path: string) => env.view().requests.filter((r) => r.path === path);

/** The template of the issue: a shipping notice whose {{tracking}} the items do not carry. */
async function createOrderShipped() {
	const created = await runWorkflow({
		...actionWorkflow({
			resource: 'template',
			operation: 'create',
			templateName: 'order-shipped',
			templateSubject: 'Your order {{order}} has shipped',
			templateContent: '<p>Hi {{name}}, your parcel {{tracking}} is on its way.</p>',
		}),
		credentials: env.credentials(),
	});
	expect(created.error()).toBeUndefined();
}
const orderShipped = (options: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: rl('order-shipped'),
	tagValues: {
		values: [
			{ name: rl('name'), value: '={{ $json.name }}' },
			{ name: rl('order'), value: '={{ $json.order }}' },
		],
	},
	options,
});
const shoppers = (count: number) =>
	Array.from({ length: count }, (_, i) => ({
		json: { email: `s${i}@example.org`, name: `S${i}`, order: 1001 + i, trackingNo: `T${i}` },
	}));

test('by default a message lacking a tag value is not sent: each item fails naming the tag, the item and the values it holds', async () => {
	await createOrderShipped();
	const { output, hints } = await run(orderShipped(), shoppers(5), { continueOnFail: true });
	expect(requestsTo(TX)).toHaveLength(0);
	expect(env.view().mails).toHaveLength(0);
	expect(output).toHaveLength(5);
	expect(output[3]).toEqual({
		error: 'Tag {{tracking}} has no value, in item 3 (the 4th input item)',
		details: {
			description:
				'The template "order-shipped" uses it; this item holds values for name and order (the input has trackingNo). Nothing was sent for this item. To send such messages with the tag left empty, set Options → Missing Tag Values to Send With the Tag Empty.',
		},
	});
	expect(hints).toEqual([
		'5 of 5 messages have no value for {{tracking}}: the input has trackingNo. Those items were not sent, and each has its error (Options → Missing Tag Values: Fail the Item).',
	]);
});

test('by default, under Stop Workflow, the run stops before any mail goes out and says why', async () => {
	await createOrderShipped();
	const { result } = await run(orderShipped(), shoppers(5));
	expect(result.error()?.message).toBe(
		'Tag {{tracking}} has no value, in item 0 (the 1st input item)',
	);
	expect(requestsTo(TX)).toHaveLength(0);
});

test('Send With the Tag Empty sends them: the tag reaches the recipient empty, and each output names it', async () => {
	await createOrderShipped();
	const { result, output } = await run(orderShipped({ missingTagValues: 'send' }), shoppers(2));
	expect(result.error()).toBeUndefined();
	expect(output.map((item) => [item.success, item.missingTags])).toEqual([
		[true, ['tracking']],
		[true, ['tracking']],
	]);
	expect(env.view().mails.map((mail) => mail.missingTags)).toEqual([['tracking'], ['tracking']]);
});

test('Send With the Tag Empty, the fast path with {{name}} missing: every message is sent, each output and one hint say which tag, the input field that looks like it, and the template is read once', async () => {
	const { result, output, hints } = await run(sendAnyway(), customers(250));
	expect(result.error()).toBeUndefined();
	expect(output).toHaveLength(250);
	for (const item of output) expect(item).toMatchObject({ success: true, missingTags: ['name'] });
	expect(hints).toEqual([
		"250 of 250 messages have no value for {{name}}: the input has firstName. They were sent with the tag left empty (Options → Missing Tag Values: Send With the Tag Empty); each message's output lists its missingTags.",
	]);
	// One look-up of the template for the whole run, before the first send.
	const paths = env.view().requests.map((request) => request.path);
	expect(paths.filter((path) => path === TEMPLATE_GET)).toHaveLength(1);
	expect(paths.indexOf(TEMPLATE_GET)).toBeLessThan(paths.indexOf(TX));
	expect(requestsTo(TX)).toHaveLength(3);
	// The emulator plays the platform: the tag is sent empty, and its mail log says so.
	const mail = env.view().mails.find((entry) => entry.email === 'c7@example.org')!;
	expect(mail).toMatchObject({ subject: 'Welcome, ', missingTags: ['name'] });
});

test('messages that carry the tag say nothing; the hint counts only those that lack it', async () => {
	const { output, hints } = await run(
		sendAnyway(),
		customers(4, (i) => (i % 2 ? { name: `N${i}` } : {})),
	);
	expect(output.map((item) => item.missingTags)).toEqual([
		['name'],
		undefined,
		['name'],
		undefined,
	]);
	expect(hints[0]).toMatch(/^2 of 4 messages have no value for \{\{name\}\}/);
	expect(env.view().mails.find((mail) => mail.email === 'c1@example.org')).toMatchObject({
		subject: 'Welcome, N1',
	});
	expect(
		env.view().mails.find((mail) => mail.email === 'c1@example.org')?.missingTags,
	).toBeUndefined();
});

test('Missing Tag Values: Fail the Item fails those items with their own error, naming the tags and the item, and sends the rest', async () => {
	const { output, hints } = await run(
		fastPath({ options: { missingTagValues: 'fail' } }),
		customers(4, (i) => (i === 2 ? {} : { name: `N${i}` })),
		{ continueOnFail: true },
	);
	expect(output[2]).toEqual({
		error: 'Tag {{name}} has no value, in item 2 (the 3rd input item)',
		details: {
			description: expect.stringContaining(
				'The template "welcome" uses it; this item holds values for email, firstName, orderId and city (the input has firstName).',
			),
		},
	});
	expect(output.filter((item) => item.success === true)).toHaveLength(3);
	expect(
		env
			.view()
			.mails.map((mail) => mail.email)
			.sort(),
	).toEqual(['c0@example.org', 'c1@example.org', 'c3@example.org']);
	expect(hints[0]).toMatch(/^1 of 4 messages have no value for \{\{name\}\}.*were not sent/);
});

test('under Stop Workflow, Fail the Item stops the run before any mail goes out', async () => {
	const { result } = await run(
		fastPath({ options: { missingTagValues: 'fail' } }),
		customers(3, (i) => (i === 1 ? {} : { name: 'N' })),
	);
	expect(result.error()?.message).toBe('Tag {{name}} has no value, in item 1 (the 2nd input item)');
	expect(requestsTo(TX)).toHaveLength(0);
});

test('HTML content: the tags of the HTML and the Subject are compared, and no template is looked up', async () => {
	const { output, hints } = await run(
		sendAnyway({
			contentSource: 'html',
			content: '<p>Order {{orderId}} ships to {{street}}</p>',
			subject: 'For {{firstName}} {{lastName}}',
		}),
		customers(2),
	);
	expect(output.map((item) => item.missingTags)).toEqual([
		['lastName', 'street'],
		['lastName', 'street'],
	]);
	expect(hints[0]).toContain('2 of 2 messages have no value for {{lastName}}.');
	expect(hints[0]).toContain('2 of 2 messages have no value for {{street}}.');
	expect(requestsTo(TEMPLATE_GET)).toHaveLength(0);
});

test("a Subject given replaces the template's, so the template's subject tags are not asked for; shared tag values count", async () => {
	await env.control('POST', 'reset');
	const created = await runWorkflow({
		...actionWorkflow({
			resource: 'template',
			operation: 'create',
			templateName: 'receipt',
			templateSubject: 'Receipt {{orderRef}}',
			templateContent: '<p>Thanks {{firstName}}, from {{shop}}</p>',
		}),
		credentials: env.credentials(),
	});
	expect(created.error()).toBeUndefined();
	const { output, hints } = await run(
		fastPath({
			templateName: rl('receipt'),
			subject: 'Your receipt',
			additionalFields: { sharedParams: '{"shop": "Atelier"}' },
		}),
		customers(2),
	);
	expect(output.map((item) => item.missingTags)).toEqual([undefined, undefined]);
	expect(hints).toEqual([]);
});

test('one look-up per template per run, whatever the number of items; a template chosen per item is read once each', async () => {
	await runWorkflow({
		...actionWorkflow({
			resource: 'template',
			operation: 'create',
			templateName: 'reminder',
			templateSubject: 'Reminder',
			templateContent: '<p>{{firstName}}</p>',
		}),
		credentials: env.credentials(),
	});
	const before = requestsTo(TEMPLATE_GET).length;
	const { output } = await run(
		sendAnyway({
			templateName: {
				__rl: true,
				mode: 'name',
				value: "={{ $json.kind === 'r' ? 'reminder' : 'welcome' }}",
			},
		}),
		customers(120, (i) => ({ kind: i % 3 ? 'w' : 'r' })),
	);
	expect(requestsTo(TEMPLATE_GET).length - before).toBe(2);
	expect(output[0].missingTags).toBeUndefined();
	expect(output[1].missingTags).toEqual(['name']);
});

test('a template that cannot be read leaves the check out and says so; the mail still goes out', async () => {
	await env.control('POST', 'fault', { path: TEMPLATE_GET, fault: 'internalError' });
	const { result, output, hints } = await run(fastPath(), customers(3));
	expect(result.error()).toBeUndefined();
	expect(output.every((item) => item.success === true && item.missingTags === undefined)).toBe(
		true,
	);
	expect(hints).toEqual([
		expect.stringMatching(
			/^The template "welcome" could not be read \(.+\): its messages were not checked for missing tag values\.$/,
		),
	]);
	expect(requestsTo(TX)).toHaveLength(1);
});

test('Versions Defined Here: each version is checked with its own and the shared tag values', async () => {
	const { output } = await run(
		{
			options: { missingTagValues: 'send' },
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			messageSource: 'definedHere',
			versionsMode: 'json',
			contentSource: 'template',
			templateName: rl('welcome'),
			messageVersionsJson: JSON.stringify([
				{ to: [{ email: 'a@example.org' }], params: { name: 'Ada' } },
				{ to: [{ email: 'b@example.org' }] },
			]),
		},
		[{ json: {} }],
	);
	expect(output[0]).toMatchObject({ success: true, missingTags: ['name'] });
});
