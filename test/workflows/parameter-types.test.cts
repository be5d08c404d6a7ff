/**
 * Booleans, numbers and options given by an expression arrive as whatever the expression returns
 * (`{{ "true" }}` is the text "true"). The node reads them as users mean them, or refuses them naming
 * the field and the item before any request; Sandbox Mode never falls back to sending.
 */
import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { people, rl, sendToEachItem, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const send = sendToEachItem;
const txRequests = () => env.view().requests.filter((r) => r.path === TX);
/**
 * The requests made, but the template's look-up: a send starts it with the node, before its items are read
 * (issue 61), and it only reads.
 */
const requestsButLookUp = () =>
	env.view().requests.filter((r) => r.path !== '/v5/campaign/mail/template/get');
type Failure = Error & { description?: string };

describe('Sandbox Mode from an expression', () => {
	test.each([
		['={{ "true" }}', true],
		['={{ "TRUE" }}', true],
		['={{ 1 }}', true],
		['={{ "1" }}', true],
		['={{ true }}', true],
		['={{ "false" }}', false],
		['={{ "0" }}', false],
		['={{ 0 }}', false],
	])('%s is read as %s', async (sandboxMode, sandbox) => {
		const result = await runWorkflow({
			...actionWorkflow(send({ sandboxMode })),
			credentials: env.credentials(),
			items: people(2),
		});
		expect(result.error()).toBeUndefined();
		expect(env.view().mails).toHaveLength(sandbox ? 0 : 2);
		expect((txRequests()[0].body as IDataObject).sandboxMode).toBe(sandbox ? true : undefined);
		expect(result.output('Mail Delivery')[0].json.sandboxMode).toBe(sandbox ? true : undefined);
	});

	test.each([
		['={{ "yes" }}', '"yes"'],
		['={{ "" }}', 'empty'],
		['={{ $json.missing }}', 'empty'],
		['={{ { on: true } }}', 'an object'],
	])(
		'%s is refused before any request: it never falls back to sending',
		async (sandboxMode, seen) => {
			const result = await runWorkflow({
				...actionWorkflow(send({ sandboxMode })),
				credentials: env.credentials(),
				items: people(2),
			});
			expect(result.error()?.message).toBe(
				`Field "Sandbox Mode" must be true or false (it is ${seen}), in item 0 (the 1st input item)`,
			);
			expect(requestsButLookUp()).toHaveLength(0);
		},
	);

	test('campaign creation and the other operations read it the same way', async () => {
		const result = await runWorkflow({
			...actionWorkflow({
				resource: 'campaign',
				operation: 'create',
				mailName: 'spring',
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
				subject: 'Hi',
				sandboxMode: '={{ "true" }}',
			}),
			credentials: env.credentials(),
		});
		expect(result.error()).toBeUndefined();
		expect(env.view().requests[0].body).toMatchObject({ sandboxMode: true });
		expect(env.view().state.tasks).toHaveLength(0);
	});
});

test('"false" in Combine Items sends one request per item', async () => {
	await runWorkflow({
		...actionWorkflow(send({ options: { combineItems: '={{ "false" }}' } })),
		credentials: env.credentials(),
		items: people(3),
	});
	expect(txRequests()).toHaveLength(3);
});

test('"false" in Track Opens and "true" in Track Clicks are sent as 0 and 1', async () => {
	await runWorkflow({
		...actionWorkflow(
			send({ additionalFields: { trackOpen: '={{ "false" }}', trackClick: '={{ "true" }}' } }),
		),
		credentials: env.credentials(),
		items: people(1),
	});
	expect(txRequests()[0].body).toMatchObject({ trackOpen: 0, trackClick: 1 });
});

test('"false" in Return All returns only up to the Limit, given as the text "1"', async () => {
	const result = await runWorkflow({
		...actionWorkflow({
			resource: 'verifiedSender',
			operation: 'getMany',
			returnAll: '={{ "false" }}',
			limit: '={{ "1" }}',
		}),
		credentials: env.credentials(),
	});
	expect(result.error()).toBeUndefined();
	expect(result.output('Mail Delivery')).toHaveLength(1);
});

test('an option given as text ("2" for Update Mode) is read as the option it names', async () => {
	const result = await runWorkflow({
		...actionWorkflow({
			resource: 'contact',
			operation: 'import',
			mappingMode: 'autoMapInputData',
			updateMode: '={{ "2" }}',
		}),
		credentials: env.credentials(),
		items: people(1),
	});
	expect(result.error()).toBeUndefined();
	expect(env.view().requests[0].body).toMatchObject({ updateMode: 2 });
});

test.each([
	[
		{ contentSource: '={{ "markdown" }}', content: '<p>Hi</p>', subject: 'Hi' },
		'Field "Content Source" must be one of template, html, text (it is "markdown"), in item 1 (the 2nd input item)',
	],
	[
		{ options: { parallelRequests: '={{ "many" }}' } },
		'Field "Requests in Parallel" must be a number (it is "many"), in item 0 (the 1st input item)',
	],
	[
		{ additionalFields: { trackOpen: '={{ "perhaps" }}' } },
		'Field "Track Opens" must be true or false (it is "perhaps"), in item 1 (the 2nd input item)',
	],
])(
	'a value that is none of its field’s kind is refused, naming the field and the item: %j',
	async (extra, message) => {
		const parameters = send(extra as IDataObject);
		// The expression looks at the item: item 0 gives a good value where it can, item 1 the bad one.
		const perItem = JSON.parse(
			JSON.stringify(parameters).replace(
				/"=\{\{ \\"(markdown|perhaps)\\" \}\}"/,
				(_, bad: string) =>
					`"={{ $itemIndex === 0 ? \\"${bad === 'markdown' ? 'template' : 'true'}\\" : \\"${bad}\\" }}"`,
			),
		) as IDataObject;
		const result = await runWorkflow({
			...actionWorkflow(perItem, { continueOnFail: true }),
			credentials: env.credentials(),
			items: people(2),
		});
		const out = result.output('Mail Delivery');
		const failed = out.find((item) => item.json.error);
		expect(failed?.json.error ?? (result.error() as Failure | undefined)?.message).toBe(message);
	},
);
