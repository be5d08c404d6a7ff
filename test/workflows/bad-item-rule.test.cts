/**
 * One rule for a bad item, in every operation (docs/errors.md): what the node can find wrong without the platform
 * is found for every item before the run's first request. Under Stop Workflow (n8n's default) one such item stops
 * them all, with nothing sent; with Continue (using error output) the others are sent and the bad one routed
 * apart. The words about the other items say what this run did and what the other setting would do.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { rl, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();

/** An operation, the path its requests go to, and three items of which item 1 is bad in a way the node can tell. */
interface Case {
	parameters: IDataObject;
	path: string;
	items: IDataObject[];
	/** The error item 1 gets, without ", in item 1 (the 2nd input item)". */
	error: string;
}

const TOO_LARGE = 491511234567890100;
const CASES: Record<string, Case> = {
	'Contact → Create or Update (a phone number above 2^53)': {
		parameters: {
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			additionalFields: { phoneNumber: '={{ $json.phone }}' },
		},
		path: '/v5/contacts/upsert',
		items: [
			{ email: 'ada@example.org', phone: 4915112345678 },
			{ email: 'grace@example.org', phone: TOO_LARGE },
			{ email: 'linus@example.org', phone: 4915112345679 },
		],
		error: `Field "Phone Number" is ${TOO_LARGE}, a number too large for JavaScript to hold every digit of (above 2^53): give it as text`,
	},
	'Contact → Delete (an address that is none)': {
		parameters: { resource: 'contact', operation: 'delete', email: '={{ $json.email }}' },
		path: '/v5/contacts/delete',
		items: [
			{ email: 'ada@example.org' },
			{ email: 'margaret(at)example.org' },
			{ email: 'grace@example.org' },
		],
		error: 'Field "Email" "margaret(at)example.org" is not a valid email address',
	},
	'Contact List → Create (a name that is an object)': {
		parameters: { resource: 'contactList', operation: 'create', listName: '={{ $json.name }}' },
		path: '/v5/lists/add',
		items: [{ name: 'vip' }, { name: { first: 'x' } }, { name: 'press' }],
		error: 'Field "List Name" must be text or a whole number (it is an object)',
	},
	'Template → Create (a name too long)': {
		parameters: {
			resource: 'template',
			operation: 'create',
			templateName: '={{ $json.name }}',
			templateSubject: 'Hi',
			templateContent: '<p>Hi</p>',
		},
		path: '/v5/campaign/mail/template/add',
		items: [{ name: 'spring' }, { name: 't'.repeat(251) }, { name: 'summer' }],
		error: 'Field "Template Name" is 251 characters long; the limit is 250 characters',
	},
	'Campaign → Create (a name too long)': {
		parameters: {
			resource: 'campaign',
			operation: 'create',
			mailName: '={{ $json.name }}',
			senderMail: rl('news@example.com'),
			subject: 'Spring',
			content: '<p>Hi</p>',
			onlySave: true,
			sendLists: { list: [] },
		},
		path: '/v5/campaign/mail/sends',
		items: [{ name: 'spring' }, { name: 'm'.repeat(201) }, { name: 'summer' }],
		error: 'Field "Campaign Name" is 201 characters long; the limit is 200 characters',
	},
	'Verified Sender → Add (an address that is none)': {
		parameters: { resource: 'verifiedSender', operation: 'add', senderEmail: '={{ $json.email }}' },
		path: '/v5/verified_senders/add',
		items: [
			{ email: 'hello@example.com' },
			{ email: 'hello(at)example.com' },
			{ email: 'team@example.com' },
		],
		error: 'Field "Sender Email" "hello(at)example.com" is not a valid email address',
	},
	'Contact → Import (a phone number above 2^53)': {
		parameters: { resource: 'contact', operation: 'import', mappingMode: 'autoMapInputData' },
		path: '/v5/contacts/imports',
		items: [
			{ email: 'ada@example.org', phoneNumber: 4915112345678 },
			{ email: 'grace@example.org', phoneNumber: TOO_LARGE },
			{ email: 'linus@example.org', phoneNumber: 4915112345679 },
		],
		error: `Field "phoneNumber" is ${TOO_LARGE}, a number too large for JavaScript to hold every digit of (above 2^53): give it as text`,
	},
	'Transactional Mail → Send (an address that is none)': {
		parameters: {
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: '={{ $json.email }}',
			contentSource: 'html',
			subject: 'Hi',
			content: '<p>Hi</p>',
		},
		path: TX,
		items: [
			{ email: 'ada@example.org' },
			{ email: 'margaret(at)example.org' },
			{ email: 'grace@example.org' },
		],
		error: 'Field "To" "margaret(at)example.org" is not a valid email address',
	},
};

const requestsTo = (path: string) => env.view().requests.filter((request) => request.path === path);
const asItems = (items: IDataObject[]): INodeExecutionData[] => items.map((json) => ({ json }));
const paired = (items: INodeExecutionData[]) =>
	items.map((item) => (item.pairedItem as { item: number }).item);

describe.each(Object.entries(CASES))('%s', (_name, { parameters, path, items, error }) => {
	test('under Stop Workflow: nothing is sent, and the error says the others were stopped too', async () => {
		const result = await runWorkflow({
			...actionWorkflow(parameters),
			credentials: env.credentials(),
			items: asItems(items),
		});
		expect(requestsTo(path)).toHaveLength(0);
		const failure = result.error() as Error & { description?: string };
		expect(failure.message).toContain(`${error}, in item 1 (the 2nd input item)`);
		expect(failure.description).toContain('Nothing was sent');
		expect(failure.description).toMatch(/The other 2 items were not (sent|run) either/);
		expect(failure.description).not.toMatch(/were (done|sent)/);
		expect(failure.description).toMatch(
			/"Continue \(using error output\)", the other 2 items would be (sent|run) and this item routed to the error output/,
		);
	});

	test('with Continue (using error output): the other two are sent, the bad one is routed apart', async () => {
		const result = await runWorkflow({
			...actionWorkflow(parameters, { onError: 'continueErrorOutput' }),
			credentials: env.credentials(),
			items: asItems(items),
		});
		expect(paired(result.output('Mail Delivery', 1))).toEqual([1]);
		expect(result.output('Mail Delivery', 1)[0].json.error).toBe(
			`${error}, in item 1 (the 2nd input item)`,
		);
		const sent = requestsTo(path).flatMap((request) => {
			const body = request.body as IDataObject;
			return (
				(body.contactData as unknown[] | undefined) ?? (body.messageVersions as unknown[]) ?? [body]
			);
		});
		expect(sent).toHaveLength(2);
	});
});

describe('words about the other items say what this run does', () => {
	const shipped = {
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: rl('sender@example.com'),
		to: '={{ $json.email }}',
		contentSource: 'html',
		subject: 'Your parcel',
		content: '<p>Your parcel {{tracking}} is on its way</p>',
		tagValuesMode: 'inputFields',
	};
	const three = asItems([
		{ email: 'ada@example.org' },
		{ email: 'grace@example.org' },
		{ email: 'linus@example.org' },
	]);

	test('three items that all lack the tag: no promise of going on with the others', async () => {
		const result = await runWorkflow({
			...actionWorkflow(shipped),
			credentials: env.credentials(),
			items: three,
		});
		const failure = result.error() as Error & { description?: string };
		expect(failure.message).toContain('Tag {{tracking}} has no value');
		expect(failure.description).not.toMatch(/goes on with the other|would be sent/);
		expect(failure.description).toContain('Items 1–2 were refused too');
		expect(failure.description).toMatch(/every item has a problem/i);
		expect(requestsTo(TX)).toHaveLength(0);
	});

	test('two of three lack the tag: the one good item is what Continue would send', async () => {
		const items = three.map((item, index) =>
			index === 1 ? { json: { ...item.json, tracking: 'Z-1' } } : item,
		);
		const result = await runWorkflow({
			...actionWorkflow(shipped),
			credentials: env.credentials(),
			items,
		});
		const failure = result.error() as Error & { description?: string };
		expect(failure.description).toContain('Item 2 (the 3rd input item) was refused too');
		expect(failure.description).toMatch(
			/"Continue \(using error output\)", the other item would be sent and these 2 items routed to the error output/,
		);
	});

	test("Missing Tag Values' Fail the Item says what each On Error setting does, not that other items are sent", async () => {
		const { missingTagsField } =
			await import('../../nodes/MailDelivery/actions/transactionalMail/send/missingTags');
		const fail = missingTagsField.options!.find(
			(option) => 'value' in option && option.value === 'fail',
		) as { description: string };
		expect(fail.description).not.toMatch(/^.*Other items are sent\.$/);
		expect(fail.description).toMatch(/Stop Workflow/);
		expect(fail.description).toMatch(/Continue/);
	});
});

describe('after a platform failure, the advice counts what this run did not reach', () => {
	const upsert = {
		resource: 'contact',
		operation: 'upsert',
		email: '={{ $json.email }}',
		options: { parallelRequests: 1 },
	};
	const three = asItems([
		{ email: 'ada@example.org' },
		{ email: 'grace@example.org' },
		{ email: 'linus@example.org' },
	]);

	test('item 1 refused by the platform, one at a time: item 2 is what Continue would also run', async () => {
		await env.control('POST', 'fault', {
			path: '/v5/contacts/upsert',
			fault: 'badGateway',
			skip: 1,
		});
		const result = await runWorkflow({
			...actionWorkflow(upsert),
			credentials: env.credentials(),
			items: three,
		});
		const failure = result.error() as Error & { description?: string };
		expect(failure.description).toContain(
			'With the node\'s Settings → On Error → "Continue (using error output)", the other item this run stopped before would be run too, and this item routed to the error output.',
		);
	});

	test('the last item refused: nothing was left to run, and the advice says what the outputs would hold', async () => {
		await env.control('POST', 'fault', {
			path: '/v5/contacts/upsert',
			fault: 'badGateway',
			skip: 2,
		});
		const result = await runWorkflow({
			...actionWorkflow(upsert),
			credentials: env.credentials(),
			items: three,
		});
		const failure = result.error() as Error & { description?: string };
		expect(failure.description).not.toMatch(/goes on with the other/);
		expect(failure.description).toContain(
			'With the node\'s Settings → On Error → "Continue (using error output)", the 2 items done would go to the success output and this item to the error output, and the workflow would go on.',
		);
	});
});
