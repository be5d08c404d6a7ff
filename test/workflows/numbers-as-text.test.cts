/**
 * Numbers people have (issue 40, item 2): spreadsheets and CRMs give a phone number as 4915112345678, not as
 * text. Where the platform takes a phone number or a name, a whole number that JavaScript holds exactly reaches
 * the platform as its digits; a number above 2^53 (its digits already lost), a fraction, an object or a list is
 * refused before any request, naming the field, the reason and the item.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { rl, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const bodiesTo = (path: string) =>
	env
		.view()
		.requests.filter((request) => request.path === path)
		.map((request) => request.body as IDataObject);

async function run(parameters: IDataObject, items?: INodeExecutionData[]) {
	return await runWorkflow({
		...actionWorkflow(parameters, { continueOnFail: true }),
		credentials: env.credentials(),
		...(items ? { items } : {}),
	});
}

/** Contacts as a CRM export gives them: the phone number is a JSON number. */
const crmRows = (phones: unknown[]): INodeExecutionData[] =>
	phones.map((phone, i) => ({
		json: { email: `crm${i}@example.org`, phone: phone as IDataObject[string] },
	}));

const upsertFromItem = {
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	additionalFields: { phoneNumber: '={{ $json.phone }}' },
};

describe('a whole number where the platform takes a phone number or a name is sent as its digits', () => {
	test('Contact → Create or Update with the phone number dragged from a CRM row: the platform gets "4915112345678"', async () => {
		const result = await run(upsertFromItem, crmRows([4915112345678, 4930123456]));
		expect(result.output('Mail Delivery').map((item) => item.json.success)).toEqual([true, true]);
		expect(bodiesTo('/v5/contacts/upsert').map((body) => body.phoneNumber)).toEqual([
			'4915112345678',
			'4930123456',
		]);
	});

	test('the same through an expression n8n evaluates, and a contact name that is a number', async () => {
		await run({
			resource: 'contact',
			operation: 'upsert',
			email: 'ada@example.org',
			additionalFields: { phoneNumber: '={{ 4915112345678 + 0 }}', name: '={{ 1001 }}' },
		});
		expect(bodiesTo('/v5/contacts/upsert')).toEqual([
			{ email: 'ada@example.org', phoneNumber: '4915112345678', name: '1001' },
		]);
	});

	test('names of lists, templates and campaigns, and the send’s Name Field, Sender Name, Category, Campaign Label and Unique Message ID', async () => {
		await run({ resource: 'contactList', operation: 'create', listName: '={{ 2026 }}' });
		await run({
			resource: 'template',
			operation: 'create',
			templateName: '={{ 404 }}',
			templateSubject: 'Hi',
			templateContent: '<p>x</p>',
		});
		await run({
			resource: 'campaign',
			operation: 'create',
			mailName: '={{ 2027 }}',
			senderMail: rl('news@example.com'),
			sendLists: { list: [{ listName: rl('newsletter') }] },
			additionalFields: { senderName: '={{ 7 }}' },
		});
		const send = await run(
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				recipientSource: 'inputField',
				recipientField: 'email',
				recipientNameField: 'customerNo',
				contentSource: 'html',
				content: '<p>Order {{order}}</p>',
				subject: 'Your order',
				tagValuesMode: 'inputFields',
				additionalFields: {
					senderName: '={{ 12 }}',
					category: '={{ 2026 }}',
					campaign: '={{ 11 }}',
					uniqueMsgID: '={{ $json.order }}',
				},
			},
			[{ json: { email: 'ada@example.org', customerNo: 90017, order: 123456789 } }],
		);
		expect(send.output('Mail Delivery')[0].json.success).toBe(true);
		expect(bodiesTo('/v5/lists/add')[0].listName).toBe('2026');
		expect(bodiesTo('/v5/campaign/mail/template/add')[0].templateName).toBe('404');
		expect(bodiesTo('/v5/campaign/mail/sends')[0]).toMatchObject({
			mailName: '2027',
			senderName: '7',
		});
		expect(bodiesTo(TX)[0]).toMatchObject({
			senderName: '12',
			category: '2026',
			campaign: '11',
			uniqueMsgID: '123456789',
			messageVersions: [{ to: [{ email: 'ada@example.org', name: '90017' }] }],
		});
	});

	test('Contact → Import: a phone number column of numbers is imported as digits', async () => {
		await run({ resource: 'contact', operation: 'import', mappingMode: 'autoMapInputData' }, [
			{ json: { email: 'a@example.org', phoneNumber: 4915112345678, name: 'Ada' } },
			{ json: { email: 'b@example.org', phoneNumber: '+49 30 1234', name: 42 } },
		]);
		expect(bodiesTo('/v5/contacts/imports')[0].contactData).toEqual([
			['a@example.org', '4915112345678', 'Ada'],
			['b@example.org', '+49 30 1234', '42'],
		]);
	});
});

describe('what would lose digits, a fraction or an object is refused before any request, saying why', () => {
	test.each([
		[
			2 ** 53 + 2,
			'Field "Phone Number" is 9007199254740994, a number too large for JavaScript to hold every digit of (above 2^53): give it as text',
		],
		[
			49151123456789012345,
			'Field "Phone Number" is 49151123456789010000, a number too large for JavaScript to hold every digit of (above 2^53): give it as text',
		],
		[
			491511234.5,
			'Field "Phone Number" is 491511234.5, a fraction: only a whole number is taken as its digits',
		],
		[
			{ mobile: 4915112345678 },
			'Field "Phone Number" must be text or a whole number (it is an object)',
		],
		[[4915112345678], 'Field "Phone Number" must be text or a whole number (it is a list)'],
	])('Phone Number %j', async (phone, message) => {
		const result = await run(upsertFromItem, crmRows([4930123456, phone]));
		const [good, bad] = result.output('Mail Delivery').map((item) => item.json);
		expect(good.success).toBe(true);
		expect(bad.error).toBe(`${message}, in item 1 (the 2nd input item)`);
		expect(bodiesTo('/v5/contacts/upsert')).toHaveLength(1);
	});

	test("a recipient's name from the Name Field that is a fraction, and an Import row whose name is an object", async () => {
		const send = await run(
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				recipientSource: 'inputField',
				recipientField: 'email',
				recipientNameField: 'score',
				contentSource: 'html',
				content: '<p>Hi</p>',
				subject: 'Hi',
			},
			[{ json: { email: 'ada@example.org', score: 0.5 } }],
		);
		expect(send.output('Mail Delivery')[0].json.error).toBe(
			'Field "Name Field": the input item\'s field "score" is 0.5, a fraction: only a whole number is taken as its digits, in item 0 (the 1st input item)',
		);
		const imported = await run(
			{ resource: 'contact', operation: 'import', mappingMode: 'autoMapInputData' },
			[{ json: { email: 'a@example.org', name: { first: 'Ada' } } }],
		);
		expect(imported.output('Mail Delivery')[0].json.error).toBe(
			'Field "name" must be text or a whole number (it is an object), in item 0 (the 1st input item)',
		);
		expect(bodiesTo(TX)).toHaveLength(0);
		expect(bodiesTo('/v5/contacts/imports')).toHaveLength(0);
	});

	test('free text stays text: a Subject or an Email that is a number is refused as before', async () => {
		const result = await run({
			resource: 'contact',
			operation: 'upsert',
			email: '={{ 4915112345678 }}',
		});
		expect(result.output('Mail Delivery')[0].json.error).toBe(
			'Field "Email" must be text (it is 4915112345678), in item 0 (the 1st input item)',
		);
	});
});
