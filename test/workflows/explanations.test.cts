/**
 * The English explanation of a platform error names the documented condition (section 7) the
 * emulator was made to meet; other operations, and codes the API does not document, get the
 * generic text. (Replaces a unit test that retyped the explanations table.)
 */
import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const rl = (value: string) => ({ __rl: true, mode: 'name', value });
const SENDS = '/v5/campaign/mail/sends';
const campaign = (extra: IDataObject = {}) => ({
	resource: 'campaign',
	operation: 'create',
	mailName: 'm',
	senderMail: rl('news@example.com'),
	sendLists: { list: [{ listName: rl('newsletter') }] },
	...extra,
});
const send = (extra: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: 'a@example.org',
	contentSource: 'html',
	content: '<p/>',
	subject: 's',
	...extra,
});

async function failure(parameters: IDataObject) {
	const result = await runWorkflow({
		...actionWorkflow(parameters),
		credentials: env.credentials(),
	});
	const error = result.error() as NodeApiError;
	expect(error).toBeDefined();
	return { message: error.message, description: String(error.description), code: error.httpCode };
}

describe('campaign creation (7.1)', () => {
	test.each([
		[
			'no list for sendListNames',
			{ sendLists: { list: [{ listName: rl('missing') }] } },
			'no contact list matches sendListNames',
		],
		[
			'no list for repelListNames',
			{
				additionalFields: {
					excludeLists: { list: [{ listName: rl('missing') }] },
				},
			},
			'no contact list matches repelListNames',
		],
	])('403, %s: the explanation names it', async (_name, extra, condition) => {
		// The look-ups that would name the missing list fail (refusals.test.cts has them succeed): the documented conditions remain.
		for (let lookup = 0; lookup < 2; lookup++)
			await env.control('POST', 'fault', { path: '/v5/lists/get', fault: 'internalError' });
		const error = await failure(campaign(extra));
		expect(error).toMatchObject({
			message: 'The platform refused the request (code 403)',
			code: '403',
		});
		expect(error.description).toContain(condition);
		expect(error.description).toContain(`(${SENDS})`);
	});

	test.each([
		['createFailed', 'the task could not be created'],
		['attachFailed', 'attaching the file failed (the created task is kept)'],
		['checkFailed', 'the task check failed (the created task is kept)'],
	])('500 by the fault %s: the explanation names it', async (fault, condition) => {
		await env.control('POST', 'fault', { path: SENDS, fault });
		const error = await failure(campaign());
		expect(error).toMatchObject({
			message: 'The platform failed to process the request (code 500)',
			code: '500',
		});
		expect(error.description).toContain(condition);
	});
});

describe('transactional send (7.2)', () => {
	test('403, too few credits: the explanation names it', async () => {
		await env.control('POST', 'settings', { credits: 0 });
		const error = await failure(send());
		expect(error.code).toBe('403');
		expect(error.message).toMatch(/the platform refused the request \(code 403\)$/);
		expect(error.description).toContain('the account has too few mail credits');
	});

	test('403, a sender the account does not have: the explanation names it', async () => {
		const error = await failure(send({ senderMail: rl('stranger@example.net') }));
		expect(error.description).toContain('senderMail is not a sender configured for the account');
	});

	// 400 for a version's missing template is asserted in isolation.test.cts, on the item it isolates.
});

describe('other operations and undocumented codes', () => {
	test('a 403 of an operation without its own conditions gets the generic explanation of 403', async () => {
		// The look-up that would name the missing list fails: nothing more precise is known.
		await env.control('POST', 'fault', { path: '/v5/lists/get', fault: 'internalError' });
		const error = await failure({
			resource: 'contactList',
			operation: 'delete',
			listName: rl('missing'),
		});
		expect(error.description).toMatch(/^The request was refused: a named list/);
	});

	test.each(['get', 'delete'])(
		'Contact → %s of an address the platform does not know: in English, the likely cause named in the title; the platform’s own words kept and marked',
		async (operation) => {
			const error = await failure({ resource: 'contact', operation, email: 'nobody@example.org' });
			expect(error.code).toBe('403');
			expect(error.message).toBe(
				'The platform refused the request (code 403): most likely it knows no contact with the address nobody@example.org',
			);
			expect(error.description).toBe(
				`The platform answers 403 when a record a request names does not exist, and this request names only the contact's address (the API does not document this operation's errors). (/v5/contacts/${operation}) Platform message: 联系人不存在 Nothing of that request was sent or changed.`,
			);
			expect(error.description).not.toContain('a named list, template, sender or task');
		},
	);

	test('a code the API does not document is said to be undocumented', async () => {
		// Every request answered 503, and no second attempt: the error carries the bare code.
		await env.control('POST', 'settings', { unavailableEvery: 1 });
		const error = await failure(send({ options: { retryAttempts: 1 } }));
		expect(error.code).toBe('503');
		expect(error.description).toContain(
			'The platform answered code 503, which it does not document.',
		);
	});
});

test('a look-up is made once per run: 300 items refused 403 for one unverified sender ask about it once', async () => {
	const result = await runWorkflow({
		...actionWorkflow(send({ senderMail: rl('nobody@example.com'), to: '={{ $json.email }}' }), {
			continueOnFail: true,
		}),
		credentials: env.credentials(),
		items: Array.from({ length: 300 }, (_, i) => ({ json: { email: `p${i}@example.org` } })),
	});
	const items = result.output('Mail Delivery');
	expect(items).toHaveLength(300);
	expect(
		items.every((item) =>
			String(item.json.error).includes('nobody@example.com is not a verified sender'),
		),
	).toBe(true);
	const lookups = env
		.view()
		.requests.filter((request) => request.path === '/v5/verified_senders/get');
	expect(lookups).toHaveLength(1);
});
