/**
 * The platform's tags are written {{name}}, which is n8n's expression syntax: pasting a text with tags into a
 * field makes n8n store an expression ("=" prefix; the browser suite shows it), and n8n would evaluate
 * {{orderId}} to nothing. The values below are what n8n stores after such a paste. A {{ name }} block holding
 * only a tag name reaches the platform as the tag; real n8n expressions in the same field are evaluated by n8n.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const rl = (value: string) => ({ __rl: true, mode: 'name', value });
const TX = '/v5/transactional/mail/sends_customised';
const bodiesOf = (path: string) =>
	env
		.view()
		.requests.filter((request) => request.path === path)
		.map((request) => request.body as IDataObject);

async function run(parameters: IDataObject, items: INodeExecutionData[] = [{ json: {} }]) {
	const result = await runWorkflow({
		...actionWorkflow(parameters),
		credentials: env.credentials(),
		items,
	});
	const error = result.error();
	if (error)
		throw new Error(`${error.message}: ${(error as { description?: string }).description ?? ''}`);
	return result.output('Mail Delivery').map((item) => item.json);
}

const PASTED_SUBJECT = '=Your order {{orderId}} has shipped';
const PASTED_HTML = '=<p>Hi {{firstName}}, your order {{orderId}} is on its way.</p>';

test('Template → Create: a pasted subject and HTML keep their tags on the platform', async () => {
	await run({
		resource: 'template',
		operation: 'create',
		templateName: 'order-shipped',
		templateSubject: PASTED_SUBJECT,
		templateContent: PASTED_HTML,
	});
	const stored = env
		.view()
		.state.templates.find((template) => template.templateName === 'order-shipped');
	expect(stored).toMatchObject({
		templateSubject: 'Your order {{orderId}} has shipped',
		templateContent: '<p>Hi {{firstName}}, your order {{orderId}} is on its way.</p>',
	});
});

test('Campaign → Create: tags in a pasted subject and HTML reach the platform', async () => {
	await run({
		resource: 'campaign',
		operation: 'create',
		mailName: 'shipped',
		senderMail: rl('news@example.com'),
		sendLists: { list: [{ listName: rl('newsletter') }] },
		subject: PASTED_SUBJECT,
		content: PASTED_HTML,
	});
	expect(bodiesOf('/v5/campaign/mail/sends')[0]).toMatchObject({
		subject: 'Your order {{orderId}} has shipped',
		content: '<p>Hi {{firstName}}, your order {{orderId}} is on its way.</p>',
	});
});

test("a tag and a real n8n expression in one field: the tag is kept, n8n's expression is evaluated", async () => {
	await run(
		{
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: '={{ $json.email }}',
			contentSource: 'html',
			subject: '=Order {{orderId}} for {{ $json.name }}',
			content: '=<p>{{ firstName }}: {{ $json.name.toUpperCase() }} {{ 1 + 1 }} {{orderId}}</p>',
			tagValuesMode: 'json',
			params: '={{ JSON.stringify({ orderId: $json.orderId, firstName: $json.name }) }}',
		},
		[{ json: { email: 'ada@example.org', name: 'Ada', orderId: 'A-1' } }],
	);
	const [body] = bodiesOf(TX);
	const [version] = body.messageVersions as IDataObject[];
	expect(body.subject ?? version.subject).toBe('Order {{orderId}} for Ada');
	expect(body.content ?? version.content).toBe('<p>{{firstName}}: ADA 2 {{orderId}}</p>');
	expect(version.params).toEqual({ orderId: 'A-1', firstName: 'Ada' });
});

test('per-version subject (fields) and subject and HTML in Message Versions (JSON) keep their tags', async () => {
	await run(
		{
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			messageSource: 'definedHere',
			contentSource: 'template',
			templateName: rl('welcome'),
			messageVersionsUi: {
				versions: [
					{
						to: '={{ $json.email }}',
						subject: '=Hello {{name}}, from {{ $json.team }}',
						params: '{"name": "Ada"}',
					},
				],
			},
		},
		[{ json: { email: 'ada@example.org', team: 'Sales' } }],
	);
	await run(
		{
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			messageSource: 'definedHere',
			contentSource: 'html',
			content: '<p>default</p>',
			subject: 'default',
			versionsMode: 'json',
			messageVersionsJson:
				'=[{"to": [{"email": "{{ $json.email }}"}], "subject": "Hi {{name}}", "content": "<p>{{ name }} / {{ $json.team }}</p>", "params": {"name": "Ada"}}]',
		},
		[{ json: { email: 'grace@example.org', team: 'Ops' } }],
	);
	const [fromFields, fromJson] = bodiesOf(TX);
	const subjectOf = (body: IDataObject) =>
		(body.messageVersions as IDataObject[])[0].subject ?? body.subject;
	expect(subjectOf(fromFields)).toBe('Hello {{name}}, from Sales');
	expect(subjectOf(fromJson)).toBe('Hi {{name}}');
	expect((fromJson.messageVersions as IDataObject[])[0].content).toBe('<p>{{name}} / Ops</p>');
});

test('what is not a bare tag name stays n8n\'s: "$", calls and operators are evaluated as today', async () => {
	await run(
		{
			resource: 'template',
			operation: 'create',
			templateName: 'n8n-only',
			templateSubject: '={{ $json.a }}-{{ "x".toUpperCase() }}-{{ 2 * 3 }}',
			templateContent: '<p>{{kept}} as typed</p>',
		},
		[{ json: { a: 'A' } }],
	);
	expect(bodiesOf('/v5/campaign/mail/template/add')[0]).toMatchObject({
		templateSubject: 'A-X-6',
		templateContent: '<p>{{kept}} as typed</p>',
	});
});

test('a field holding only tags is never sent emptied', async () => {
	await run({
		resource: 'template',
		operation: 'create',
		templateName: 'only-tags',
		templateSubject: '={{subject}}',
		templateContent: '={{ body }}',
	});
	expect(bodiesOf('/v5/campaign/mail/template/add')[0]).toMatchObject({
		templateSubject: '{{subject}}',
		templateContent: '{{body}}',
	});
});

describe('10,000 items', () => {
	const orders = (count: number): INodeExecutionData[] =>
		Array.from({ length: count }, (_, i) => ({
			json: { email: `p${i}@example.org`, name: `P${i}`, orderId: `A-${i}` },
		}));
	const send = (subject: string) => ({
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: rl('sender@example.com'),
		recipientSource: 'inputField',
		recipientField: 'email',
		contentSource: 'template',
		templateName: rl('welcome'),
		subject,
		tagValuesMode: 'inputFields',
	});
	let evaluated: string[] = [];
	let spy: jest.SpyInstance;
	beforeEach(() => {
		evaluated = [];
		const original = Expression.prototype.resolveSimpleParameterValue;
		spy = jest
			.spyOn(Expression.prototype, 'resolveSimpleParameterValue')
			.mockImplementation(function (this: Expression, ...args) {
				if (typeof args[0] === 'string') evaluated.push(args[0]);
				return original.apply(this, args);
			});
	});
	afterEach(() => spy.mockRestore());

	test('a subject holding only tags is read with no n8n evaluation, and every mail keeps the tag', async () => {
		const out = await run(send(PASTED_SUBJECT), orders(10_000));
		expect(out).toHaveLength(10_000);
		expect(out.every((item) => item.success === true)).toBe(true);
		expect(evaluated.filter((text) => text.includes('has shipped'))).toEqual([]);
		const bodies = bodiesOf(TX);
		expect(bodies).toHaveLength(100);
		expect(new Set(bodies.map((body) => body.subject))).toEqual(
			new Set(['Your order {{orderId}} has shipped']),
		);
	});

	test('a subject mixing a tag and an n8n expression is evaluated once per item, each item its own', async () => {
		// A method call: only n8n's engine can evaluate it (a bare reference is read from the item).
		const out = await run(send('=Order {{orderId}} for {{ $json.name.trim() }}'), orders(10_000));
		expect(out).toHaveLength(10_000);
		expect(evaluated.filter((text) => text.includes('for'))).toHaveLength(10_000);
		const subjects = bodiesOf(TX).flatMap((body) =>
			(body.messageVersions as IDataObject[]).map((version) => version.subject ?? body.subject),
		);
		expect(subjects).toHaveLength(10_000);
		expect(subjects[0]).toBe('Order {{orderId}} for P0');
		expect(subjects[9_999]).toBe('Order {{orderId}} for P9999');
	});
});

describe('read as n8n reads the rest of the field (n8n itself is the judge: the same text with no tag)', () => {
	// Each case: a field with the platform's tag {{name}}, and the same field with an n8n block giving "T"
	// in its place, which n8n alone evaluates (a field without tags is n8n's). The tag must come out where
	// n8n put "T", and everything else exactly as n8n gave it.
	test.each([
		['backslashes before the tag', '=C:\\\\dir {{name}}', '=C:\\\\dir {{ "T" }}'],
		[
			'backslashes after the last n8n block',
			'={{ $json.a }} C:\\\\dir {{name}}',
			'={{ $json.a }} C:\\\\dir {{ "T" }}',
		],
		['backslashes right before the tag', '=a\\\\\\\\{{name}} b', '=a\\\\\\\\{{ "T" }} b'],
		[
			'backslashes between n8n blocks and tags',
			'={{ $json.a }}\\\\x{{name}}\\\\{{ $json.a }}\\\\',
			'={{ $json.a }}\\\\x{{ "T" }}\\\\{{ $json.a }}\\\\',
		],
	])('%s', async (_what, tagged, twin) => {
		await run(
			{
				resource: 'template',
				operation: 'create',
				templateName: 'backslashes',
				templateSubject: tagged,
				templateContent: twin,
			},
			[{ json: { a: 'A' } }],
		);
		const [body] = bodiesOf('/v5/campaign/mail/template/add');
		expect(String(body.templateContent)).toContain('T');
		expect(body.templateSubject).toBe(String(body.templateContent).replace('T', '{{name}}'));
	});

	test("JavaScript's literals and names under n8n's globals are n8n's, not tags: {{ true }}, {{ null }}, {{ Math.PI }}", async () => {
		await run({
			resource: 'template',
			operation: 'create',
			templateName: 'literals',
			templateSubject: '={{ true }}|{{ null }}|{{ Math.PI }}|{{ JSON.stringify }}|{{ orderId }}',
			templateContent: '={{ true }}|{{ null }}|{{ Math.PI }}|{{ JSON.stringify }}|',
		});
		const [body] = bodiesOf('/v5/campaign/mail/template/add');
		expect(String(body.templateContent)).toMatch(/^true\|\|3\.14159/);
		expect(body.templateSubject).toBe(`${String(body.templateContent)}{{orderId}}`);
	});
});
