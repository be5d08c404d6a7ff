// Journeys of issue 46 (a new user's second hour), walked as a person walks them: one bad item stops every
// operation before any request, the mail seen before it goes out (Sandbox Mode), events fired from the emulator's
// mail page by clicking, the user's own first trigger published beside the demo's, and subtitles and labels in
// the panel's words. The final screenshots of each new screen are copied to ISSUE_SCREENS when it is set.
import { copyFileSync, mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';

import { root } from '../../../scripts/ensure-deps.mjs';
import {
	exampleTriggerHolds,
	executeWorkflow,
	journey,
	rl,
	SIGNATURE_CREDENTIAL,
	stageWorkflow,
} from './journeys.mjs';
import {
	canvasNode,
	closeToasts,
	edgeCounts,
	nodeError,
	openNode,
	openWorkflowById,
	openWorkflowFromList,
	outputLabels,
	readOutput,
	toasts,
} from './ui.mjs';

const TRIGGER = 'n8n-nodes-mail-delivery.mailDeliveryTrigger';
const EXAMPLE = 'Mail Delivery: events by kind';
const suffix = () => randomUUID().slice(0, 6);

/** Keeps a journey's screenshot for the issue's closing note (ISSUE_SCREENS=<folder>), named as given. */
async function keep(j, label, name) {
	const file = await j.shot(label);
	const folder = process.env.ISSUE_SCREENS;
	if (!folder) return;
	mkdirSync(folder, { recursive: true });
	copyFileSync(path.join(root, file), path.join(folder, `${name}.png`));
}

const subtitleOf = async (page, name) =>
	(
		await canvasNode(page, name)
			.locator('[class*="subtitle"]')
			.first()
			.innerText({ timeout: 5_000 })
			.catch(() => '')
	).trim();

/** Runs the workflow open in the editor up to its Mail Delivery node and returns that node's error as shown. */
async function runToError(page) {
	await closeToasts(page);
	await executeWorkflow(page, ['Mail Delivery']);
	await openNode(page, 'Mail Delivery');
	await page.waitForTimeout(1000);
	return await nodeError(page);
}

const requestsTo = async (env, requestPath) =>
	(await env.emulator.control('GET', 'requests')).requests.filter(
		(request) => request.path === requestPath,
	);

export async function v(env) {
	// A CRM export of three contacts: the second one's phone number is beyond what JavaScript holds exactly.
	const contacts = await stageWorkflow(
		env,
		`Browser: one bad contact among three ${suffix()}`,
		[
			{ email: `v-ada-${suffix()}@example.org`, phone: 4915112345678 },
			{ email: `v-grace-${suffix()}@example.org`, phone: 491511234567890100 },
			{ email: `v-linus-${suffix()}@example.org`, phone: 4915112345679 },
		],
		{
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			additionalFields: { phoneNumber: '={{ $json.phone }}' },
		},
	);
	const untagged = await stageWorkflow(
		env,
		`Browser: three parcels without tracking ${suffix()}`,
		[{ email: 'ada@example.org' }, { email: 'grace@example.org' }, { email: 'linus@example.org' }],
		{
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: '={{ $json.email }}',
			contentSource: 'html',
			subject: 'Your parcel',
			content: '<p>Your parcel {{tracking}} is on its way</p>',
			tagValuesMode: 'inputFields',
		},
	);
	return await journey(env, 'v-one-rule-for-a-bad-item', async (j, page) => {
		const before = (await requestsTo(env, '/v5/contacts/upsert')).length;
		await openWorkflowById(page, env.baseUrl, contacts);
		const error = await runToError(page);
		await keep(j, 'upsert-bad-item-nothing-sent', 'upsert-bad-item-nothing-sent');
		j.saw('Create or Update error', `${error.title} — ${error.description}`);
		await j.check(
			/Field "Phone Number" is \d+, a number too large/.test(error.title) &&
				error.title.includes('in item 1 (the 2nd input item)'),
			`the error does not name the field and the item: "${error.title}"`,
		);
		await j.check(
			error.description.includes('The other 2 items were not run either') &&
				error.description.includes(
					'the other 2 items would be run and this item routed to the error output',
				),
			`the error does not say that nothing was run and what Continue would do: "${error.description}"`,
		);
		const sent = (await requestsTo(env, '/v5/contacts/upsert')).length - before;
		await j.check(sent === 0, `${sent} contacts were written before the bad one stopped the run`);

		// Three items that all lack the tag: no promise of going on with "the other 2".
		await openWorkflowById(page, env.baseUrl, untagged);
		const untaggedError = await runToError(page);
		await keep(j, 'all-items-lack-the-tag', 'all-items-lack-the-tag');
		j.saw('three items without the tag', `${untaggedError.title} — ${untaggedError.description}`);
		await j.check(
			!/goes on with the other|would be sent/.test(untaggedError.description) &&
				/Every item has a problem/.test(untaggedError.description),
			`the error promises what this run would not do: "${untaggedError.description}"`,
		);
	});
}

export async function w(env) {
	const order = `W-${suffix()}`;
	const id = await stageWorkflow(
		env,
		`Browser: the mail before it goes out ${suffix()}`,
		// Three items: n8n opens an output of several items on its Table view, as a new user met it (issue 61).
		[
			{ email: 'ada@example.org', name: 'Ada', order },
			{ email: 'grace@example.org', name: 'Grace', order },
			{ email: 'lin@example.org', name: 'Lin', order },
		],
		{
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: '={{ $json.email }}',
			contentSource: 'html',
			subject: '=Your order {{order}} has shipped',
			content: '=<p>Hi {{name}}, your order {{order}} is on its way.</p>',
			tagValuesMode: 'inputFields',
			sandboxMode: true,
		},
	);
	return await journey(env, 'w-the-mail-before-it-goes-out', async (j, page) => {
		const mailsBefore = (await env.emulator.control('GET', 'mails')).mails.length;
		await openWorkflowById(page, env.baseUrl, id);
		const subtitle = await subtitleOf(page, 'Mail Delivery');
		j.saw('canvas subtitle', subtitle);
		await j.check(subtitle === 'Send (sandbox)', `the canvas subtitle reads "${subtitle}"`);
		await executeWorkflow(page, ['Mail Delivery']);
		await openNode(page, 'Mail Delivery');
		// What the output panel opens on, before any tab is chosen: the mail, not a file (issue 54.5).
		await page
			.getByTestId('output-panel')
			.getByTestId('ndv-items-count')
			.waitFor({ timeout: 60_000 });
		await page.waitForTimeout(1000);
		const opened = (await page.getByTestId('output-panel').innerText()).replace(/\s+/g, ' ');
		await keep(j, 'sandbox-output-opened', 'sandbox-output-opened');
		j.saw('the output as it opens', opened.slice(0, 400));
		await j.check(
			!/mail-preview-item-\d+\.html/.test(opened) &&
				opened.includes(`Your order ${order} has shipped`),
			`the output opens on something else than the mail's preview: ${opened.slice(0, 400)}`,
		);
		// In the Table view the mail's columns come first, on screen without scrolling (issue 61: the preview column
		// was off-screen, and the mails showed only under JSON).
		const panel = page.getByTestId('output-panel');
		await panel.getByTestId('radio-button-table').click();
		await page.waitForTimeout(800);
		const table = panel.getByTestId('ndv-data-container').locator('table').first();
		const columns = (await table.locator('th').allInnerTexts()).map((text) => text.trim());
		const panelBox = await panel.boundingBox();
		const subjectBox = await table
			.locator('td')
			.filter({ hasText: `Your order ${order} has shipped` })
			.first()
			.boundingBox()
			.catch(() => null);
		await keep(j, 'sandbox-output-table', 'sandbox-output-table');
		j.saw('Table view columns', columns.slice(0, 5).join(', '));
		await j.check(
			columns.slice(0, 3).join(', ') === 'previewTo, previewSubject, previewText' &&
				subjectBox !== null &&
				panelBox !== null &&
				subjectBox.x + subjectBox.width <= panelBox.x + panelBox.width,
			`the Table view does not show the mail first and on screen: columns ${columns.join(', ')}`,
		);
		const output = await readOutput(page);
		j.saw('output', output.text.slice(0, 400));
		await panel.getByText('JSON', { exact: true }).click();
		await page.waitForTimeout(800);
		// The JSON view draws each key and value on lines of their own.
		const json = (await page.getByTestId('output-panel').innerText()).replace(/\s+/g, ' ');
		await keep(j, 'sandbox-preview', 'sandbox-preview-json');
		await j.check(
			json.includes(`"subject": "Your order ${order} has shipped"`) &&
				json.includes(`"text": "Hi Ada, your order ${order} is on its way."`),
			`the output does not show the mail with its tags filled: ${json.slice(0, 600)}`,
		);
		const mailsAfter = (await env.emulator.control('GET', 'mails')).mails.length;
		await j.check(mailsAfter === mailsBefore, 'a sandboxed send put a mail in the mail log');
	});
}

/** The newest execution of the workflow open in the editor: its trigger's items per branch. */
async function newestExecutionBranches(page) {
	await page.getByTestId('radio-button-executions').click();
	const list = page
		.getByTestId('current-executions-list')
		.locator('[data-test-id^="execution-details-"]');
	await list.first().waitFor({ timeout: 30_000 });
	await list.first().click();
	await canvasNode(page, 'Mail Delivery Trigger').waitFor();
	await page.waitForTimeout(800);
	return await edgeCounts(page, 'Mail Delivery Trigger');
}

export async function x(env) {
	return await journey(env, 'x-events-by-clicking', async (j, page) => {
		if (
			!(await j.check(
				await exampleTriggerHolds(env, EXAMPLE),
				`"${EXAMPLE}" does not hold the default push address before the journey`,
			))
		)
			return;
		// What npm start's banner says to try first: the example send, then a mail of it opened in the mail log.
		await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: combined transactional send');
		await executeWorkflow(page, ['Send welcome mail']);
		await page.goto(`${env.emulator.url}/mails`);
		// Newest first: Ada's mail of the send just made (delivered; some of its recipients bounce).
		await page.locator('tr', { hasText: 'ada@example.org' }).first().locator('a').click();
		await page.getByRole('button', { name: 'Opened', exact: true }).waitFor();
		await keep(j, 'mail-page-buttons', 'mail-page-event-buttons');
		const openedBefore = (await env.emulator.control('GET', 'pushes?bodies=1')).pushes.length;
		await page.getByRole('button', { name: 'Opened', exact: true }).click();
		const result = await page
			.locator('#event-result')
			.innerText({ timeout: 15_000 })
			.catch(() => '');
		await keep(j, 'mail-page-opened-pushed', 'mail-page-opened-pushed');
		j.saw('after clicking Opened', result);
		await j.check(
			/^Opened pushed to http:\/\/\S+\/webhook\/\S+\/events: answered 200$/.test(result),
			`the mail page does not say the event was pushed and answered: "${result}"`,
		);
		const { pushes } = await env.emulator.control('GET', 'pushes?bodies=1');
		await j.check(
			pushes.length > openedBefore,
			'clicking Opened pushed nothing to the example trigger',
		);

		await openWorkflowFromList(page, env.baseUrl, EXAMPLE);
		let branches = {};
		for (let attempt = 0; attempt < 10 && !(branches['On Opened'] >= 1); attempt++) {
			if (attempt > 0) {
				await page.reload();
				await page.waitForTimeout(1500);
			}
			branches = await newestExecutionBranches(page);
		}
		await keep(j, 'execution-opened-branch', 'execution-opened-branch');
		j.saw('newest execution, items per branch', JSON.stringify(branches));
		await j.check(
			branches['On Opened'] === 1 &&
				Object.entries(branches).every(([node, count]) => node === 'On Opened' || count === 0),
			`the newest execution of "${EXAMPLE}" does not show the Opened event on its branch alone: ${JSON.stringify(branches)}`,
		);
	});
}

/** A new trigger workflow of the user's, made by REST as the editor saves it; published in the journey. */
async function ownTriggerWorkflow(env, name) {
	const credentials = (await env.session.api('GET', '/credentials?limit=250')).data ?? [];
	const signature = credentials.find((credential) => credential.name === SIGNATURE_CREDENTIAL);
	const webhookId = randomUUID();
	const { id } = await env.session.api('POST', '/workflows', {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Mail Delivery Trigger',
				type: TRIGGER,
				typeVersion: 2,
				position: [0, 0],
				webhookId,
				parameters: { authentication: 'signature', outputMode: 'perKind' },
				credentials: { mailDeliverySignatureApi: { id: signature.id, name: signature.name } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	return { id, path: `/${webhookId}/events` };
}

/** Publishes the workflow open in the editor as a person does; the toasts n8n shows within `waitMs`. */
async function publish(page, waitMs) {
	await closeToasts(page);
	await page.getByTestId('workflow-open-publish-modal-button').click();
	await page.getByTestId('workflow-publish-button').click();
	await page.waitForTimeout(waitMs);
	return (await toasts(page)).join(' | ');
}

export async function y(env) {
	const mine = await ownTriggerWorkflow(env, `Browser: my bounce handling ${suffix()}`);
	const holds = async (workflow) =>
		String((await env.emulator.control('GET', 'state')).webhook.transCallbackUrl).includes(
			workflow.path,
		);
	return await journey(env, 'y-own-trigger-beside-the-demo', async (j, page) => {
		if (
			!(await j.check(
				await exampleTriggerHolds(env, EXAMPLE),
				`"${EXAMPLE}" does not hold the default push address before the journey`,
			))
		)
			return;
		await openWorkflowById(page, env.baseUrl, mine.id);
		const shown = await publish(page, 5_000);
		let taken = false;
		for (let attempt = 0; attempt < 50 && !taken; attempt++) {
			taken = await holds(mine);
			if (!taken) await page.waitForTimeout(200);
		}
		await keep(j, 'own-trigger-published', 'own-first-trigger-published');
		j.saw('after publishing', shown || '(no message)');
		await j.check(
			!/could not be published|Cannot publish/i.test(shown),
			`the user's first own trigger was refused: "${shown}"`,
		);
		await j.check(taken, "the user's trigger does not hold the account's push address");
		await page
			.getByRole('button', { name: 'Got it' })
			.click({ timeout: 5_000 })
			.catch(() => undefined);
		await page.waitForTimeout(500);
		await keep(j, 'own-trigger-outputs', 'own-trigger-outputs-whole');
		const labels = await outputLabels(page, 'Mail Delivery Trigger');
		const cut = await page
			.locator('[data-test-id="canvas-node-output-handle"][data-node-name="Mail Delivery Trigger"]')
			.evaluateAll((handles) =>
				handles
					.map((handle) => handle.querySelector('[class*="outputLabel"]'))
					.filter((label) => label && label.scrollWidth > label.clientWidth + 1)
					.map((label) => label.textContent.trim()),
			);
		j.saw('outputs, none connected yet', JSON.stringify(labels));
		await j.check(
			labels.includes('Unsubscribe') && cut.length === 0,
			`an output label is cut (or Unsubscribe is missing) beside outputs not yet connected: ${JSON.stringify({ labels, cut })}`,
		);
		// Back as it was for the journeys after: the user's trigger unpublished, the example holding the address.
		await env.session.api('POST', `/workflows/${mine.id}/deactivate`);
		await j.check(
			await exampleTriggerHolds(env, EXAMPLE),
			`"${EXAMPLE}" could not take the address back once the user's trigger was unpublished`,
		);
	});
}

export async function z(env) {
	const names = {
		send: { resource: 'transactionalMail', operation: 'send' },
		ask: { resource: 'transactionalMail', operation: 'sendAndWait', sendTo: 'a@example.org' },
		contact: { resource: 'contact', operation: 'upsert', email: 'a@example.org' },
	};
	const ids = {};
	for (const [key, parameters] of Object.entries(names))
		ids[key] = await stageWorkflow(env, `Browser: subtitle ${key} ${suffix()}`, null, parameters);
	return await journey(env, 'z-subtitles', async (j, page) => {
		const expected = {
			send: 'Send',
			ask: 'Send and Wait for Response',
			contact: 'Create or Update: Contact',
		};
		for (const [key, words] of Object.entries(expected)) {
			await openWorkflowById(page, env.baseUrl, ids[key]);
			await page.waitForTimeout(800);
			const subtitle = await subtitleOf(page, 'Mail Delivery');
			if (key === 'ask') await keep(j, 'subtitle-send-and-wait', 'canvas-subtitle');
			j.saw(`canvas subtitle of ${key}`, subtitle);
			await j.check(
				subtitle === words,
				`the canvas subtitle reads "${subtitle}", expected "${words}"`,
			);
		}
	});
}
