// Journeys of issue 40 (what a new user trips over), walked as a person walks them: numbers as spreadsheets give
// them, the words of the tag hint and of a 403, a body written as text, and the README's pictures taken from the
// editor as it is (docs/images/).
import { randomUUID } from 'node:crypto';

import {
	executeWorkflow,
	journey,
	paste,
	rl,
	setOnError,
	stageWorkflow,
	textOf,
} from './journeys.mjs';
import {
	canvasNode,
	chooseOption,
	closeNode,
	closeToasts,
	executeStep,
	nodeError,
	openNode,
	openWorkflowById,
	openWorkflowFromList,
	readOutput,
	waitForRun,
} from './ui.mjs';

const suffix = () => randomUUID().slice(0, 6);

/** Runs the open node and returns its error as shown (the title is drawn a moment after the description). */
async function runForError(page) {
	await closeToasts(page);
	await page.getByTestId('ndv').getByTestId('node-execute-button').click();
	await waitForRun(page);
	let error = await nodeError(page);
	if (!error.title) {
		await page.waitForTimeout(2000);
		error = await nodeError(page);
	}
	return error;
}

export async function o(env) {
	// A CRM export: phone numbers as JSON numbers, one of them beyond what JavaScript holds exactly.
	const id = await stageWorkflow(
		env,
		`Browser: phone numbers as numbers ${suffix()}`,
		[
			{ email: 'crm-ada@example.org', phone: 4915112345678 },
			{ email: 'crm-grace@example.org', phone: 49151123456789012345 },
		],
		{
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			additionalFields: { phoneNumber: '={{ $json.phone }}' },
		},
	);
	return await journey(env, 'o-numbers-people-have', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, id);
		await openNode(page, 'Mail Delivery');
		await setOnError(page, /^Continue(?! \(using)/);
		await executeStep(page);
		const output = await readOutput(page);
		await j.shot('phone-numbers-as-numbers');
		j.saw('output', output.text.slice(0, 400));
		await j.check(
			output.items[0]?.success === 'true',
			`a phone number given as the number 4915112345678 did not save the contact: ${output.text.slice(0, 300)}`,
		);
		const error = output.items[1]?.error ?? '';
		await j.check(
			error.startsWith(
				'Field "Phone Number" is 49151123456789010000, a number too large for JavaScript to hold every digit of (above 2^53): give it as text',
			),
			`a phone number beyond 2^53 is not refused naming the field and the reason: "${error || output.text.slice(0, 300)}"`,
		);
		const { contacts } = await env.emulator.control('GET', 'state');
		const saved = contacts.find((contact) => contact.email === 'crm-ada@example.org');
		j.saw('the emulator holds', JSON.stringify(saved));
		await j.check(
			saved?.phoneNumber === '4915112345678',
			`the platform got the phone number as ${JSON.stringify(saved?.phoneNumber)}, expected its digits "4915112345678"`,
		);
		await j.check(
			!contacts.some((contact) => contact.email === 'crm-grace@example.org'),
			'the contact whose phone number lost digits was saved anyway',
		);
	});
}

/**
 * The tooltip of a field's label (n8n shows the field's description there), hovered as a person does: the text of
 * the visible element that holds `start`, the description's first words.
 */
async function labelTooltip(page, parameterName, start) {
	const item = page
		.getByTestId('ndv')
		.locator('.parameter-item')
		.filter({ has: page.getByTestId(`parameter-input-${parameterName}`) })
		.first();
	const label = item.locator('label').first();
	await label.hover();
	await page.waitForTimeout(300);
	// The info icon appears beside the label on hover; its tooltip holds the description.
	const icon = label.locator('svg, [class*="info"], [class*="Info"]').first();
	await icon.hover().catch(() => undefined);
	await page.waitForTimeout(800);
	const tooltip = page.getByText(start, { exact: false }).filter({ visible: true }).last();
	return (await tooltip.innerText({ timeout: 5_000 }).catch(() => '')).replace(/\s+/g, ' ').trim();
}

export async function p(env) {
	const template = await stageWorkflow(env, `Browser: a tag typed into Subject ${suffix()}`, null, {
		resource: 'template',
		operation: 'create',
		templateName: `shipped-${suffix()}`,
	});
	const unknown = await stageWorkflow(env, `Browser: an unknown contact ${suffix()}`, null, {
		resource: 'contact',
		operation: 'get',
		email: 'nobody@example.org',
	});
	return await journey(env, 'p-words', async (j, page) => {
		// A platform tag in Subject: n8n makes the field an expression, marks the tag and previews [undefined]; the
		// field's hint says so, and that the tag reaches the platform.
		await openWorkflowById(page, env.baseUrl, template);
		await openNode(page, 'Mail Delivery');
		await paste(j, page, 'templateSubject', 'Your order {{order}} has shipped');
		await page
			.getByTestId('ndv')
			.getByTestId('parameter-input-templateSubject')
			.locator('.cm-content')
			.first()
			.click();
		await page.waitForTimeout(800);
		const preview = await textOf(page.getByTestId('ndv'));
		j.saw(
			'the panel while Subject is focused',
			/Result.{0,120}/.exec(preview)?.[0] ?? preview.slice(0, 200),
		);
		await j.shot('subject-preview-undefined');
		const tooltip = await labelTooltip(page, 'templateSubject', 'Subject of mails sent with');
		await j.shot('subject-hint');
		j.saw('Subject hint', tooltip);
		await j.check(
			tooltip.includes('[undefined]') &&
				tooltip.includes('in red') &&
				tooltip.includes('the tag reaches the platform as written'),
			`the Subject hint does not say what the person sees ([undefined], in red) and that the tag reaches the platform: "${tooltip}"`,
		);
		await closeNode(page);

		// Contact → Get of an address the platform does not know: the likely cause in English.
		await openWorkflowById(page, env.baseUrl, unknown);
		await openNode(page, 'Mail Delivery');
		const error = await runForError(page);
		await j.shot('unknown-contact');
		j.saw('error title', error.title);
		j.saw('error description', error.description);
		await j.check(
			/knows no contact with the address nobody@example\.org/.test(error.title),
			`the error of an unknown contact does not say so in its title: "${error.title}"`,
		);
		await j.check(
			/Platform message: \S/.test(error.description) &&
				!error.description.includes('a named list, template, sender or task'),
			`the description does not keep the platform's message marked, or still lists every operation's causes: "${error.description}"`,
		);
	});
}

export async function q(env) {
	const TEXT =
		'Hello,\n\nYour order <A-1001> ships today.\nTrack it: https://example.com/track?id=1&x=2';
	const HTML =
		'<p>Hello,</p>\n<p>Your order &lt;A-1001&gt; ships today.<br>\nTrack it: <a href="https://example.com/track?id=1&amp;x=2">https://example.com/track?id=1&amp;x=2</a></p>';
	const send = await stageWorkflow(
		env,
		`Browser: a text body ${suffix()}`,
		[{ email: 'text-body@example.org' }],
		{
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: '={{ $json.email }}',
		},
	);
	const campaign = await stageWorkflow(env, `Browser: a campaign in text ${suffix()}`, null, {
		resource: 'campaign',
		operation: 'create',
		mailName: `text-${suffix()}`,
		senderMail: rl('news@example.com'),
		onlySave: true,
	});
	return await journey(env, 'q-text-body', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, send);
		const ndv = await openNode(page, 'Mail Delivery');
		await chooseOption(page, 'contentSource', 'Text');
		await page.waitForTimeout(500);
		await ndv
			.getByTestId('parameter-input-textContent')
			.locator('textarea, input')
			.first()
			.fill(TEXT);
		await ndv
			.getByTestId('parameter-input-subject')
			.locator('input, textarea')
			.first()
			.fill('Your order');
		await page.waitForTimeout(1500);
		await j.shot('text-content');
		await executeStep(page);
		const output = await readOutput(page);
		await j.shot('text-body-sent');
		j.saw('send output', output.countText);
		await j.check(
			output.items[0]?.success === 'true',
			`the send with a text body did not succeed: ${output.text.slice(0, 300)}`,
		);
		const { mails } = await env.emulator.control('GET', 'mails');
		const mail = mails.findLast((entry) => entry.email === 'text-body@example.org');
		j.saw('the platform received', JSON.stringify(mail?.content));
		await j.check(
			mail?.content === HTML,
			`the platform received ${JSON.stringify(mail?.content)}, expected the text as safe HTML ${JSON.stringify(HTML)}`,
		);
		await closeNode(page);

		// Campaign → Create offers the same.
		await openWorkflowById(page, env.baseUrl, campaign);
		const panel = await openNode(page, 'Mail Delivery');
		await chooseOption(page, 'bodyFormat', 'Text');
		await page.waitForTimeout(500);
		const textShown = await panel.getByTestId('parameter-input-textContent').isVisible();
		const htmlShown = await panel.getByTestId('parameter-input-content').isVisible();
		await j.shot('campaign-body-format-text');
		await j.check(
			textShown && !htmlShown,
			`Campaign → Create with Body Format Text shows Text Content ${textShown}, HTML Content ${htmlShown}`,
		);
	});
}

/**
 * The smallest box around the canvas nodes whose names start with one of `prefixes`, with a margin, and room on the
 * right for their "+" handles and below for their names.
 */
async function boxAround(page, prefixes, margin = 30) {
	const boxes = [];
	for (const node of await page.getByTestId('canvas-node').all()) {
		const name = (await node.getAttribute('data-node-name')) ?? '';
		if (!prefixes.some((prefix) => name.startsWith(prefix))) continue;
		const box = await node.boundingBox();
		if (box) boxes.push(box);
		// Its name below it, which may be wider than the node.
		const label = await page
			.getByText(name, { exact: true })
			.filter({ visible: true })
			.first()
			.boundingBox()
			.catch(() => null);
		if (label) boxes.push(label);
	}
	const left = Math.max(0, Math.min(...boxes.map((box) => box.x)) - margin);
	const top = Math.max(0, Math.min(...boxes.map((box) => box.y)) - margin);
	const right = Math.max(...boxes.map((box) => box.x + box.width)) + margin + 40;
	const bottom = Math.max(...boxes.map((box) => box.y + box.height)) + margin + 10;
	return { x: left, y: top, width: right - left, height: bottom - top };
}

export async function r(env) {
	return await journey(env, 'r-readme-pictures', async (j, page) => {
		// The send as the example builds it, after a run: the panel with its input and output.
		await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: combined transactional send');
		await executeWorkflow(page, ['Send welcome mail']);
		const ndv = await openNode(page, 'Send welcome mail');
		await page.waitForTimeout(1500);
		const output = await readOutput(page);
		await page
			.getByTestId('output-panel')
			.getByTestId('radio-button-json')
			.click({ timeout: 5_000 })
			.catch(() => undefined);
		await page.waitForTimeout(800);
		await j.check(
			output.count === 6,
			`the example's send shows ${output.countText || 'nothing'}, expected 6 items`,
		);
		j.saw('picture', await j.picture('send-panel', { target: ndv }));
		await closeNode(page);

		// The trigger with one output per event kind, each wired as in the example: a tall window, so that n8n's
		// "zoom to fit" draws the nine branches large enough to read.
		await page.setViewportSize({ width: 1200, height: 2000 });
		await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: events by kind');
		// n8n 2.x opens its Production Checklist over a published workflow: closed, as a person would.
		await page
			.getByTestId('suggested-actions-close')
			.filter({ visible: true })
			.first()
			.click({ timeout: 5_000 })
			.catch(() => undefined);
		await page.keyboard.press('1'); // n8n's "zoom to fit"
		await page.waitForTimeout(1500);
		const trigger = canvasNode(page, 'Mail Delivery Trigger');
		await trigger.waitFor();
		const clip = await boxAround(page, ['Mail Delivery Trigger', 'On ']);
		j.saw('picture', await j.picture('trigger-outputs', { clip }));
	});
}
