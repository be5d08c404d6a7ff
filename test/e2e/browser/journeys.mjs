// The browser suite's journeys. Each takes the suite's environment ({ browser, baseUrl, emulator, session,
// state }) and walks the editor as a person does; the REST API only sets the stage.
import { randomUUID } from 'node:crypto';

import { PACKAGE_NAME } from '../../../scripts/n8n-runtime.mjs';
import {
	addNode,
	branchTabs,
	canvasNode,
	chooseOption,
	closeNode,
	closeToasts,
	drag,
	edgeCounts,
	executeStep,
	inputField,
	Journey,
	nodeError,
	openBranch,
	openNode,
	openWorkflowById,
	openWorkflowFromList,
	outputLabels,
	readOutput,
	signIn,
	toasts,
	waitForRun,
} from './ui.mjs';

const ACTION = `${PACKAGE_NAME}.mailDelivery`;
export const SIGNATURE_CREDENTIAL = 'Mail Delivery (signature, emulator)';
const KINDS = [
	'Delivered',
	'Bounced',
	'Dropped',
	'Opened',
	'Clicked',
	'Unsubscribed',
	'SpamReport',
	'TaskStatus',
	'Other',
];
/** The trigger's outputs as the canvas labels them: each as its event kind, Unsubscribed as Unsubscribe. */
const OUTPUT_LABELS = KINDS.map((kind) => (kind === 'Unsubscribed' ? 'Unsubscribe' : kind));
const PEOPLE = [
	{ name: 'Ada Lovelace', email: 'ada@example.org', firstName: 'Ada', orderId: 'A-1001' },
	{ name: 'Grace Hopper', email: 'grace@example.org', firstName: 'Grace', orderId: 'A-1002' },
	{ name: 'Linus Torvalds', email: 'linus@example.org', firstName: 'Linus', orderId: 'A-1003' },
	{
		name: 'Katherine Johnson',
		email: 'katherine@example.org',
		firstName: 'Katherine',
		orderId: 'A-1004',
	},
];
const codeReturning = (people) =>
	`return ${JSON.stringify(
		people.map((json) => ({ json })),
		null,
		'\t',
	)};`;

/** Runs a journey in its own context; signs in through the page when journey a left no session behind. */
export async function journey(env, name, walk, { signInThroughPage = false } = {}) {
	const j = new Journey(env.browser, name, env.baseUrl);
	try {
		const page = await j.open(signInThroughPage ? undefined : env.state.storage);
		if (signInThroughPage || !env.state.storage) {
			await signIn(page, env.baseUrl);
			env.state.storage = await j.context.storageState();
			await j.shot('signed-in');
		}
		await walk(j, page);
	} catch (error) {
		const file = await j.shot('stopped');
		// Playwright's first line says what timed out; its call log says what it was waiting for on screen.
		const waitingFor = /waiting for (.+)/.exec(error.message)?.[1]?.replace(/\x1b\[\d+m/g, '');
		j.problems.push(
			`the journey stopped: ${error.message.split('\n')[0]}${waitingFor ? ` (waiting for ${waitingFor})` : ''} (see ${file})`,
		);
	} finally {
		await j.close();
	}
	j.report();
	return j;
}

/** Clicks the canvas's Execute workflow button and waits until every node of `nodes` shows a run status. */
export async function executeWorkflow(page, nodes) {
	await page.getByTestId('execute-workflow-button').click();
	for (const name of nodes) {
		await canvasNode(page, name)
			.locator('[data-test-id^="canvas-node-status-"]')
			.first()
			.waitFor({ timeout: 60_000 });
	}
	await page.waitForTimeout(500);
}

export async function a(env) {
	return await journey(
		env,
		'a-examples',
		async (j, page) => {
			await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: combined transactional send');
			await executeWorkflow(page, ['Send welcome mail']);
			await j.shot('send-executed');
			await openNode(page, 'Send welcome mail');
			let output = await readOutput(page);
			await j.shot('send-output');
			j.saw('send output', output.countText);
			await j.check(
				output.count === 6,
				`the send node's output shows ${output.countText || 'nothing'}, expected 6 items`,
			);
			await j.check(
				output.items.length === 6 && output.items.every((item) => item.success === 'true'),
				`not every item of the send node says success true: ${output.text.slice(0, 300)}`,
			);
			await closeNode(page);

			await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: campaign to a list');
			await executeWorkflow(page, ['Create campaign', 'Campaign tasks']);
			await j.shot('campaign-executed');
			await openNode(page, 'Create campaign');
			output = await readOutput(page);
			await j.shot('campaign-create-output');
			j.saw('Create campaign output', output.countText);
			await j.check(
				output.count === 1 && output.items[0]?.success === 'true',
				`Create campaign shows ${output.countText || 'nothing'} (${output.text.slice(0, 200)}), expected 1 item with success true`,
			);
			await closeNode(page);
			await openNode(page, 'Campaign tasks');
			output = await readOutput(page);
			await j.shot('campaign-tasks-output');
			j.saw('Campaign tasks output', output.countText);
			await j.check(
				output.count >= 1,
				`Campaign tasks shows ${output.countText || 'no items'}, expected at least one task`,
			);
			await closeNode(page);

			// The send above made the emulator push Delivered, Bounced and Dropped events to the published trigger.
			await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: events by kind');
			const labels = await outputLabels(page, 'Mail Delivery Trigger');
			await j.shot('events-canvas');
			await j.check(
				OUTPUT_LABELS.every((label) => labels.includes(label)),
				`the trigger's outputs on the canvas are labelled ${JSON.stringify(labels)}, expected ${OUTPUT_LABELS.join(', ')}`,
			);
			await page.getByTestId('radio-button-executions').click();
			const list = page
				.getByTestId('current-executions-list')
				.locator('[data-test-id^="execution-details-"]');
			await list.first().waitFor({ timeout: 30_000 });
			const totals = {};
			const shown = Math.min(await list.count(), 8);
			for (let index = 0; index < shown; index++) {
				await list.nth(index).click();
				await page
					.locator('[data-test-id="canvas-node"][data-node-name="Mail Delivery Trigger"]')
					.waitFor();
				await page.waitForTimeout(500);
				const executionLabels = await outputLabels(page, 'Mail Delivery Trigger');
				if (index === 0) {
					await j.shot('execution');
					await j.check(
						OUTPUT_LABELS.every((label) => executionLabels.includes(label)),
						`the execution's trigger outputs are labelled ${JSON.stringify(executionLabels)}, expected ${OUTPUT_LABELS.join(', ')}`,
					);
				}
				for (const [target, count] of Object.entries(
					await edgeCounts(page, 'Mail Delivery Trigger'),
				))
					totals[target] = (totals[target] ?? 0) + count;
			}
			j.saw(`items per branch over ${shown} executions`, JSON.stringify(totals));
			for (const kind of ['Delivered', 'Bounced', 'Dropped']) {
				await j.check(
					(totals[`On ${kind}`] ?? 0) >= 1,
					`no execution of "events by kind" shows an item on its ${kind} branch (counts ${JSON.stringify(totals)})`,
				);
			}
		},
		{ signInThroughPage: true },
	);
}

/** Replaces the Code node's code as a person does: click into the editor, select all, type. */
async function typeCode(j, page, code) {
	const editor = page.getByTestId('parameter-input-jsCode').locator('.cm-content');
	await editor.click();
	await page.keyboard.press('ControlOrMeta+A');
	await page.keyboard.press('Delete');
	// insertText types the whole text at once, so the editor's bracket completion adds nothing.
	await page.keyboard.insertText(code);
	// n8n saves a parameter a moment after the last keystroke.
	await page.waitForTimeout(1500);
	const shown = (await editor.innerText()).replace(/\s+/g, '');
	if (!shown.includes(code.replace(/\s+/g, '').slice(0, 40)))
		throw new Error(`the Code editor shows ${shown.slice(0, 80)} after typing`);
}

/** Opens a resource locator's list ("From list") and picks an entry; returns the list's text when it fails. */
export async function pickFromList(j, page, parameterName, entry) {
	const locator = page.getByTestId('ndv').getByTestId(`resource-locator-${parameterName}`);
	await locator.getByTestId('rlc-input').click();
	const item = page.locator('[data-test-id="rlc-item"]:visible').filter({ hasText: entry }).first();
	const shown = await item.waitFor({ timeout: 20_000 }).then(
		() => true,
		() => false,
	);
	if (!shown) {
		const popover = await page
			.locator('[role="dialog"]:visible')
			.filter({ has: page.locator('[class*="resource"], [data-test-id^="rlc"]') })
			.allInnerTexts()
			.catch(() => []);
		const text =
			popover.join(' ').replace(/\s+/g, ' ').trim() ||
			(await locator.innerText()).replace(/\s+/g, ' ');
		await j.problem(
			`the ${parameterName} picker does not list ${entry}; it shows: ${text.slice(0, 400)}`,
		);
		await page.keyboard.press('Escape');
		return false;
	}
	await item.click();
	await page.waitForTimeout(300);
	return true;
}

export async function shownCredential(page) {
	return (
		await page
			.getByTestId('ndv')
			.getByTestId('node-credentials-select')
			.locator('input')
			.first()
			.inputValue()
			.catch(() => '')
	).trim();
}

export async function chooseCredential(page, name) {
	await page.getByTestId('ndv').getByTestId('node-credentials-select').click();
	await page
		.getByRole('option')
		.filter({ hasText: name })
		.filter({ visible: true })
		.first()
		.click();
	await page.waitForTimeout(500);
}

export async function b(env) {
	return await journey(env, 'b-new-send', async (j, page) => {
		await page.goto(`${env.baseUrl}/workflow/new`);
		await page.getByTestId('canvas-wrapper').waitFor();
		await addNode(page, 'Code', 'Code', 'Code in JavaScript');
		await typeCode(j, page, codeReturning(PEOPLE));
		await executeStep(page);
		const codeOutput = await readOutput(page);
		await j.shot('code-node');
		if (codeOutput.count !== 4)
			throw new Error(`the Code node gives ${codeOutput.countText || 'nothing'}, expected 4 items`);
		await closeNode(page);

		const ndv = await addNode(page, 'Mail Delivery', 'Mail Delivery', 'Send transactional mail');
		await page.waitForTimeout(1000);
		await j.shot('send-node-added');
		const docs = await ndv
			.locator('a')
			.filter({ hasText: 'Docs' })
			.first()
			.getAttribute('href')
			.catch(() => null);
		j.saw('Docs link', docs);
		await j.check(
			docs && !docs.includes('#'),
			`the node panel's Docs link is ${docs}: it contains '#', so n8n's ?utm_… lands inside the fragment and the anchor breaks`,
		);

		// Whatever credential n8n preselects, its pickers must work.
		const preselected = await shownCredential(page);
		j.saw('credential preselected', preselected || '(none)');
		if (preselected && preselected !== SIGNATURE_CREDENTIAL) {
			const works = await pickFromList(j, page, 'senderMail', 'sender@example.com');
			await j.shot('preselected-credential-picker');
			if (works) j.saw('picker with the preselected credential', 'lists sender@example.com');
		}
		if (preselected !== SIGNATURE_CREDENTIAL) await chooseCredential(page, SIGNATURE_CREDENTIAL);
		await j.check(
			(await shownCredential(page)) === SIGNATURE_CREDENTIAL,
			`the credential field shows "${await shownCredential(page)}" after choosing ${SIGNATURE_CREDENTIAL}`,
		);

		await pickFromList(j, page, 'senderMail', 'sender@example.com');
		await pickFromList(j, page, 'templateName', 'welcome');
		await j.shot('sender-and-template');

		// To: drag the input field `email` onto it.
		await drag(page, inputField(page, 'email'), ndv.getByTestId('parameter-input-to'));
		const to = (await ndv.getByTestId('parameter-input-to').innerText())
			.replace(/\s+/g, ' ')
			.trim();
		j.saw('To after dragging email', to);
		await j.check(
			/\{\{\s*\$json\.email\s*\}\}/.test(to),
			`dragging email onto To gave "${to}", expected {{ $json.email }}`,
		);

		// Tag values: name/value pairs, the name picked from the template's tags, the value dragged from the input.
		const pairs = ndv.getByTestId('fixed-collection-tagValues');
		if (await pairs.isVisible().catch(() => false)) {
			await pairs.getByTestId('fixed-collection-add').click();
			if (await pickFromList(j, page, 'name', 'name'))
				j.saw('Tag Values name', "picked from the welcome template's tags");
			await drag(
				page,
				inputField(page, 'firstName'),
				pairs.getByTestId('parameter-input-value').first(),
			);
			const value = (await pairs.getByTestId('parameter-input-value').first().innerText())
				.replace(/\s+/g, ' ')
				.trim();
			j.saw('Tag value after dragging firstName', value);
			await j.check(
				/\{\{\s*\$json\.firstName\s*\}\}/.test(value),
				`dragging firstName onto the tag's Value gave "${value}", expected {{ $json.firstName }}`,
			);
		} else {
			const json = ndv.getByTestId('parameter-input-params');
			await drag(page, inputField(page, 'firstName'), json);
			const value = (await json.innerText()).replace(/\s+/g, ' ').trim();
			let valid = true;
			try {
				JSON.parse(value.replace(/\{\{\s*\$json\.firstName\s*\}\}/, '"Ada"'));
			} catch {
				valid = false;
			}
			await j.check(
				valid,
				`Tag Values is still the "Tag Values (JSON)" editor (no Add Tag Value): dragging firstName into it produced invalid JSON: ${value}`,
			);
		}
		await j.shot('mapped');

		await executeStep(page);
		const output = await readOutput(page);
		await j.shot('executed');
		j.saw('send output', output.countText);
		const error = await nodeError(page);
		if (error.title) j.saw('node error', `${error.title} — ${error.description}`);
		await j.check(
			output.count === 4,
			`the send node's output shows ${output.countText || error.title || 'nothing'}, expected 4 items`,
		);
		await j.check(
			output.items.length === 4 && output.items.every((item) => item.success === 'true'),
			`not every output item says success true: ${output.text.slice(0, 300)}`,
		);
		const recipients = output.items.map((item) => item.recipients ?? '').join(' ');
		await j.check(
			PEOPLE.every((person) => recipients.includes(person.email)),
			`the output's recipients are "${recipients}", expected the four input addresses`,
		);
	});
}

/** The newest version of the action node n8n knows (what a new node gets in the editor). */
async function actionVersion(env) {
	const types = await (
		await fetch(`${env.baseUrl}/types/nodes.json`, { headers: { cookie: env.session.cookie } })
	).json();
	return Math.max(
		...types.filter((type) => type.name === ACTION).flatMap((type) => [type.version].flat()),
	);
}

/**
 * Creates a workflow by REST: manual trigger → Code (the people, or `code` making them, when given) → Mail Delivery
 * with `parameters` and the credential named `credential` (the demo's signature one by default), then a No Operation
 * node named `next` when one is given (a node whose input shows what Mail Delivery outputs).
 */
export async function stageWorkflow(
	env,
	name,
	people,
	parameters,
	{ next, credential = SIGNATURE_CREDENTIAL, code } = {},
) {
	const credentials = (await env.session.api('GET', '/credentials?limit=250')).data ?? [];
	const signature = credentials.find((stored) => stored.name === credential);
	const node = (nodeName, type, typeVersion, position, nodeParameters, extra = {}) => ({
		id: randomUUID(),
		name: nodeName,
		type,
		typeVersion,
		position,
		parameters: nodeParameters,
		...extra,
	});
	const trigger = 'When clicking ‘Execute workflow’';
	const nodes = [
		node(trigger, 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
		node(
			'Mail Delivery',
			ACTION,
			await actionVersion(env),
			[440, 0],
			{ authentication: 'signature', ...parameters },
			{
				credentials: { mailDeliverySignatureApi: { id: signature.id, name: signature.name } },
			},
		),
	];
	const connections = {
		[trigger]: { main: [[{ node: 'Mail Delivery', type: 'main', index: 0 }]] },
	};
	if (people || code) {
		nodes.push(
			node('Orders', 'n8n-nodes-base.code', 2, [220, 0], {
				jsCode: code ?? codeReturning(people),
			}),
		);
		connections[trigger] = { main: [[{ node: 'Orders', type: 'main', index: 0 }]] };
		connections.Orders = { main: [[{ node: 'Mail Delivery', type: 'main', index: 0 }]] };
	}
	if (next) {
		nodes.push(node(next, 'n8n-nodes-base.noOp', 1, [660, 0], {}));
		connections['Mail Delivery'] = { main: [[{ node: next, type: 'main', index: 0 }]] };
	}
	const workflow = { name, nodes, connections, settings: { executionOrder: 'v1' } };
	return (await env.session.api('POST', '/workflows', workflow)).id;
}

export async function setOnError(page, choice) {
	await page.getByTestId('ndv').getByTestId('tab-settings').click();
	await chooseOption(page, 'onError', choice);
	await page.getByTestId('ndv').getByTestId('tab-params').click();
	await page.waitForTimeout(500);
}

export const rl = (value) => ({ __rl: true, mode: 'list', value });
/** The welcome template's {{name}} from each item's name: without a value the message fails by default. */
const WELCOME_NAME = { values: [{ name: rl('name'), value: '={{ $json.name }}' }] };
const NOT_SENT_IN_WORDS =
	/nothing was sent|no items? (were |was )?sent|\b\d+ of \d+ items? (were |was )?not sent/i;

export async function c(env) {
	const BAD = {
		name: 'Margaret Hamilton',
		email: 'margaret(at)example.org',
		firstName: 'Margaret',
		orderId: 'A-1005',
	};
	const id = await stageWorkflow(
		env,
		`Browser: error output ${randomUUID().slice(0, 6)}`,
		[...PEOPLE, BAD],
		{
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: '={{ $json.email }}',
			contentSource: 'template',
			templateName: rl('welcome'),
			tagValues: WELCOME_NAME,
		},
	);
	return await journey(env, 'c-error-output', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, id);
		await openNode(page, 'Mail Delivery');
		await setOnError(page, 'Continue (using error output)');
		await j.shot('continue-error-output-set');
		await executeStep(page);
		const tabs = await branchTabs(page);
		await j.shot('error-output-executed');
		j.saw('branches (error output)', JSON.stringify(tabs));
		const success = tabs.find((tab) => /success/i.test(tab)) ?? '';
		const failure = tabs.find((tab) => /error/i.test(tab)) ?? '';
		const countOf = (tab) => Number(/\((\d+) items?\)/.exec(tab)?.[1] ?? 0);
		await j.check(
			countOf(success) === 4,
			`the Success Branch shows ${countOf(success)} items ("${success}"), expected 4`,
		);
		await j.check(
			countOf(failure) === 1,
			`the Error Branch shows ${countOf(failure)} items ("${failure || 'no Error Branch tab'}"), expected 1`,
		);
		if (failure) {
			await openBranch(page, 'Error');
			const errors = await readOutput(page);
			await j.shot('error-branch');
			j.saw('Error Branch item', JSON.stringify(errors.items[0] ?? errors.text.slice(0, 200)));
			await j.check(
				errors.items[0]?.orderId === BAD.orderId,
				`the Error Branch item does not carry the input's orderId ${BAD.orderId}: ${JSON.stringify(errors.items[0] ?? errors.text.slice(0, 200))}`,
			);
			await j.check(
				Boolean(errors.items[0]?.error),
				`the Error Branch item has no error field: ${JSON.stringify(errors.items[0] ?? errors.text.slice(0, 200))}`,
			);
		}
		await closeNode(page);
		const labels = await outputLabels(page, 'Mail Delivery');
		await j.shot('canvas-two-outputs');
		j.saw('canvas outputs', JSON.stringify(labels));
		await j.check(
			labels.length === 2 && /success/i.test(labels[0]) && /error/i.test(labels[1]),
			`the node shows outputs ${JSON.stringify(labels)} on the canvas, expected Success and Error`,
		);

		await openNode(page, 'Mail Delivery');
		// n8n 2.41.1 titles the regular-output choice just "Continue".
		await setOnError(page, /^Continue(?! \(using)/);
		await executeStep(page);
		const regular = await readOutput(page);
		await j.shot('regular-output');
		j.saw('regular output', regular.countText);
		await j.check(
			regular.count === 5,
			`with Continue (regular output) the node shows ${regular.countText || 'nothing'}, expected 5 items`,
		);
		const bad =
			regular.items.find((item) => item.orderId === BAD.orderId) ??
			regular.items.find((item) => item.error);
		await j.check(
			Boolean(bad?.error),
			`with Continue (regular output) no item carries an error field: ${regular.text.slice(0, 300)}`,
		);

		// Stop Workflow: the malformed address is found before anything is sent, and the error must say so.
		await closeToasts(page);
		await setOnError(page, 'Stop Workflow');
		await page.getByTestId('ndv').getByTestId('node-execute-button').click();
		await waitForRun(page);
		let error = await nodeError(page);
		await j.shot('stop-workflow');
		j.saw('Stop Workflow error (malformed address)', `${error.title} — ${error.description}`);
		j.saw('toasts', JSON.stringify(await toasts(page)));
		await j.check(
			NOT_SENT_IN_WORDS.test(`${error.title} ${error.description}`),
			`the error "${error.title} — ${error.description}" does not say in words how many items were not sent`,
		);
		await j.check(
			!/^Mail Delivery API error \d+ on /.test(error.title),
			`the error title is only "${error.title}"`,
		);
		await closeNode(page);

		// Stop Workflow after the platform refused one item while the others went out (a template that does
		// not exist): the title must say how many were not sent.
		const partial = await stageWorkflow(
			env,
			`Browser: stop after a partial send ${randomUUID().slice(0, 6)}`,
			[...PEOPLE, { ...BAD, email: 'margaret@example.org' }],
			{
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: rl('sender@example.com'),
				to: '={{ $json.email }}',
				contentSource: 'template',
				templateName: {
					__rl: true,
					mode: 'name',
					value: "={{ $json.orderId === 'A-1003' ? 'no-such-template' : 'welcome' }}",
				},
				tagValues: WELCOME_NAME,
			},
		);
		await openWorkflowById(page, env.baseUrl, partial);
		await openNode(page, 'Mail Delivery');
		await page.getByTestId('ndv').getByTestId('node-execute-button').click();
		await waitForRun(page);
		error = await nodeError(page);
		await j.shot('stop-workflow-partial-send');
		j.saw('Stop Workflow error title (partial send)', error.title);
		j.saw('Stop Workflow error description (partial send)', error.description);
		await j.check(
			/\b1 of 5 items? (were |was )?not sent/i.test(error.title),
			`after a partial send the error title "${error.title}" does not say in words how many items were not sent (expected e.g. "1 of 5 items not sent")`,
		);
		await j.check(
			!/^Mail Delivery API error \d+ on /.test(error.title),
			`the error title is only "${error.title}"`,
		);
	});
}

const TRIGGER = `${PACKAGE_NAME}.mailDeliveryTrigger`;
const triggerOnCanvas = (page) =>
	page.locator(`[data-test-id="canvas-node"][data-node-type="${TRIGGER}"]`).first();

/** Registration's choices: Automatic shows the credential, Manual the secret fields instead. */
async function registrationChoices(j, page, ndv, visible) {
	await ndv.getByTestId('parameter-input-registration').click();
	// The dropdown opens with an animation: wait until its options are there before reading them.
	await page
		.getByRole('option')
		.filter({ visible: true })
		.first()
		.waitFor({ timeout: 10_000 })
		.catch(() => {});
	const registrations = (
		await page.getByRole('option').filter({ visible: true }).allInnerTexts()
	).map((text) => text.split('\n')[0].trim());
	await page.keyboard.press('Escape');
	j.saw('Registration options', JSON.stringify(registrations));
	await j.check(
		registrations.includes('Automatic') && registrations.includes('Manual'),
		`Registration offers ${JSON.stringify(registrations)}, expected Automatic and Manual`,
	);
	await j.check(
		await visible('node-credentials-select'),
		'with Automatic registration the panel shows no credential selector',
	);

	await chooseOption(page, 'registration', 'Manual');
	await page.waitForTimeout(500);
	await j.shot('manual');
	await j.check(
		!(await visible('node-credentials-select')),
		'with Manual registration the credential selector is still shown',
	);
	await j.check(
		await visible('parameter-input-requireSecret'),
		'with Manual registration there is no Require Secret field',
	);
	if (
		await j.check(
			await visible('parameter-input-secret'),
			'with Manual registration there is no Secret field',
		)
	) {
		// n8n draws no required mark (*) beside node parameters: the field and its hint must say it.
		const placeholder = await ndv
			.getByTestId('parameter-input-secret')
			.locator('input')
			.first()
			.getAttribute('placeholder')
			.catch(() => null);
		const panelText = await ndv.innerText().catch(() => '');
		const hint = /Required while Require Secret is on[^\n]*/.exec(panelText)?.[0];
		j.saw('Secret field', `placeholder "${placeholder}", hint "${hint ?? '(none)'}"`);
		await j.check(
			placeholder === 'Required' && hint,
			`the empty Secret field does not say it is required (placeholder "${placeholder}", hint "${hint ?? 'none'}")`,
		);
	}

	await chooseOption(page, 'registration', 'Automatic');
	await page.waitForTimeout(500);
	await j.check(
		await visible('node-credentials-select'),
		'back on Automatic registration the credential selector does not come back',
	);
}

export async function d(env) {
	return await journey(env, 'd-trigger-panel', async (j, page) => {
		await page.goto(`${env.baseUrl}/workflow/new`);
		await page.getByTestId('canvas-wrapper').waitFor();
		// The node creator lists the trigger by event ("On delivered"…); a person picks one and adds the rest.
		const ndv = await addNode(page, 'Mail Delivery', 'Mail Delivery', 'On delivered');
		await page.waitForTimeout(1000);
		await j.shot('trigger-added');
		const visible = async (testId) =>
			await ndv
				.getByTestId(testId)
				.first()
				.isVisible()
				.catch(() => false);
		if (
			await j.check(
				await visible('parameter-input-registration'),
				'the trigger panel shows no Registration field (Manual registration cannot be chosen)',
			)
		)
			await registrationChoices(j, page, ndv, visible);
		// Every kind, as a person adds them in the Events list, then one output per kind.
		await ndv.getByTestId('parameter-input-events').click();
		for (const kind of KINDS.filter((name) => name !== 'Other')) {
			const option = page
				.getByRole('option', { name: new RegExp(`^${kind}(\\s|$)`) })
				.filter({ visible: true })
				.first();
			if (
				(await option.getAttribute('aria-selected').catch(() => null)) !== 'true' &&
				!/selected/.test((await option.getAttribute('class').catch(() => '')) ?? '')
			)
				await option.click();
		}
		await page.keyboard.press('Escape');
		await chooseOption(page, 'outputMode', 'One Output per Event Kind');
		await page.waitForTimeout(500);
		await j.shot('per-kind');
		await closeNode(page);
		const name = await triggerOnCanvas(page).getAttribute('data-node-name');
		const labels = await outputLabels(page, name);
		await j.shot('canvas-per-kind');
		j.saw('per-kind outputs on the canvas', JSON.stringify(labels));
		await j.check(
			JSON.stringify(labels) === JSON.stringify(OUTPUT_LABELS),
			`the canvas draws the outputs ${JSON.stringify(labels)}, expected ${OUTPUT_LABELS.join(', ')}`,
		);

		// Listening while the demo's "events by kind" holds the account's default address: the example gives way
		// (Options → Give Way to Others), so the panel listens; stopping puts back what was there before it.
		await openNode(page, name);
		await closeToasts(page);
		await page.getByTestId('ndv').getByTestId('node-execute-button').click();
		const listening = page
			.getByText(/Listening for test event/i)
			.filter({ visible: true })
			.first();
		const listens = await listening.waitFor({ timeout: 60_000 }).then(
			() => true,
			() => false,
		);
		await page.waitForTimeout(1000);
		await j.shot('listening');
		const text = [...(await toasts(page)), (await nodeError(page)).title]
			.filter(Boolean)
			.join(' | ');
		j.saw('listening', listens ? 'Listening for test event' : text || '(nothing)');
		await j.check(
			listens && !/cannot listen/i.test(text),
			`listening for a test event while the example holds the address does not listen: "${text}"`,
		);
		await page
			.getByRole('button', { name: /stop listening/i })
			.first()
			.click({ timeout: 10_000 })
			.catch(() => undefined);
		await page.waitForTimeout(1000);
	});
}

/** Credentials page → Create credential → the type → Continue; returns the credential dialog. */
async function newCredential(page, baseUrl, typeName) {
	await page.goto(`${baseUrl}/home/credentials`);
	await page.getByRole('button', { name: 'Create credential' }).first().click();
	const chooser = page.getByTestId('selectCredential-modal');
	await chooser.getByTestId('new-credential-type-select').click();
	await page.keyboard.type(typeName);
	await page
		.getByTestId('new-credential-type-select-option')
		.filter({ hasText: typeName })
		.first()
		.click();
	await chooser.getByTestId('new-credential-type-button').click();
	const dialog = page.getByTestId('editCredential-modal');
	await dialog.getByTestId('credential-connection-parameter').first().waitFor();
	return dialog;
}

async function fillCredential(dialog, values) {
	for (const [key, value] of Object.entries(values))
		await dialog
			.getByTestId(`parameter-input-${key}`)
			.locator('input, textarea')
			.first()
			.fill(value);
}

/**
 * Saves and waits for n8n's connection test to end; returns what the dialog says, with "More details" opened
 * (n8n shows a failed test's reason only there).
 */
async function saveCredential(page, dialog) {
	// n8n saves, then tests the connection: wait for the test's answer, not for a banner of an earlier save.
	// The test id is on a wrapper; the button inside is what n8n disables.
	const save = dialog.getByTestId('credential-save-button').locator('button').first();
	if (!(await save.isEnabled()))
		return {
			disabled: true,
			banner: '',
			text: (await dialog.innerText()).replace(/\s+/g, ' '),
			toasts: await toasts(page),
		};
	const tested = page
		.waitForResponse((response) => response.url().includes('/rest/credentials/test'), {
			timeout: 45_000,
		})
		.catch(() => undefined);
	await save.click();
	await tested;
	const outcome = dialog
		.getByText(/Couldn.t connect|tested successfully/i)
		.filter({ visible: true })
		.first();
	await outcome.waitFor({ timeout: 10_000 }).catch(() => undefined);
	await page.waitForTimeout(500);
	const banner = (await outcome.innerText().catch(() => '')).trim();
	const details = dialog.getByText('More details', { exact: true });
	if (await details.isVisible().catch(() => false)) await details.click();
	await page.waitForTimeout(500);
	const text = (await dialog.innerText()).replace(/\s+/g, ' ');
	return { banner, text, toasts: await toasts(page) };
}

async function closeDialog(page) {
	await page.keyboard.press('Escape');
	await page
		.getByTestId('editCredential-modal')
		.waitFor({ state: 'hidden', timeout: 10_000 })
		.catch(() => undefined);
}

export async function e(env) {
	const { url, account, redirectUri } = env.emulator;
	return await journey(env, 'e-credentials', async (j, page) => {
		const wrongSecret = `wrong-secret-${randomUUID().slice(0, 8)}`;
		for (const typeName of [
			'Mail Delivery Signature API',
			'Mail Delivery OAuth2 Client Credentials API',
		]) {
			const dialog = await newCredential(page, env.baseUrl, typeName);
			await fillCredential(dialog, {
				baseUrl: url,
				apiKey: account.apiKey,
				apiSecret: wrongSecret,
			});
			const saved = await saveCredential(page, dialog);
			await j.shot(`${typeName.split(' ').slice(2, 4).join('-').toLowerCase()}-wrong-secret`);
			const reason = saved.text.slice(saved.text.search(/Couldn.t connect/i)).slice(0, 400);
			j.saw(`${typeName}, wrong secret: banner`, saved.banner || '(none)');
			j.saw(`${typeName}, wrong secret: after More details`, reason);
			await j.check(
				/Couldn.t connect/i.test(saved.banner),
				`${typeName}: saving with a wrong API Secret shows no failed connection test ("${saved.banner}")`,
			);
			await j.check(
				/401|secret|signature|authenti/i.test(reason),
				`${typeName}: the dialog gives no English reason for the failed test: "${reason}"`,
			);
			await j.check(
				![saved.text, ...saved.toasts].some((text) => text.includes(wrongSecret)),
				`${typeName}: the dialog shows the secret`,
			);
			await closeDialog(page);
		}

		const dialog = await newCredential(
			page,
			env.baseUrl,
			'Mail Delivery OAuth2 Authorization Code API',
		);
		await j.shot('authorization-code-new');
		const opened = (await dialog.innerText()).replace(/\s+/g, ' ');
		const template = /\{\{|\$self/.exec(opened);
		await j.check(
			!template,
			`the authorization-code dialog shows template text: "…${opened.slice(Math.max(0, (template?.index ?? 0) - 80), (template?.index ?? 0) + 80)}…"`,
		);
		await fillCredential(dialog, {
			baseUrl: url,
			clientId: account.clientId,
			clientSecret: account.clientSecret,
			redirectUri,
		});
		let saved = await saveCredential(page, dialog);
		await j.shot('authorization-code-saved-without-code');
		await j.check(
			!saved.disabled,
			'Save is disabled while Authorization Code is empty, so the dialog cannot help get a code',
		);
		j.saw('authorization code, saved without a code: banner', saved.banner || '(none)');
		const authorize = /https?:\/\/[^\s"'<>]+\/v5\/auth\/oauth\/authorize\?[^\s"'<>]+/
			.exec(saved.text)?.[0]
			?.replace(/[.,;)]+$/, '');
		j.saw('authorization code, saved without a code: authorize URL shown', authorize ?? '(none)');
		j.saw(
			'authorization code, saved without a code: dialog',
			saved.text
				.slice(saved.text.search(/Couldn.t connect|Connection tested|Authorization/i))
				.slice(0, 600),
		);
		if (
			!(await j.check(
				authorize,
				`after Save without an Authorization Code the dialog shows no authorize URL; it shows: "${saved.text.slice(0, 500)}"`,
			))
		)
			return;
		for (const part of [
			`/v5/auth/oauth/authorize?client_id=${account.clientId}`,
			'response_type=code',
			`redirect_uri=${encodeURIComponent(redirectUri)}`,
		]) {
			await j.check(
				authorize.includes(part),
				`the authorize URL shown (${authorize}) does not contain ${part}`,
			);
		}
		await j.check(
			authorize.startsWith(url),
			`the authorize URL shown (${authorize}) is not on the Base URL typed (${url})`,
		);

		// The person opens the URL, approves, and copies the code from the page they are sent to.
		const approval = await j.context.newPage();
		await approval.goto(authorize);
		const code = (
			await approval
				.locator('#code')
				.innerText({ timeout: 15_000 })
				.catch(() => '')
		).trim();
		await approval.screenshot({
			path: `${j.folder}/${String(++j.count).padStart(2, '0')}-callback-page.png`,
		});
		await approval.close();
		j.saw('callback page code', code || '(none)');
		if (
			!(await j.check(
				code,
				`opening the authorize URL did not lead to a page showing a code (${authorize})`,
			))
		)
			return;
		await dialog
			.getByTestId('parameter-input-authorizationCode')
			.locator('input')
			.first()
			.fill(code);
		saved = await saveCredential(page, dialog);
		await j.shot('authorization-code-saved-with-code');
		j.saw('authorization code, saved with the code: banner', saved.banner || '(none)');
		const ok = await dialog
			.getByTestId('credentials-config-container-test-success')
			.isVisible()
			.catch(() => false);
		await j.check(
			ok || /tested successfully/i.test(saved.text),
			`after saving with the code the dialog does not report a successful connection test: "${saved.text.slice(0, 400)}"`,
		);
		await closeDialog(page);
	});
}

export async function f(env) {
	const webhookConfiguration = async () => (await env.emulator.control('GET', 'state')).webhook;
	// Journey d's test listen took the address from the example, which gives way: publish it again first.
	await exampleTriggerHolds(env, 'Mail Delivery: events by kind');
	const before = await webhookConfiguration();
	const id = await stageWorkflow(env, `Browser: webhook save ${randomUUID().slice(0, 6)}`, null, {
		resource: 'webhook',
		operation: 'save',
		updateFields: { transCallbackUrl: 'https://example.com/other' },
	});
	return await journey(env, 'f-webhook-save', async (j, page) => {
		j.saw(
			'default push URL before',
			String(before?.transCallbackUrl).replace(/token=[^&#]+/, 'token=…'),
		);
		await j.check(
			/\/webhook\/.+\/events\?token=/.test(String(before?.transCallbackUrl)),
			`the demo's "events by kind" trigger does not hold the default push address before the journey: ${JSON.stringify(before)}`,
		);
		await openWorkflowById(page, env.baseUrl, id);
		const ndv = await openNode(page, 'Mail Delivery');
		await closeToasts(page);
		await executeStep(page);
		const error = await nodeError(page);
		await j.shot('save-refused');
		j.saw('Webhook → Save error title', error.title || '(none)');
		j.saw('Webhook → Save error description', error.description || '(none)');
		const text = `${error.title} ${error.description}`;
		if (
			await j.check(
				error.title,
				`Webhook → Save replaced the address a Mail Delivery Trigger holds without an error (${(await readOutput(page)).text.slice(0, 200)})`,
			)
		) {
			await j.check(
				/Mail Delivery Trigger|events by kind|workflow/i.test(text),
				`the error "${text}" does not name what holds the address (a Mail Delivery Trigger / its workflow)`,
			);
			await j.check(
				/replace/i.test(text),
				`the error "${text}" does not say how to replace it anyway (an option)`,
			);
		}
		const after = await webhookConfiguration();
		await j.check(
			after?.transCallbackUrl === before?.transCallbackUrl,
			`the emulator's default push URL is now ${after?.transCallbackUrl}: the trigger's address was replaced`,
		);

		// The explicit option that allows replacing. n8n draws "Add Option" as a button when the collection has one
		// option and as a select when it has several (Save has Replace Anyway, Requests in Parallel, Timeout…).
		const options = ndv
			.getByTestId('collection-parameter-add')
			.filter({ hasText: /Add Option/i })
			.or(ndv.getByPlaceholder('Add Option'))
			.filter({ visible: true })
			.first();
		if (
			!(await j.check(
				await options.isVisible().catch(() => false),
				'the Save operation has no "Add Option" (Options) to allow replacing',
			))
		)
			return;
		await options.click();
		await page.waitForTimeout(500);
		// With one option n8n adds it at once; with several it lists them.
		const listed = page
			.getByRole('option')
			.filter({ hasText: /Replace/ })
			.filter({ visible: true })
			.first();
		if (await listed.isVisible().catch(() => false)) await listed.click();
		const added = ndv
			.locator('.parameter-item')
			.filter({ hasText: /Replace/ })
			.last();
		if (
			!(await j.check(
				await added.isVisible().catch(() => false),
				'Options offers no option whose name contains "Replace"',
			))
		)
			return;
		const optionName = (
			await added
				.locator('[data-test-id="input-label"], label')
				.first()
				.innerText()
				.catch(() => 'Replace…')
		)
			.split('\n')[0]
			.trim();
		j.saw('option used', optionName);
		await page.waitForTimeout(300);
		const toggle = added.locator('.el-switch').first();
		if (
			(await toggle.getAttribute('aria-checked').catch(() => null)) !== 'true' &&
			!/is-checked/.test((await toggle.getAttribute('class').catch(() => '')) ?? '')
		)
			await toggle.click();
		await j.shot('replace-option-on');
		await closeToasts(page);
		await executeStep(page);
		const output = await readOutput(page);
		const second = await nodeError(page);
		await j.shot('save-with-replace');
		j.saw(
			'Webhook → Save with the option',
			second.title ? `${second.title} — ${second.description}` : output.countText,
		);
		await j.check(
			!second.title && output.count === 1,
			`with "${optionName}" on the save still fails: ${second.title || output.text.slice(0, 200)}`,
		);
		const replaced = await webhookConfiguration();
		await j.check(
			replaced?.transCallbackUrl === 'https://example.com/other',
			`after the save with "${optionName}" the emulator's default push URL is ${replaced?.transCallbackUrl}`,
		);
	});
}

/** Makes sure the demo's "events by kind" trigger holds the default push address (journey f may have replaced it). */
export async function exampleTriggerHolds(env, holder) {
	const workflows = (await env.session.api('GET', '/workflows?limit=250')).data ?? [];
	const example = workflows.find((workflow) => workflow.name === holder);
	if (!example) return false;
	const path = `/${example.nodes.find((node) => node.type === TRIGGER).webhookId}/events`;
	const held = async () =>
		String((await env.emulator.control('GET', 'state')).webhook.transCallbackUrl).includes(path);
	if (await held()) return true;
	await env.session.api('POST', `/workflows/${example.id}/deactivate`);
	await env.session.api('POST', `/workflows/${example.id}/activate`);
	for (let attempt = 0; attempt < 50; attempt++) {
		if (await held()) return true;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return false;
}

/** A trigger workflow on the signature credential, one output per kind (created, not published). */
async function triggerWorkflowNamed(env, name) {
	const credentials = (await env.session.api('GET', '/credentials?limit=250')).data ?? [];
	const signature = credentials.find((credential) => credential.name === SIGNATURE_CREDENTIAL);
	const { id } = await env.session.api('POST', '/workflows', {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Mail Delivery Trigger',
				type: TRIGGER,
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { authentication: 'signature', outputMode: 'perKind' },
				credentials: { mailDeliverySignatureApi: { id: signature.id, name: signature.name } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	return id;
}

export async function g(env) {
	// The demo's example gives way (journey y); a trigger of the user's own does not: it holds the address here.
	const holder = `Browser: orders events ${randomUUID().slice(0, 6)}`;
	const holderId = await triggerWorkflowNamed(env, holder);
	await env.session.api('POST', `/workflows/${holderId}/activate`);
	const name = `Browser: bounce handling ${randomUUID().slice(0, 6)}`;
	const id = await triggerWorkflowNamed(env, name);
	return await journey(env, 'g-second-trigger', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, id);
		await closeToasts(page);
		await page.getByTestId('workflow-open-publish-modal-button').click();
		await page.getByTestId('workflow-publish-button').click();
		const started = Date.now();
		const appeared = await page
			.locator('.el-notification:visible')
			.first()
			.waitFor({ timeout: 30_000 })
			.then(
				() => true,
				() => false,
			);
		const seconds = (Date.now() - started) / 1000;
		await page.waitForTimeout(500);
		await j.shot('publish-refused');
		const text = (await toasts(page)).join(' | ');
		j.saw('publish refusal', `${text || '(none)'} (after ${seconds.toFixed(1)} s)`);
		await env.session.api('POST', `/workflows/${holderId}/deactivate`);
		if (
			!(await j.check(
				appeared && text,
				'publishing a second trigger on the taken address shows no error',
			))
		)
			return;
		await j.check(
			seconds < 6,
			`the refusal took ${seconds.toFixed(1)} s (n8n's five retries take 15.5 s)`,
		);
		await j.check(
			text.includes(`workflow "${holder}"`),
			`the refusal "${text}" does not name the workflow that holds the address ("${holder}")`,
		);
		await j.check(
			!/One Output per Event Kind/.test(text),
			`the refusal suggests One Output per Event Kind, which this workflow already uses: "${text}"`,
		);
		await j.check(!/https?:\/\//.test(text), `the refusal names a URL: "${text}"`);
		await j.check(
			await exampleTriggerHolds(env, 'Mail Delivery: events by kind'),
			'after the journey the example could not take the address back',
		);
	});
}

/** Pastes text into a parameter as a person does (the clipboard, then Ctrl+V); n8n makes "{{"-text an expression. */
export async function paste(j, page, parameterName, text) {
	await j.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: j.baseUrl });
	const field = page
		.getByTestId('ndv')
		.getByTestId(`parameter-input-${parameterName}`)
		.locator('input, textarea, .cm-content')
		.first();
	await field.click();
	await page.evaluate((value) => navigator.clipboard.writeText(value), text);
	await page.keyboard.press('ControlOrMeta+V');
	// n8n saves a parameter a moment after the last change.
	await page.waitForTimeout(1500);
}

/** Saves the open workflow (Ctrl+S) and returns the Mail Delivery node's parameters as n8n stored them. */
export async function storedParameters(env, page, id, nodeName = 'Mail Delivery') {
	await page.keyboard.press('ControlOrMeta+S');
	await page.waitForTimeout(1500);
	const workflow = await env.session.api('GET', `/workflows/${id}`);
	return workflow.nodes.find((node) => node.name === nodeName)?.parameters ?? {};
}

export async function h(env) {
	const templateName = `shipped-${randomUUID().slice(0, 6)}`;
	const SUBJECT = 'Your order {{orderId}} has shipped';
	const HTML = '<p>Hi {{firstName}}, your order {{orderId}} is on its way.</p>';
	const id = await stageWorkflow(env, `Browser: pasted tags ${templateName}`, null, {
		resource: 'template',
		operation: 'create',
		templateName,
	});
	return await journey(env, 'h-pasted-tags', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, id);
		await openNode(page, 'Mail Delivery');
		await paste(j, page, 'templateSubject', SUBJECT);
		await paste(j, page, 'templateContent', HTML);
		await j.shot('pasted');
		// What n8n really stored: the paste made both fields expressions.
		const stored = await storedParameters(env, page, id);
		j.saw('stored Subject', stored.templateSubject);
		j.saw('stored HTML Content', stored.templateContent);
		await j.check(
			stored.templateSubject === `=${SUBJECT}` && stored.templateContent === `=${HTML}`,
			`after pasting, n8n stored ${JSON.stringify([stored.templateSubject, stored.templateContent])}, expected the texts as expressions ("=" prefix)`,
		);
		const hint = (
			await page
				.getByTestId('ndv')
				.getByTestId('parameter-input-templateContent')
				.locator('xpath=ancestor::*[contains(@class,"parameter-item")][1]')
				.innerText()
				.catch(() => '')
		).replace(/\s+/g, ' ');
		j.saw('HTML Content field', hint.slice(0, 200));
		await executeStep(page);
		const output = await readOutput(page);
		const error = await nodeError(page);
		await j.shot('executed');
		j.saw('output', error.title ? `${error.title} — ${error.description}` : output.countText);
		await j.check(
			output.count === 1 && output.items[0]?.success === 'true',
			`Template → Create did not succeed: ${error.title || output.text.slice(0, 200)}`,
		);
		// What the platform stand-in received and stored.
		const { requests } = await env.emulator.control('GET', 'requests');
		const sent = requests
			.filter((request) => request.path === '/v5/campaign/mail/template/add')
			.map((request) => request.body)
			.find((body) => body.templateName === templateName);
		j.saw('the emulator received', JSON.stringify(sent));
		await j.check(
			sent?.templateSubject === SUBJECT && sent?.templateContent === HTML,
			`the emulator received ${JSON.stringify(sent)}, expected the subject and HTML with their tags`,
		);
	});
}

/** The node creator's entries for Mail Delivery: opens it from the canvas "+" and returns its text by section. */
async function creatorEntries(page) {
	await page.getByTestId('node-creator-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill('Mail Delivery');
	const creator = page.getByTestId('node-creator');
	await creator
		.getByTestId('item-iterator-item')
		.filter({ has: page.getByText('Mail Delivery', { exact: true }) })
		.first()
		.click();
	await page.waitForTimeout(1000);
	const text = await creator.innerText();
	const lines = text
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean);
	const after = (title) => {
		const start = lines.findIndex((line) => line.startsWith(title));
		return start === -1 ? [] : lines.slice(start + 1);
	};
	return { creator, lines, after };
}

export async function addManualTrigger(page) {
	await page.getByTestId('node-creator-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill('Manual');
	await page
		.getByTestId('node-creator')
		.getByTestId('item-iterator-item')
		// n8n names it either way, depending on where the node creator was opened from.
		.filter({ has: page.getByText(/^(Trigger manually|Manual Trigger)$/) })
		.first()
		.click();
	await page.waitForTimeout(1500);
}

export async function i(env) {
	return await journey(env, 'i-node-creator-and-lists', async (j, page) => {
		await page.goto(`${env.baseUrl}/workflow/new`);
		await page.getByTestId('canvas-wrapper').waitFor();
		// An empty canvas: the node creator offers triggers first.
		let entries = await creatorEntries(page);
		await j.shot('creator-triggers');
		const triggers = entries.after('Triggers');
		j.saw('trigger entries', triggers.slice(0, 10).join(' | '));
		await j.check(
			triggers[0] === 'On any event' && triggers.includes('On delivered'),
			`the node creator's triggers start ${JSON.stringify(triggers.slice(0, 3))}, expected "On any event" first, then one per kind`,
		);
		await page.keyboard.press('Escape');
		await page.waitForTimeout(500);

		// With a trigger on the canvas (the workflow is saved, and n8n reloads its credentials list): actions.
		await addManualTrigger(page);
		entries = await creatorEntries(page);
		await j.shot('creator-actions');
		const actions = entries.after('Actions');
		const firstAction = actions.find(
			(line) => /^[A-Z][a-z]/.test(line) && !/^Actions need/.test(line),
		);
		j.saw('first action', firstAction);
		await j.check(
			firstAction === 'Send transactional mail',
			`the node creator's first action is "${firstAction}", expected "Send transactional mail" (${actions.slice(0, 6).join(' | ')})`,
		);

		// Campaign → Create from the node creator: its lists load on first open.
		await entries.creator.getByText('Create a campaign', { exact: true }).first().click();
		const ndv = page.getByTestId('ndv');
		await ndv.waitFor();
		await page.waitForTimeout(2500);
		await j.shot('campaign-first-open');
		const panel = (await ndv.innerText()).replace(/\s+/g, ' ');
		await j.check(
			!/Error fetching options/i.test(panel),
			`Campaign → Create shows "Error fetching options" on first open: ${panel.slice(0, 300)}`,
		);
		const listed = await pickFromList(j, page, 'listName', 'newsletter');
		await j.shot('campaign-list-picked');
		await j.check(listed, 'Send to Lists does not list "newsletter" on first open');
		if (listed) j.saw('Send to Lists on first open', 'lists and picks newsletter');

		// Custom API Call: n8n adds it (the credentials can sign any request) and points to the HTTP Request node.
		await ndv.getByTestId('parameter-input-resource').click();
		const custom = page
			.getByRole('option', { name: /^Custom API Call/ })
			.filter({ visible: true })
			.first();
		const offered = await custom.waitFor({ timeout: 5_000 }).then(
			() => true,
			() => false,
		);
		if (
			await j.check(
				offered,
				'Resource offers no "Custom API Call" (n8n adds it when the credentials can serve its HTTP Request node)',
			)
		) {
			await custom.click();
			await page.waitForTimeout(800);
			await j.shot('custom-api-call');
			const note = (await ndv.innerText()).replace(/\s+/g, ' ');
			j.saw(
				'Custom API Call',
				/HTTP Request/.exec(note)
					? note.slice(note.indexOf('Use the')).slice(0, 140)
					: note.slice(0, 200),
			);
			await j.check(
				/HTTP Request/.test(note),
				`choosing Custom API Call shows no pointer to the HTTP Request node: ${note.slice(0, 300)}`,
			);
		}
	});
}

/** Texts cut with an ellipsis inside `root` (CSS text-overflow: the element is narrower than its text). */
async function cutTexts(root) {
	return await root.evaluate((element) =>
		[...element.querySelectorAll('*')]
			.filter(
				(node) =>
					node.children.length === 0 &&
					node.textContent.trim() &&
					node.scrollWidth > node.clientWidth + 1,
			)
			.map((node) => node.textContent.trim()),
	);
}

/**
 * The panel as a desktop browser draws it: headless Chromium shows no scrollbar, a desktop one takes about
 * 15 px of the panel, so the panel is made 20 px narrower. Returns its width.
 */
export async function narrowPanel(page, ndv) {
	const handles = page.locator('[data-test-id="resize-handle"]');
	for (let index = 0; index < (await handles.count()); index++) {
		const box = await handles.nth(index).boundingBox();
		const parameters = await ndv.getByTestId('node-parameters').first().boundingBox();
		if (
			box &&
			parameters &&
			box.height > 300 &&
			Math.abs(box.x - (parameters.x + parameters.width)) < 40
		) {
			await page.mouse.move(box.x + 2, box.y + 200);
			await page.mouse.down();
			await page.mouse.move(box.x - 18, box.y + 200, { steps: 5 });
			await page.mouse.up();
			break;
		}
	}
	await page.waitForTimeout(500);
	return await ndv
		.getByTestId('node-parameters')
		.first()
		.evaluate((element) => element.clientWidth);
}

/** Texts cut in the panel's fields, each hovered: its label then shares the row with n8n's controls (delete, menu, Fixed | Expression). */
export async function cutWhenHovered(page, ndv) {
	const fields = ndv.locator('.parameter-item');
	const truncated = new Set();
	for (let index = 0; index < (await fields.count()); index++) {
		const field = fields.nth(index);
		if (!(await field.isVisible().catch(() => false))) continue;
		await field.scrollIntoViewIfNeeded();
		await field.hover();
		await page.waitForTimeout(100);
		for (const text of await cutTexts(field)) truncated.add(text);
	}
	return truncated;
}

export async function j(env) {
	const credentials = (await env.session.api('GET', '/credentials?limit=250')).data ?? [];
	const signature = credentials.find((credential) => credential.name === SIGNATURE_CREDENTIAL);
	const everyOption = {
		resource: 'transactionalMail',
		operation: 'send',
		additionalFields: {
			attachmentBinaryProperty: 'data',
			sharedParams: '{}',
			campaign: 'spring',
			uniqueMsgID: 'x',
		},
		options: {
			combineItems: true,
			includeInputFields: false,
			parallelRequests: 4,
			retryAttempts: 6,
			retryMaxWaitSeconds: 60,
			missingTagValues: 'send',
		},
	};
	const workflow = {
		name: `Browser: labels ${randomUUID().slice(0, 6)}`,
		nodes: [
			{
				id: randomUUID(),
				name: 'Events',
				type: `${PACKAGE_NAME}.mailDeliveryTrigger`,
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { outputMode: 'perKind', events: KINDS.filter((kind) => kind !== 'Other') },
				credentials: { mailDeliverySignatureApi: { id: signature.id, name: signature.name } },
			},
			{
				id: randomUUID(),
				name: 'Mail Delivery',
				type: ACTION,
				typeVersion: await actionVersion(env),
				position: [400, 0],
				parameters: { authentication: 'signature', ...everyOption },
				credentials: { mailDeliverySignatureApi: { id: signature.id, name: signature.name } },
			},
		],
		connections: { Events: { main: [] } },
		settings: { executionOrder: 'v1' },
	};
	// Each output wired to a node of its own, as a workflow that handles the events has it (and the example):
	// n8n then gives a label 96 px. An output not yet wired shows its label beside n8n's "+" line, which leaves
	// 76 px (about 11 characters): journey y checks the labels there.
	KINDS.forEach((kind, index) => {
		workflow.nodes.push({
			id: randomUUID(),
			name: `On ${kind}`,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [300, -480 + index * 120],
			parameters: {},
		});
		workflow.connections.Events.main.push([{ node: `On ${kind}`, type: 'main', index: 0 }]);
	});
	workflow.nodes.find((node) => node.name === 'Mail Delivery').position = [600, 0];
	const id = (await env.session.api('POST', '/workflows', workflow)).id;
	return await journey(env, 'j-labels', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, id);
		await page.waitForTimeout(1000);
		const labels = await outputLabels(page, 'Events');
		const cut = await cutTexts(canvasNode(page, 'Events').locator('xpath=..'));
		const outputs = await page
			.locator('[data-test-id="canvas-node-output-handle"][data-node-name="Events"]')
			.evaluateAll((handles) =>
				handles
					.map((handle) => handle.querySelector('[class*="outputLabel"]'))
					.filter((label) => label && label.scrollWidth > label.clientWidth + 1)
					.map((label) => label.textContent.trim()),
			);
		await j.shot('canvas-outputs');
		j.saw('trigger outputs on the canvas', JSON.stringify(labels));
		await j.check(
			outputs.length === 0 && !cut.some((text) => OUTPUT_LABELS.includes(text)),
			`output labels cut on the canvas: ${JSON.stringify(outputs)}`,
		);

		// The send's panel as a desktop browser draws it, every field hovered (see narrowPanel, cutWhenHovered).
		const ndv = await openNode(page, 'Mail Delivery');
		await page.waitForTimeout(500);
		const width = await narrowPanel(page, ndv);
		j.saw('panel width', `${width} px`);
		const truncated = await cutWhenHovered(page, ndv);
		await j.shot('panel-hovered');
		const addField = ndv.getByTestId('collection-parameter-add').first();
		await addField.scrollIntoViewIfNeeded();
		await addField.click();
		await page.waitForTimeout(500);
		for (const text of await cutTexts(page.locator('[role="listbox"]:visible').last()).catch(
			() => [],
		))
			truncated.add(text);
		await j.shot('panel-add-field');
		await page.keyboard.press('Escape');
		// Values typed in fields may be long; labels may not.
		const labelsCut = [...truncated].filter(
			(text) => !['data', '{}', 'spring', 'x'].includes(text),
		);
		j.saw('labels cut', JSON.stringify(labelsCut));
		await j.check(
			labelsCut.length === 0,
			`labels cut in a ${width} px panel: ${JSON.stringify(labelsCut)}`,
		);
	});
}

/** The text of a panel part, on one line. */
export const textOf = async (locator) =>
	(await locator.innerText({ timeout: 5_000 }).catch(() => '')).replace(/\s+/g, ' ').trim();

/** The README's fast path: addresses and tag values straight from the items' fields. */
const FAST_PATH = {
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	recipientSource: 'inputField',
	recipientField: 'email',
	contentSource: 'template',
	templateName: rl('welcome'),
	tagValuesMode: 'inputFields',
};
/** Customers as an import gives them: no `name`, which the template welcome's {{name}} needs. */
const CUSTOMERS = PEOPLE.map(({ email, firstName, orderId }) => ({
	email,
	firstName,
	orderId,
	city: 'Lyon',
}));

export async function k(env) {
	const suffix = randomUUID().slice(0, 6);
	const missing = await stageWorkflow(
		env,
		`Browser: tags without values ${suffix}`,
		CUSTOMERS,
		FAST_PATH,
		{
			next: 'Next step',
		},
	);
	// These customers have a name: the error of the bad address is the run's first.
	const bad = await stageWorkflow(
		env,
		`Browser: a bad address from an input field ${suffix}`,
		[
			...CUSTOMERS.map((customer) => ({ ...customer, name: customer.firstName })),
			{
				email: 'margaret(at)example.org',
				firstName: 'Margaret',
				name: 'Margaret',
				orderId: 'A-1005',
			},
		],
		FAST_PATH,
	);
	return await journey(env, 'k-send-says-what-it-cannot', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, missing);

		// Before any run: the next node's input lists what Mail Delivery usually outputs.
		const next = await openNode(page, 'Next step');
		await page.waitForTimeout(2000);
		const input = await textOf(next.getByTestId('ndv-input-panel'));
		await j.shot('fields-before-the-first-run');
		j.saw("the next node's input before any run", input.slice(0, 300));
		await j.check(
			/Usually outputs the following fields/i.test(input),
			`the next node's input panel does not say "Usually outputs the following fields" before the first run: ${input.slice(0, 300)}`,
		);
		for (const field of ['success', 'recipients', 'uniqueMsgID', 'missingTags'])
			await j.check(
				input.includes(field),
				`the next node's input panel lists no "${field}" before the first run: ${input.slice(0, 300)}`,
			);
		await closeNode(page);

		// The fast path with {{name}} missing: by default no mail goes out, and the error says why and how to send
		// anyway.
		await openNode(page, 'Mail Delivery');
		const before = (await env.emulator.control('GET', 'mails')).mails.length;
		await closeToasts(page);
		await page.getByTestId('ndv').getByTestId('node-execute-button').click();
		await waitForRun(page);
		let refusal = await nodeError(page);
		if (!refusal.title) {
			await page.waitForTimeout(2000);
			refusal = await nodeError(page);
		}
		await j.shot('missing-tag-fails-by-default');
		j.saw('error title', refusal.title);
		j.saw('error description', refusal.description);
		await j.check(
			refusal.title === 'Tag {{name}} has no value, in item 0 (the 1st input item)',
			`a send whose items lack {{name}} does not fail by default naming the tag and the item: "${refusal.title}"`,
		);
		await j.check(
			refusal.description.includes(
				'this item holds values for email, firstName, orderId and city (the input has firstName)',
			) && refusal.description.includes('Send With the Tag Empty'),
			`the error does not say what the item holds and how to send anyway: "${refusal.description}"`,
		);
		await j.check(
			(await env.emulator.control('GET', 'mails')).mails.length === before,
			'a mail went out with its tag empty although the default fails it',
		);

		// Sending them anyway is a choice: Options → Missing Tag Values → Send With the Tag Empty.
		await page.getByPlaceholder('Add Option').filter({ visible: true }).first().click();
		await page.waitForTimeout(500);
		await page
			.getByRole('option')
			.filter({ hasText: 'Missing Tag Values' })
			.filter({ visible: true })
			.first()
			.click();
		await page.waitForTimeout(500);
		const field = page.getByTestId('ndv').getByTestId('parameter-input-missingTagValues');
		const shownDefault = (
			await field
				.locator('input')
				.first()
				.inputValue()
				.catch(() => '')
		).trim();
		j.saw('Missing Tag Values when added', shownDefault);
		await j.check(
			shownDefault === 'Fail the Item',
			`Missing Tag Values shows "${shownDefault}" when added, expected its default Fail the Item`,
		);
		await field.click();
		await page.waitForTimeout(300);
		const choices = await page.getByRole('option').filter({ visible: true }).allInnerTexts();
		await j.shot('missing-tag-values-choices');
		j.saw(
			'Missing Tag Values choices',
			choices.map((text) => text.replace(/\s+/g, ' ')).join(' | '),
		);
		await page.keyboard.press('Escape');
		await chooseOption(page, 'missingTagValues', 'Send With the Tag Empty');
		await page.waitForTimeout(500);
		await executeStep(page);
		const output = await readOutput(page);
		const panel = await textOf(page.getByTestId('output-panel'));
		await j.shot('missing-tags-output');
		j.saw('send output', output.countText);
		const hint = /\d+ of \d+ messages? ha(?:ve|s) no value for \{\{name\}\}[^.]*\./.exec(
			panel,
		)?.[0];
		j.saw('hint in the output panel', hint ?? '(none)');
		await j.check(
			hint === '4 of 4 messages have no value for {{name}}: the input has firstName.' &&
				panel.includes('They were sent with the tag left empty'),
			`the output panel shows no hint "4 of 4 messages have no value for {{name}}: the input has firstName. They were sent with the tag left empty…": ${panel.slice(0, 400)}`,
		);
		await j.check(
			output.count === 4 && output.items.every((item) => item.missingTags?.includes('name')),
			`not every output item lists missingTags name: ${output.text.slice(0, 300)}`,
		);
		const { mails } = await env.emulator.control('GET', 'mails');
		// Earlier journeys mailed the same people: this run's mail is the last one.
		const sent = mails.findLast((mail) => mail.email === CUSTOMERS[0].email);
		j.saw("the emulator's mail log", JSON.stringify(sent));
		await j.check(
			sent?.subject === 'Welcome, ' && sent?.missingTags?.includes('name'),
			`the emulator's mail log does not show the tag left empty: ${JSON.stringify(sent)}`,
		);
		await closeNode(page);

		// A bad address read from an input field: the error names the field the panel shows, Email Field.
		await openWorkflowById(page, env.baseUrl, bad);
		await openNode(page, 'Mail Delivery');
		await closeToasts(page);
		await page.getByTestId('ndv').getByTestId('node-execute-button').click();
		await waitForRun(page);
		let error = await nodeError(page);
		// The title is drawn a moment after the description.
		if (!error.title) {
			await page.waitForTimeout(2000);
			error = await nodeError(page);
		}
		await j.shot('email-field-error');
		j.saw('error title', error.title);
		j.saw('error description', error.description);
		await j.check(
			error.title ===
				'Field "Email Field" "margaret(at)example.org" is not a valid email address, in item 4 (the 5th input item)',
			`the error names another field than the panel's Email Field: "${error.title}"`,
		);
		await j.check(
			/API field messageVersions\[0\]\.to\[0\]\.email, positions counted from 0 within this item/.test(
				error.description,
			),
			`the error's description does not keep the API's path in words: "${error.description}"`,
		);
	});
}

export async function l(env) {
	const importId = await stageWorkflow(
		env,
		`Browser: import to a new list ${randomUUID().slice(0, 6)}`,
		CUSTOMERS,
		{
			resource: 'contact',
			operation: 'import',
			updateMode: 1,
			additionalFields: { listName: { __rl: true, mode: 'list', value: '' } },
		},
	);
	return await journey(env, 'l-panel-details', async (j, page) => {
		// The example's Tag Values → Name: its mode shown, not an empty "Mode…" selector.
		await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: combined transactional send');
		const send = await openNode(page, 'Send welcome mail');
		await page.waitForTimeout(1000);
		const locator = send.getByTestId('resource-locator-name').first();
		await locator.scrollIntoViewIfNeeded().catch(() => undefined);
		// The mode selector and the value are inputs of the locator: [mode, value].
		const [mode, value] = await locator
			.evaluate((element) => [...element.querySelectorAll('input')].map((input) => input.value))
			.catch(() => []);
		await j.shot('example-tag-name');
		j.saw('example Tag Values → Name', `mode "${mode}", value "${value}"`);
		// n8n labels a list mode "From list" whatever its displayName; a value stored without its mode showed an
		// empty "Mode…" selector.
		await j.check(
			mode === 'From list' && value === 'name',
			`the example's Tag Values → Name shows mode "${mode}" and value "${value}", expected From list and name`,
		);
		await closeNode(page);

		// Import's Add to List: a new list's name typed in the search is offered.
		await openWorkflowById(page, env.baseUrl, importId);
		const ndv = await openNode(page, 'Mail Delivery');
		await ndv.getByTestId('resource-locator-listName').getByTestId('rlc-input').click();
		// The list opens with its search focused: a person types the new name.
		await page.waitForTimeout(500);
		await page.keyboard.type('spring buyers');
		const offered = page
			.locator('[data-test-id="rlc-item"]:visible')
			.filter({ hasText: 'spring buyers' })
			.first();
		const shown = await offered.waitFor({ timeout: 20_000 }).then(
			() => true,
			() => false,
		);
		await j.shot('new-list-offered');
		const entries = await page.locator('[data-test-id="rlc-item"]:visible').allInnerTexts();
		j.saw('Add to List search "spring buyers"', JSON.stringify(entries));
		if (
			await j.check(
				shown && entries.some((entry) => /^\s*spring buyers \(new list\)\s*$/.test(entry)),
				`typing "spring buyers" in Add to List shows ${JSON.stringify(entries)}, expected it offered as a new list`,
			)
		) {
			await offered.click();
			await page.waitForTimeout(500);
			await executeStep(page);
			const output = await readOutput(page);
			await j.shot('imported-to-new-list');
			const { lists } = await env.emulator.control('GET', 'state');
			j.saw('lists after the import', JSON.stringify(lists.map((list) => list.listName)));
			await j.check(
				output.count === 4 && lists.some((list) => list.listName === 'spring buyers'),
				`the import to "spring buyers" gave ${output.countText || output.text.slice(0, 200)}; lists ${JSON.stringify(lists.map((list) => list.listName))}`,
			);
		}
		await closeNode(page);

		// The node creator under "What happens next?": one Mail Delivery entry, whose description speaks of both.
		await page.goto(`${env.baseUrl}/workflow/new`);
		await page.getByTestId('canvas-wrapper').waitFor();
		await addManualTrigger(page);
		await page.getByTestId('node-creator-plus-button').click();
		await page.getByTestId('node-creator-search-bar').fill('Mail Delivery');
		await page.waitForTimeout(1000);
		const entry = page
			.getByTestId('node-creator')
			.getByTestId('item-iterator-item')
			.filter({ has: page.getByText('Mail Delivery', { exact: true }) })
			.first();
		const description = await textOf(entry);
		await j.shot('creator-what-happens-next');
		j.saw('node creator entry', description);
		await j.check(
			/send transactional and campaign mail/i.test(description) && /events/i.test(description),
			`the node creator's Mail Delivery entry reads "${description}", expected the actions and the events`,
		);
	});
}

/** 150 customers, enough for the hint of a field left to n8n's expression engine (100 items or more). */
const MANY_CUSTOMERS = Array.from({ length: 150 }, (_, i) => ({
	email: `customer${i}@example.org`,
	name: `Customer ${i}`,
}));

export async function m(env) {
	const suffix = randomUUID().slice(0, 6);
	const slow = await stageWorkflow(env, `Browser: a slow field ${suffix}`, MANY_CUSTOMERS, {
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: rl('sender@example.com'),
		to: '={{ $json.email.trim() }}',
		contentSource: 'template',
		templateName: rl('welcome'),
		tagValuesMode: 'inputFields',
	});
	const upsert = await stageWorkflow(env, `Browser: contacts several at once ${suffix}`, null, {
		resource: 'contact',
		operation: 'upsert',
		email: 'ada@example.org',
	});
	return await journey(env, 'm-speed-and-retries', async (j, page) => {
		// A To that only n8n's engine can evaluate (a method call), over 150 items: the output panel says so.
		await openWorkflowById(page, env.baseUrl, slow);
		await openNode(page, 'Mail Delivery');
		await executeStep(page);
		const output = await readOutput(page);
		const panel = await textOf(page.getByTestId('output-panel'));
		await j.shot('slow-field-hint');
		j.saw('send output', output.countText);
		const hint =
			/n8n's expression engine evaluated these fields item by item[^]*?same result\./.exec(
				panel,
			)?.[0];
		j.saw('hint in the output panel', hint ?? '(none)');
		await j.check(
			output.count === 150,
			`the send gave ${output.count} items for 150: ${output.text.slice(0, 200)}`,
		);
		await j.check(
			/To \(150 items\): Recipients From → An Input Field/.test(hint ?? ''),
			`the output panel names no slow field To with its faster way: ${panel.slice(0, 500)}`,
		);
		await closeNode(page);

		// An operation run item by item offers Requests in Parallel and, since it changes something, Redo After a Crash.
		await openWorkflowById(page, env.baseUrl, upsert);
		await openNode(page, 'Mail Delivery');
		// n8n draws a collection of several options as a select whose placeholder reads "Add Option".
		await page.getByPlaceholder('Add Option').filter({ visible: true }).first().click();
		await page.waitForTimeout(500);
		const offered = await page.getByRole('option').filter({ visible: true }).allInnerTexts();
		await j.shot('per-item-options');
		j.saw('Options offered', offered.join(', '));
		for (const option of ['Requests in Parallel', 'Redo After a Crash', 'Timeout (Seconds)'])
			await j.check(
				offered.some((text) => text.includes(option)),
				`Contact → Create or Update's Options offer no "${option}": ${offered.join(', ')}`,
			);
		// One option for how many at once (issue 61): no Max in Parallel beside it.
		await j.check(
			!offered.some((text) => text.includes('Max in Parallel')),
			`Contact → Create or Update's Options still offer Max in Parallel: ${offered.join(', ')}`,
		);
		// Added just to look at it, Requests in Parallel shows its default, 0, and says under it that 0 follows the
		// platform: looking at it changes nothing (it used to fill in 16, a fixed number).
		await page
			.getByRole('option')
			.filter({ hasText: 'Requests in Parallel' })
			.filter({ visible: true })
			.first()
			.click();
		await page.waitForTimeout(500);
		const parallel = page.getByTestId('ndv').getByTestId('parameter-input-parallelRequests');
		const shownParallel = (
			await parallel
				.locator('input')
				.first()
				.inputValue()
				.catch(() => '')
		).trim();
		const panelText = await page
			.getByTestId('ndv')
			.innerText()
			.catch(() => '');
		const parallelHint = /0, the default: follows the platform[^\n]*/.exec(panelText)?.[0];
		await j.shot('requests-in-parallel-added');
		j.saw(
			'Requests in Parallel when added',
			`${shownParallel}; hint "${parallelHint ?? '(none)'}"`,
		);
		await j.check(
			shownParallel === '0' && parallelHint !== undefined,
			`Requests in Parallel shows "${shownParallel}" when added, hint "${parallelHint ?? 'none'}": expected 0 and a note that it follows the platform`,
		);
	});
}
