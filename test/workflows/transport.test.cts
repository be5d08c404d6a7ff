import type { NodeApiError } from 'n8n-workflow';

import { call } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';
import { searchLists, searchSenders } from '../../nodes/MailDelivery/methods/listSearch';
import { getSenderAddresses } from '../../nodes/shared/methods/loadOptions';
import { actionWorkflow, loadOptionsContext, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();

describe('error mapping', () => {
	test.each(['ok', 'mirror'])(
		'a body code other than 200 (HTTP status mode %s) becomes a NodeApiError with code, English and the platform message',
		async (mode) => {
			await env.control('POST', 'settings', { errorHttpStatus: mode });
			// An operation whose refusals the node does not look into (refusals.test.cts covers those that it does).
			const result = await runWorkflow({
				...actionWorkflow({
					resource: 'contact',
					operation: 'delete',
					email: 'missing@example.org',
				}),
				credentials: env.credentials(),
			});
			const error = result.error() as NodeApiError;
			expect(error.message).toBe(
				'The platform refused the request (code 403): most likely it knows no contact with the address missing@example.org',
			);
			expect(error.description).toBe(
				// A refusal changed nothing: an operation that changes something says so last.
				"The platform answers 403 when a record a request names does not exist, and this request names only the contact's address (the API does not document this operation's errors). (/v5/contacts/delete) Platform message: 联系人不存在 Nothing of that request was sent or changed.",
			);
			expect(error.httpCode).toBe('403');
		},
	);

	test('HTTP 401 becomes a NodeApiError with the authentication explanation', async () => {
		const credentials = env.credentials();
		credentials.stored.mailDeliverySignatureApi.apiSecret = 'not-the-secret';
		const result = await runWorkflow({
			...actionWorkflow({ resource: 'webhook', operation: 'get' }),
			credentials,
		});
		const error = result.error() as NodeApiError;
		expect(error.message).toBe('The platform did not accept the credentials (code 401)');
		expect(error.description).toMatch(/^Authentication failed: the API key or signature is wrong/);
		expect(error.description).toContain('Platform message: 认证失败');
		expect(JSON.stringify(result.run)).not.toContain('not-the-secret');
	});

	test('section 7 conditions are explained for campaign creation', async () => {
		// The look-up that would name the missing list fails: the documented conditions of the code remain.
		await env.control('POST', 'fault', { path: '/v5/lists/get', fault: 'internalError' });
		const result = await runWorkflow({
			...actionWorkflow({
				resource: 'campaign',
				operation: 'create',
				mailName: 'm',
				senderMail: { __rl: true, mode: 'name', value: 'news@example.com' },
				sendLists: { list: [{ listName: { __rl: true, mode: 'name', value: 'missing' } }] },
			}),
			credentials: env.credentials(),
		});
		expect((result.error() as NodeApiError).description).toContain(
			'no contact list matches sendListNames',
		);
	});
});

describe('paging', () => {
	/** [pageIndex, pageSize] of every lists/get request, from the `from`th request of the log on. */
	const pages = (from = 0) =>
		env
			.view()
			.requests.slice(from)
			.filter((r) => r.path === '/v5/lists/get')
			.map((r) => [
				(r.body as { pageIndex: number }).pageIndex,
				(r.body as { pageSize: number }).pageSize,
			]);
	/** Lists made through the API, fifty requests at a time. */
	const addLists = async (count: number) => {
		for (let start = 0; start < count; start += 50) {
			const names = Array.from(
				{ length: Math.min(50, count - start) },
				(_, i) => `bulk-${start + i}`,
			);
			const answers = await Promise.all(
				names.map((listName) => call(env.emulator, '/v5/lists/add', { listName })),
			);
			expect(answers.map((answer) => answer.body.code)).toEqual(names.map(() => 200));
		}
	};
	const getMany = (extra: Record<string, unknown>) =>
		runWorkflow({
			...actionWorkflow({ resource: 'contactList', operation: 'getMany', ...extra }),
			credentials: env.credentials(),
		});

	test('Return All follows pages to the short page, each page once, one item per record', async () => {
		await addLists(250);
		const result = await getMany({ returnAll: true });
		expect(result.output('Mail Delivery')).toHaveLength(251);
		expect(pages()).toEqual([
			[1, 100],
			[2, 100],
			[3, 100],
		]);
		expect(result.output('Mail Delivery')[0].json).toMatchObject({
			listName: expect.any(String),
			id: expect.any(Number),
		});
	});

	test('Return All stops at totalRecords without asking for an empty page', async () => {
		await addLists(199);
		const result = await getMany({ returnAll: true });
		expect(result.output('Mail Delivery')).toHaveLength(200);
		expect(pages()).toEqual([
			[1, 100],
			[2, 100],
		]);
	});

	test('Limit stops as soon as it has enough', async () => {
		await addLists(250);
		expect((await getMany({ returnAll: false, limit: 5 })).output('Mail Delivery')).toHaveLength(5);
		expect(pages()).toEqual([[1, 5]]);
		const before = env.view().requests.length;
		expect((await getMany({ returnAll: false, limit: 150 })).output('Mail Delivery')).toHaveLength(
			150,
		);
		expect(pages(before)).toEqual([
			[1, 100],
			[2, 100],
		]);
	});

	test('a platform that caps the page size below what the node asks: Return All still gets every record, each page once', async () => {
		await addLists(249);
		await env.control('POST', 'settings', { pageSizeCap: 30 });
		const result = await getMany({ returnAll: true });
		const names = result.output('Mail Delivery').map((item) => item.json.listName);
		expect(names).toHaveLength(250);
		expect(new Set(names).size).toBe(250);
		expect(pages().map(([index]) => index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
	});

	test('a capped page size with Limit still returns the limit', async () => {
		await addLists(249);
		await env.control('POST', 'settings', { pageSizeCap: 30 });
		expect((await getMany({ returnAll: false, limit: 75 })).output('Mail Delivery')).toHaveLength(
			75,
		);
		expect(pages().map(([index]) => index)).toEqual([1, 2, 3]);
	});

	test('list search follows a capped page size to the end, page by page', async () => {
		await addLists(79);
		await env.control('POST', 'settings', { pageSizeCap: 30 });
		const context = loadOptionsContext(env.credentials());
		const seen: string[] = [];
		let token: string | undefined;
		do {
			const page = await searchLists.call(context, undefined, token);
			seen.push(...page.results.map((result) => String(result.value)));
			token = page.paginationToken as string | undefined;
		} while (token);
		expect(seen).toHaveLength(80);
		expect(new Set(seen).size).toBe(80);
		expect(pages().map(([index]) => index)).toEqual([1, 2, 3]);
	});
});

test('sender pickers say which senders are for marketing and which for transactional mail', async () => {
	// An operation that sends no mail; pickers.test.cts covers the ones that send one kind.
	const context = loadOptionsContext(env.credentials(), {
		resource: 'verifiedSender',
		operation: 'delete',
	});
	const { results } = await searchSenders.call(context);
	expect(results).toEqual(
		expect.arrayContaining([
			{ name: 'sender@example.com (transactional)', value: 'sender@example.com' },
			{ name: 'news@example.com (marketing)', value: 'news@example.com' },
		]),
	);
	expect(await getSenderAddresses.call(context)).toEqual(
		expect.arrayContaining([{ name: 'news@example.com (marketing)', value: 'news@example.com' }]),
	);
});
