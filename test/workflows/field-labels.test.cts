/**
 * Errors name the field as the panel in use labels it (issue 32, item 3): with Recipients From: An Input Field
 * the panel shows Email Field and Name Field, not To; the API's path stays in the description, in words that
 * cannot be read as an item number.
 */
import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { rl } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator({ messages: 'en' });

const fromInputFields = {
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	recipientSource: 'inputField',
	recipientField: 'email',
	recipientNameField: 'name',
	contentSource: 'template',
	templateName: rl('welcome'),
	tagValuesMode: 'inputFields',
};

async function errorOf(parameters: IDataObject, items: IDataObject[]) {
	const result = await runWorkflow({
		...actionWorkflow(parameters),
		credentials: env.credentials(),
		items: items.map((json) => ({ json })),
	});
	return result.error() as Error & { description?: string };
}

const good = (i: number) => ({ email: `p${i}@example.org`, name: `P${i}` });

test('Recipients From: An Input Field: a bad address is an error of "Email Field", with the API path in the description', async () => {
	const error = await errorOf(fromInputFields, [
		good(0),
		good(1),
		good(2),
		good(3),
		{ email: 'margaret(at)example.org', name: 'Margaret' },
	]);
	expect(error.message).toBe(
		'Field "Email Field" "margaret(at)example.org" is not a valid email address, in item 4 (the 5th input item)',
	);
	expect(error.description).toBe(
		'Nothing was sent to the platform (API field messageVersions[0].to[0].email, positions counted from 0 within this item). The other 4 items were not sent either: under On Error → Stop Workflow the node checks every item before its first request, and a refused item stops them all. With the node\'s Settings → On Error → "Continue (using error output)", the other 4 items would be sent and this item routed to the error output.',
	);
	expect(env.view().requests.filter((r) => r.path.includes('sends_customised'))).toHaveLength(0);
});

test('Recipients From: An Input Field: a name too long is an error of "Name Field"', async () => {
	const error = await errorOf(fromInputFields, [
		{ email: 'ada@example.org', name: 'x'.repeat(101) },
	]);
	expect(error.message).toBe(
		'Field "Name Field" is 101 characters long; the limit is 100 characters, in item 0 (the 1st input item)',
	);
});

test('the To field keeps its label "To"', async () => {
	const error = await errorOf(
		{ ...fromInputFields, recipientSource: 'to', to: '={{ $json.email }}' },
		[{ email: 'margaret(at)example.org' }],
	);
	expect(error.message).toBe(
		'Field "To" "margaret(at)example.org" is not a valid email address, in item 0 (the 1st input item)',
	);
});

test('versions given as JSON: the error names Message Versions (JSON) and the key written in it', async () => {
	const error = await errorOf(
		{
			...fromInputFields,
			messageSource: 'definedHere',
			versionsMode: 'json',
			messageVersionsJson: JSON.stringify([
				{ to: [{ email: 'ada@example.org' }] },
				{ to: [{ email: 'ada@example.org' }], cc: [{ email: 'bad' }] },
			]),
		},
		[{}],
	);
	expect(error.message).toBe(
		'Field "Message Versions (JSON): cc" "bad" is not a valid email address, in item 0 (the 1st input item)',
	);
	expect(error.description).toContain('API field messageVersions[1].cc[0].email');
});
