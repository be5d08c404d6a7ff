/**
 * The mail before it goes out (issue 46.3): with Sandbox Mode on, Transactional Mail → Send's output shows each
 * message as its recipient would read it, the subject and the body with the tags filled from the item's values
 * and the template (or the node's own content), in JSON and as an HTML file to open. It is what the platform
 * sends: the same workflow with Sandbox Mode off puts the same subject and body in the emulator's mail log. It
 * is bounded (the first 100 items of a run) and costs nothing with Sandbox Mode off.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { rl, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();

const orders = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({
		json: { email: `p${i}@example.org`, name: `Ada ${i}`, order: 1040 + i },
	}));

const welcome = (sandboxMode: boolean, extra: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: rl('welcome'),
	tagValuesMode: 'inputFields',
	sandboxMode,
	...extra,
});

async function send(parameters: IDataObject, items: INodeExecutionData[]) {
	return await runWorkflow({
		...actionWorkflow(parameters),
		credentials: env.credentials(),
		items,
	});
}

test('a template: each output shows the subject and body with the tags filled, as the platform sends them', async () => {
	const sandboxed = await send(welcome(true), orders(3));
	const output = sandboxed.output('Mail Delivery');
	expect(env.view().mails).toHaveLength(0);
	expect(output.map((item) => item.json.preview)).toEqual([
		{
			to: ['p0@example.org'],
			subject: 'Welcome, Ada 0',
			html: '<p>Hello Ada 0, welcome aboard.</p>',
			text: 'Hello Ada 0, welcome aboard.',
		},
		{
			to: ['p1@example.org'],
			subject: 'Welcome, Ada 1',
			html: '<p>Hello Ada 1, welcome aboard.</p>',
			text: 'Hello Ada 1, welcome aboard.',
		},
		{
			to: ['p2@example.org'],
			subject: 'Welcome, Ada 2',
			html: '<p>Hello Ada 2, welcome aboard.</p>',
			text: 'Hello Ada 2, welcome aboard.',
		},
	]);
	// The same send for real: the platform's mails read exactly as the previews.
	await send(welcome(false), orders(3));
	expect(env.view().mails.map((mail) => ({ subject: mail.subject, html: mail.html }))).toEqual(
		output.map((item) => {
			const { subject, html } = item.json.preview as IDataObject;
			return { subject, html };
		}),
	);
});

test("n8n's Table view, whose columns are the output's keys in order, shows the mail first: to whom, its subject and its text", async () => {
	const output = (await send(welcome(true), orders(3))).output('Mail Delivery');
	for (const [i, item] of output.entries()) {
		expect(Object.keys(item.json).slice(0, 3)).toEqual([
			'previewTo',
			'previewSubject',
			'previewText',
		]);
		expect(item.json).toMatchObject({
			previewTo: `p${i}@example.org`,
			previewSubject: `Welcome, Ada ${i}`,
			previewText: `Hello Ada ${i}, welcome aboard.`,
			success: true,
			sandboxMode: true,
		});
	}
	// Sandbox Mode off: none of it.
	const sent = (await send(welcome(false), orders(1))).output('Mail Delivery');
	expect(Object.keys(sent[0].json).filter((key) => key.startsWith('preview'))).toEqual([]);
});

test('the node’s own HTML and Subject with tags, shared tag values, and the mail as a file to open', async () => {
	const result = await send(
		welcome(true, {
			contentSource: 'html',
			subject: 'Your order {{order}} has shipped',
			content: '<h1>{{shop}}</h1><p>Hi {{name}}, order {{ order }} is on its way.</p>',
			additionalFields: { sharedParams: '{"shop": "Atelier"}' },
		}),
		orders(1),
	);
	const [item] = result.output('Mail Delivery');
	expect(item.json.preview).toEqual({
		to: ['p0@example.org'],
		subject: 'Your order 1040 has shipped',
		html: '<h1>Atelier</h1><p>Hi Ada 0, order 1040 is on its way.</p>',
		text: 'Atelier\n\nHi Ada 0, order 1040 is on its way.',
	});
	// No file beside it: n8n's output panel would open on its Binary view instead of the preview (issue 54.5).
	expect(item.binary).toBeUndefined();
});

test('Send With the Tag Empty: the preview shows the gap the recipient would see', async () => {
	const result = await send(
		welcome(true, {
			contentSource: 'html',
			subject: 'Your parcel {{tracking}} is on its way',
			content: '<p>Tracking: {{tracking}}</p>',
			options: { missingTagValues: 'send' },
		}),
		orders(1),
	);
	const [item] = result.output('Mail Delivery');
	expect(item.json.missingTags).toEqual(['tracking']);
	expect(item.json.preview).toMatchObject({
		subject: 'Your parcel  is on its way',
		html: '<p>Tracking: </p>',
	});
});

test('bounded: the first 100 items of a run get their preview, and a hint says so', async () => {
	const result = await send(welcome(true), orders(150));
	const output = result.output('Mail Delivery');
	expect(output.filter((item) => item.json.preview !== undefined)).toHaveLength(100);
	expect(output[99].json.preview).toBeDefined();
	expect(output[100].json.preview).toBeUndefined();
	expect(output[100].binary).toBeUndefined();
	const hints = result.run.data.resultData.runData['Mail Delivery'][0].hints ?? [];
	expect(hints.map((hint) => hint.message).join(' ')).toMatch(
		/Sandbox Mode: the first 100 items show their mail/,
	);
});

test('Sandbox Mode off: no preview, nothing added to the output', async () => {
	const result = await send(welcome(false), orders(2));
	for (const item of result.output('Mail Delivery')) {
		expect(item.json.preview).toBeUndefined();
		expect(item.binary).toBeUndefined();
	}
	expect(env.view().requests.filter((request) => request.path === TX)).toHaveLength(1);
});

test('a text body reads back as the person wrote it, tags filled', async () => {
	const result = await send(
		welcome(true, {
			contentSource: 'text',
			subject: 'Hi',
			textContent:
				'Hi {{name}},\nyour order {{order}} & more.\n\nTrack it: https://track.example/{{order}}',
		}),
		orders(1),
	);
	expect(result.output('Mail Delivery')[0].json.preview).toMatchObject({
		text: 'Hi Ada 0,\nyour order 1040 & more.\n\nTrack it: https://track.example/1040',
	});
});
