/**
 * What the panel's searchable lists offer, as n8n's list search calls them with the panel's current
 * parameters: senders of the kind the operation sends with come first, and the others say what they are
 * meant for; Tag Values' names come from the chosen template's {{tags}} (or the HTML's), typing allowed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import {
	searchListsOrNew,
	searchSenders,
	searchTagNames,
} from '../../nodes/MailDelivery/methods/listSearch';
import { useEmulator } from '../harness/emulator.cts';
import { actionWorkflow, loadOptionsContext, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const rl = (value: string) => ({ __rl: true, mode: 'list', value });

describe('Sender Email', () => {
	test('the transactional send lists transactional senders first; a marketing one says it is meant for campaigns', async () => {
		const context = loadOptionsContext(env.credentials(), {
			resource: 'transactionalMail',
			operation: 'send',
		});
		const { results } = await searchSenders.call(context);
		expect(results.map((result) => result.value)).toEqual([
			'sender@example.com',
			'news@example.com',
		]);
		expect(results[0].name).toBe('sender@example.com (transactional)');
		expect(results[1].name).toBe('news@example.com (marketing, for campaigns)');
	});

	test.each(['send', 'sendAndWait'])(
		'docs/sending.md shows the entry Transactional Mail → %s lists, as it lists it',
		async (operation) => {
			const senders = /^## Senders\n([^]*?)(?=^## )/m.exec(
				readFileSync(path.join(__dirname, '..', '..', 'docs', 'sending.md'), 'utf8'),
			)?.[1];
			const shown = [...(senders ?? '').matchAll(/`([^`]+@[^`]+)`/g)].map((match) => match[1]);
			expect(shown.length).toBeGreaterThan(0);
			const context = loadOptionsContext(env.credentials(), {
				resource: 'transactionalMail',
				operation,
			});
			const { results } = await searchSenders.call(context);
			expect(results.map((result) => result.name)).toEqual(expect.arrayContaining(shown));
			// A mail of the transactional kind: its senders come first.
			expect(results[0].name).toBe('sender@example.com (transactional)');
		},
	);

	test('Campaign → Create lists marketing senders first; a transactional one says what it is meant for', async () => {
		const context = loadOptionsContext(env.credentials(), {
			resource: 'campaign',
			operation: 'create',
		});
		const { results } = await searchSenders.call(context);
		expect(results.map((result) => result.name)).toEqual([
			'news@example.com (marketing)',
			'sender@example.com (transactional, for transactional mail)',
		]);
	});

	test('operations that send nothing list every sender with its kind', async () => {
		const context = loadOptionsContext(env.credentials(), {
			resource: 'verifiedSender',
			operation: 'delete',
		});
		const { results } = await searchSenders.call(context);
		expect(results.map((result) => result.name).sort()).toEqual([
			'news@example.com (marketing)',
			'sender@example.com (transactional)',
		]);
	});
});

describe("Contact → Import's Add to List (a missing list is created)", () => {
	const context = () =>
		loadOptionsContext(env.credentials(), { resource: 'contact', operation: 'import' });

	test('a typed name no list has is offered first, as a new list, beside the lists that contain it', async () => {
		const { results } = await searchListsOrNew.call(context(), 'news');
		expect(results).toEqual([
			{ name: 'news (new list)', value: 'news' },
			{ name: 'newsletter', value: 'newsletter' },
		]);
		// Offering it created nothing.
		expect(env.view().state.lists.map((list) => list.listName)).toEqual(['newsletter']);
	});

	test('a list that exists is not offered again as new; without a search, the lists as they are', async () => {
		expect((await searchListsOrNew.call(context(), 'newsletter')).results).toEqual([
			{ name: 'newsletter', value: 'newsletter' },
		]);
		expect((await searchListsOrNew.call(context())).results).toEqual([
			{ name: 'newsletter', value: 'newsletter' },
		]);
	});

	test('the offered name, picked, creates the list when the import runs', async () => {
		const result = await runWorkflow({
			...actionWorkflow({
				resource: 'contact',
				operation: 'import',
				updateMode: 1,
				additionalFields: { listName: rl('spring buyers') },
			}),
			credentials: env.credentials(),
			items: [{ json: { email: 'new@example.org' } }],
		});
		expect(result.error()).toBeUndefined();
		expect(env.view().state.lists.map((list) => list.listName)).toContain('spring buyers');
	});
});

describe('Tag Values names', () => {
	const send = (extra: IDataObject) => ({
		resource: 'transactionalMail',
		operation: 'send',
		tagValuesMode: 'fields',
		...extra,
	});
	const names = async (parameters: IDataObject, filter?: string) =>
		(
			await searchTagNames.call(loadOptionsContext(env.credentials(), send(parameters)), filter)
		).results.map((result) => result.value);

	test("with a template: the tags of the chosen template's subject and HTML, and of the Subject field", async () => {
		await runWorkflow({
			...actionWorkflow({
				resource: 'template',
				operation: 'create',
				templateName: 'order-shipped',
				templateSubject: 'Order {{orderId}}',
				templateContent: '<p>Hi {{ firstName }}, {{orderId}} ships to {{address.city}}</p>',
			}),
			credentials: env.credentials(),
		});
		expect(
			await names({
				contentSource: 'template',
				templateName: rl('order-shipped'),
				subject: '=Re: {{ticket}} {{ $json.x }}',
			}),
		).toEqual(['orderId', 'firstName', 'address.city', 'ticket']);
		expect(await names({ contentSource: 'template', templateName: rl('welcome') }, 'na')).toEqual([
			'name',
		]);
	});

	test('with HTML: the tags of the HTML Content and Subject fields, with no request', async () => {
		// n8n's editor sends the panel's expressions evaluated: only fields of fixed text still show their tags.
		const before = env.view().requests.length;
		expect(
			await names({
				contentSource: 'html',
				content: '<p>{{firstName}}, {{ firstName }}</p>',
				subject: 'Order {{orderId}}',
			}),
		).toEqual(['firstName', 'orderId']);
		expect(env.view().requests.length).toBe(before);
	});

	test('no template chosen, or one that is not there: nothing to offer, and no error', async () => {
		expect(await names({ contentSource: 'template' })).toEqual([]);
		expect(await names({ contentSource: 'template', templateName: rl('missing') })).toEqual([]);
	});

	test('a name picked from the list (or typed) is the tag its value fills', async () => {
		const result = await runWorkflow({
			...actionWorkflow(
				send({
					senderMail: rl('sender@example.com'),
					to: 'ada@example.org',
					contentSource: 'template',
					templateName: rl('welcome'),
					tagValues: {
						values: [
							{ name: rl('name'), value: 'Ada' },
							{ name: { __rl: true, mode: 'name', value: 'team' }, value: 'Ops' },
							{ name: 'plain', value: 'typed' },
						],
					},
				}),
			),
			credentials: env.credentials(),
		});
		expect(result.error()).toBeUndefined();
		const [request] = env
			.view()
			.requests.filter((entry) => entry.path === '/v5/transactional/mail/sends_customised');
		expect(((request.body as IDataObject).messageVersions as IDataObject[])[0].params).toEqual({
			name: 'Ada',
			team: 'Ops',
			plain: 'typed',
		});
	});
});
