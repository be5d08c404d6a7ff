/**
 * Refusals in the user's words: when the platform refuses a request that names a template, list, campaign
 * or sender, the node looks it up once (read-only) and says which condition applies: a name that is taken
 * (create and add operations), or one that is not there (operations naming an existing one). The platform's
 * own message stays in the description, marked as the platform's. Messages are the platform's (Chinese).
 */
import type { IDataObject, NodeApiError } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const rl = (value: string) => ({ __rl: true, mode: 'name', value });

async function failure(parameters: IDataObject) {
	const result = await runWorkflow({
		...actionWorkflow(parameters),
		credentials: env.credentials(),
	});
	const error = result.error() as NodeApiError;
	expect(error).toBeDefined();
	return { message: error.message, description: String(error.description), code: error.httpCode };
}

const READ_ONLY = [
	'/v5/campaign/mail/template/get',
	'/v5/lists/get',
	'/v5/campaign/mail/get',
	'/v5/verified_senders/get',
];
/** The requests after the refused one: look-ups only, read-only, at most one per name named. */
const lookupsAfter = (path: string) => {
	const paths = env.view().requests.map((request) => request.path);
	return paths.slice(paths.lastIndexOf(path) + 1);
};

test.each([
	[
		'Template → Create',
		{
			resource: 'template',
			operation: 'create',
			templateName: 'welcome',
			templateSubject: 's',
			templateContent: '<p/>',
		},
		'/v5/campaign/mail/template/add',
		'a template named "welcome" already exists',
		'400',
	],
	[
		'Contact List → Create',
		{ resource: 'contactList', operation: 'create', listName: 'newsletter' },
		'/v5/lists/add',
		'a contact list named "newsletter" already exists',
		'400',
	],
	[
		'Verified Sender → Add',
		{
			resource: 'verifiedSender',
			operation: 'add',
			senderEmail: 'sender@example.com',
			senderType: '2',
		},
		'/v5/verified_senders/add',
		'sender@example.com is already a sender of the account',
		'400',
	],
	[
		'Template → Delete',
		{ resource: 'template', operation: 'delete', templateName: rl('farewell') },
		'/v5/campaign/mail/template/delete',
		'there is no template named "farewell"',
		'403',
	],
	[
		'Contact List → Delete',
		{ resource: 'contactList', operation: 'delete', listName: rl('vip') },
		'/v5/lists/delete',
		'there is no contact list named "vip"',
		'403',
	],
	[
		'Campaign → Cancel',
		{ resource: 'campaign', operation: 'cancel', mailName: rl('spring') },
		'/v5/campaign/mail/cancel',
		'there is no campaign named "spring"',
		'403',
	],
	[
		'Verified Sender → Delete',
		{ resource: 'verifiedSender', operation: 'delete', senderEmail: rl('old@example.com') },
		'/v5/verified_senders/delete',
		'old@example.com is not a sender of the account',
		'403',
	],
	[
		'Contact → Create or Update, into a list',
		{
			resource: 'contact',
			operation: 'upsert',
			email: 'ada@example.org',
			additionalFields: { listName: rl('vip') },
		},
		'/v5/contacts/upsert',
		'there is no contact list named "vip"',
		'403',
	],
])(
	"%s: the refusal says which name is at fault, the platform message stays marked as the platform's",
	async (_name, parameters, path, condition, code) => {
		const error = await failure(parameters);
		expect(error.code).toBe(code);
		expect(error.message).toMatch(/^The platform refused the request/);
		expect(error.message).toContain(`: ${condition}`);
		expect(error.description).toMatch(/Platform message: \S/);
		expect(error.description).toContain(path);
		const lookups = lookupsAfter(path);
		expect(lookups).toHaveLength(1);
		expect(READ_ONLY).toContain(lookups[0]);
	},
);

describe('Campaign → Create', () => {
	const campaign = (extra: IDataObject = {}) => ({
		resource: 'campaign',
		operation: 'create',
		mailName: 'spring',
		senderMail: rl('news@example.com'),
		sendLists: { list: [{ listName: rl('newsletter') }] },
		onlySave: true,
		...extra,
	});

	test('a campaign name that exists', async () => {
		const first = await runWorkflow({
			...actionWorkflow(campaign()),
			credentials: env.credentials(),
		});
		expect(first.error()).toBeUndefined();
		const error = await failure(campaign());
		expect(error.message).toContain(': a campaign named "spring" already exists');
	});

	test('a list to send to that does not exist', async () => {
		const error = await failure(
			campaign({
				sendLists: {
					list: [{ listName: rl('newsletter') }, { listName: rl('vip') }],
				},
				onlySave: false,
			}),
		);
		expect(error.code).toBe('403');
		expect(error.message).toContain(': there is no contact list named "vip"');
	});

	test('a sender the account does not have', async () => {
		const error = await failure(campaign({ senderMail: rl('stranger@example.net') }));
		expect(error.message).toContain(': stranger@example.net is not a sender of the account');
	});
});

test("with Continue (using error output) the explained refusal is the item's error, and other items keep their results", async () => {
	const result = await runWorkflow({
		...actionWorkflow(
			{
				resource: 'contactList',
				operation: 'create',
				listName: '={{ $json.name }}',
			},
			{ onError: 'continueErrorOutput' },
		),
		credentials: env.credentials(),
		items: [{ json: { name: 'fresh' } }, { json: { name: 'newsletter' } }],
	});
	expect(result.output('Mail Delivery', 0).map((item) => item.json.listName)).toEqual(['fresh']);
	const [failed] = result.output('Mail Delivery', 1);
	expect(failed.json.error).toContain('a contact list named "newsletter" already exists');
	expect(failed.json.name).toBe('newsletter');
});

test('a refusal the look-up does not explain keeps the explanation of its code', async () => {
	// Nothing is wrong with the name: the platform refuses for another reason (a fault), and the look-up finds no fault.
	await env.control('POST', 'fault', { path: '/v5/lists/add', fault: 'internalError' });
	const error = await failure({ resource: 'contactList', operation: 'create', listName: 'fresh' });
	expect(error.message).toBe('The platform failed to process the request (code 500)');
	// A 500 is not a refusal: no look-up is made.
	expect(lookupsAfter('/v5/lists/add')).toEqual([]);
});

test('a look-up follows the pages of a search: an existing list on a later page is never called missing', async () => {
	// The platform answers one record per page, newest first, and the search for "newsletter" also finds
	// two newer lists: the seeded "newsletter" stands on the third page.
	for (const listName of ['newsletter-2025', 'newsletter-2026'])
		await runWorkflow({
			...actionWorkflow({ resource: 'contactList', operation: 'create', listName }),
			credentials: env.credentials(),
		});
	// Refused for a cause that is none of the records it names (a stricter platform refusing the subject).
	await env.control('POST', 'settings', { pageSizeCap: 1, refusedValues: { subject: ['Hi'] } });
	const { message } = await failure({
		resource: 'campaign',
		operation: 'create',
		mailName: 'spring',
		senderMail: rl('news@example.com'),
		sendLists: { list: [{ listName: rl('newsletter') }] },
		subject: 'Hi',
	});
	expect(message).toBe('The platform refused the request as invalid (code 400)');
});
