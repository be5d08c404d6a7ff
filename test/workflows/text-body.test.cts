/**
 * Text bodies in the send and in Campaign → Create (issue 40, item 4): the platform receives safe HTML made
 * from the text, with the tags kept; the missing-tag check and the subject rule hold as for HTML.
 */
import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { rl, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const TEXT =
	'Hi {{name}},\n\nYour order <{{order}}> has shipped.\nTrack it: https://example.com/t/{{order}}';
const HTML =
	'<p>Hi {{name}},</p>\n<p>Your order &lt;{{order}}&gt; has shipped.<br>\nTrack it: <a href="https://example.com/t/{{order}}">https://example.com/t/{{order}}</a></p>';

const textSend = (extra: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: '={{ $json.email }}',
	contentSource: 'text',
	textContent: TEXT,
	subject: 'Order {{order}}',
	tagValuesMode: 'inputFields',
	...extra,
});

test('Transactional Mail → Send with Content Source Text: the platform gets the text as safe HTML, tags filled by it', async () => {
	const result = await runWorkflow({
		...actionWorkflow(textSend()),
		credentials: env.credentials(),
		items: [{ json: { email: 'ada@example.org', name: 'Ada', order: 'A-1' } }],
	});
	expect(result.error()).toBeUndefined();
	const [request] = env.view().requests.filter((r) => r.path === TX);
	expect((request.body as IDataObject).content).toBe(HTML);
	expect(env.view().mails[0]).toMatchObject({ email: 'ada@example.org', subject: 'Order A-1' });
});

test('a value n8n fills in is escaped too: an input field holding markup is shown, never run', async () => {
	await runWorkflow({
		...actionWorkflow(
			textSend({ textContent: '=Note from {{ $json.from }}: {{ $json.note }}', subject: 'Note' }),
		),
		credentials: env.credentials(),
		items: [
			{
				json: {
					email: 'ada@example.org',
					from: 'Bob',
					note: '<a href="https://evil.example">win</a>',
				},
			},
		],
	});
	const [request] = env.view().requests.filter((r) => r.path === TX);
	expect((request.body as IDataObject).content).toBe(
		'<p>Note from Bob: &lt;a href=&quot;<a href="https://evil.example">https://evil.example</a>&quot;&gt;win&lt;/a&gt;</p>',
	);
});

test('the text’s tags are checked like the HTML’s: a missing one fails the item before any request', async () => {
	const result = await runWorkflow({
		...actionWorkflow(textSend()),
		credentials: env.credentials(),
		items: [{ json: { email: 'ada@example.org', name: 'Ada' } }],
	});
	expect(result.error()?.message).toBe(
		'Tag {{order}} has no value, in item 0 (the 1st input item)',
	);
	expect(env.view().requests.filter((r) => r.path === TX)).toHaveLength(0);
});

test('a text body needs a subject, and the error names Text Content when the text is empty', async () => {
	const noSubject = await runWorkflow({
		...actionWorkflow(textSend({ subject: '' })),
		credentials: env.credentials(),
		items: [{ json: { email: 'ada@example.org', name: 'Ada', order: 'A-1' } }],
	});
	expect(noSubject.error()?.message).toBe(
		'Field "Subject" is required when the content is text rather than a template (message version 1), in item 0 (the 1st input item)',
	);
	const empty = await runWorkflow({
		...actionWorkflow(textSend({ textContent: '={{ "" }}' })),
		credentials: env.credentials(),
		items: [{ json: { email: 'ada@example.org', name: 'Ada', order: 'A-1' } }],
	});
	expect(empty.error()?.message).toBe(
		'Field "Template" or "Text Content" is required (message version 1), in item 0 (the 1st input item)',
	);
	const number = await runWorkflow({
		...actionWorkflow(textSend({ textContent: '={{ 42 }}' })),
		credentials: env.credentials(),
		items: [{ json: { email: 'ada@example.org', name: 'Ada', order: 'A-1' } }],
	});
	expect(number.error()?.message).toBe(
		'Field "Text Content" must be text (it is 42), in item 0 (the 1st input item)',
	);
});

test('Campaign → Create with Body Format Text sends the same HTML the send would', async () => {
	const result = await runWorkflow({
		...actionWorkflow({
			resource: 'campaign',
			operation: 'create',
			mailName: 'spring',
			senderMail: rl('news@example.com'),
			sendLists: { list: [{ listName: rl('newsletter') }] },
			subject: 'Spring',
			bodyFormat: 'text',
			textContent: TEXT,
		}),
		credentials: env.credentials(),
	});
	expect(result.error()).toBeUndefined();
	const [request] = env.view().requests.filter((r) => r.path === '/v5/campaign/mail/sends');
	expect((request.body as IDataObject).content).toBe(HTML);
});

test('a text body read from each item goes to that item: two items, two texts, each its own', async () => {
	await runWorkflow({
		...actionWorkflow(textSend({ textContent: '=Hello {{ $json.name }}', subject: 'Hi' })),
		credentials: env.credentials(),
		items: [
			{ json: { email: 'ada@example.org', name: 'Ada' } },
			{ json: { email: 'bob@example.org', name: 'Bob' } },
		],
	});
	const contents = env
		.view()
		.requests.filter((r) => r.path === TX)
		.flatMap((r) => {
			const body = r.body as IDataObject;
			return (body.messageVersions as IDataObject[]).map((v) => v.content ?? body.content);
		});
	expect(contents.sort()).toEqual(['<p>Hello Ada</p>', '<p>Hello Bob</p>']);
});
