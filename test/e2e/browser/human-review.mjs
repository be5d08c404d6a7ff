// Journey t: Send and Wait for Response as the builder and the approver see it once the node is set up. The
// builder opens the Options (what a person in the loop needs in front, two groups that say what they are for)
// and Approval Options (labelled as n8n labels them), runs the workflow and opens the waiting node (whom the
// mail went to, and that it waits without a time limit); the approver confirms on the page with a double click
// (a page, not n8n's error), opens the link again while the run goes on (n8n's own 409, as docs/human-review.md
// says) and once it ended (n8n's "No action required").
import { randomUUID } from 'node:crypto';

import { PACKAGE_NAME } from '../../../scripts/n8n-runtime.mjs';
import {
	cutWhenHovered,
	journey,
	narrowPanel,
	rl,
	SIGNATURE_CREDENTIAL,
	textOf,
} from './journeys.mjs';
import { canvasNode, closeNode, openNode, openWorkflowById } from './ui.mjs';

const APPROVER_BROWSER =
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const ASKING = 'Ask the manager';
const ASKING_WHY = 'Ask for a reason';
const TO = 'manager@example.org';
const APPROVAL_OPTIONS = ['Limit Wait Time', 'Confirm on a Page', 'Append Attribution'];
const IN_FRONT = [...APPROVAL_OPTIONS, 'Reply To', 'Sender Name'];
const GROUPS = ['Platform Reports', 'Sending the Mail'];

/** Manual trigger → Ask the manager (approve or disapprove, no limit) → n8n's Wait node (10 s in the run). */
async function stage(env) {
	const credentials = (await env.session.api('GET', '/credentials?limit=250')).data ?? [];
	const signature = credentials.find((credential) => credential.name === SIGNATURE_CREDENTIAL);
	const node = (name, type, typeVersion, [x, y], parameters, extra = {}) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position: [x, y],
		parameters,
		...extra,
	});
	const trigger = 'When clicking ‘Execute workflow’';
	const workflow = {
		name: 'Human review by mail',
		nodes: [
			node(trigger, 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
			node(
				ASKING,
				`${PACKAGE_NAME}.mailDelivery`,
				1,
				[240, 0],
				{
					authentication: 'signature',
					resource: 'transactionalMail',
					operation: 'sendAndWait',
					senderMail: rl('sender@example.com'),
					sendTo: `Margaret Manager <${TO}>`,
					subject: 'Approve refund for order 1042?',
					message: 'Grace returned both items.\nRefund 120 EUR?',
					approvalOptions: { values: { approvalType: 'double' } },
				},
				{ credentials: { mailDeliverySignatureApi: { id: signature.id, name: signature.name } } },
			),
			node('Book the refund', 'n8n-nodes-base.wait', 1.1, [480, 0], {
				resume: 'timeInterval',
				amount: 10,
				unit: 'seconds',
			}),
			// Not run: its panel shows the answer page's options, labelled as n8n labels them.
			node(
				ASKING_WHY,
				`${PACKAGE_NAME}.mailDelivery`,
				1,
				[240, 240],
				{
					authentication: 'signature',
					resource: 'transactionalMail',
					operation: 'sendAndWait',
					senderMail: rl('sender@example.com'),
					sendTo: TO,
					subject: 'Why a refund?',
					message: 'Tell us why.',
					responseType: 'freeText',
					options: {
						messageButtonLabel: 'Answer',
						responseFormTitle: 'Refund',
						responseFormDescription: 'Why?',
						responseFormButtonLabel: 'Send',
						responseFormCustomCss: 'body { color: #333; }',
					},
				},
				{ credentials: { mailDeliverySignatureApi: { id: signature.id, name: signature.name } } },
			),
		],
		connections: {
			[trigger]: { main: [[{ node: ASKING, type: 'main', index: 0 }]] },
			[ASKING]: { main: [[{ node: 'Book the refund', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
	return (await env.session.api('POST', '/workflows', workflow)).id;
}

/** The builder's panel: the Options offered, a group opened, the Approval Options' labels. */
async function panel(j, page) {
	const ndv = await openNode(page, ASKING);
	await page.waitForTimeout(800);
	const select = page
		.getByPlaceholder('Add option', { exact: true })
		.filter({ visible: true })
		.last();
	await select.scrollIntoViewIfNeeded();
	await select.click();
	await page.waitForTimeout(600);
	const offered = (await page.getByRole('option').filter({ visible: true }).allInnerTexts()).map(
		(text) => text.split('\n')[0].trim(),
	);
	await j.shot('options-offered');
	j.saw('Options offered', offered.join(', '));
	await j.check(
		JSON.stringify(offered) === JSON.stringify([...IN_FRONT, ...GROUPS]),
		`the Options offer ${offered.join(', ')}, not ${[...IN_FRONT, ...GROUPS].join(', ')}`,
	);
	await page.getByRole('option').filter({ visible: true }).filter({ hasText: GROUPS[1] }).click();
	await page.waitForTimeout(800);
	const group = ndv.getByTestId('parameter-item').filter({ hasText: 'Retry Attempts' }).first();
	await group.scrollIntoViewIfNeeded();
	await j.shot('sending-the-mail-group');
	const groupText = await textOf(ndv);
	for (const label of [
		'Retry Attempts',
		'Max Wait (Seconds)',
		'Timeout (Seconds)',
		'Redo After a Crash',
	])
		await j.check(groupText.includes(label), `Sending the Mail shows no "${label}"`);
	await j.check(
		groupText.includes('The defaults suit almost every workflow'),
		'Sending the Mail does not say what it is for',
	);
	const approval = ndv.getByText('Approve Button Label').first();
	await approval.scrollIntoViewIfNeeded();
	const approvalText = await textOf(ndv);
	await j.shot('approval-options');
	for (const label of [
		'Approve Button Label',
		'Disapprove Button Label',
		'Disapprove Button Style',
	])
		await j.check(approvalText.includes(label), `Approval Options show no "${label}"`);
	const width = await narrowPanel(page, ndv);
	await noLabelCut(j, page, ndv, 'approval-panel-hovered');
	await closeNode(page);
	// n8n keeps the panel's width for the next node it opens.
	const why = await openNode(page, ASKING_WHY);
	await page.waitForTimeout(800);
	await noLabelCut(j, page, why, 'answer-page-options-hovered');
	await closeNode(page);
	return width;
}

/** Labels whole at the narrowest panel, hovered (n8n's Disapprove Button Label and Style, the answer page's). */
async function noLabelCut(j, page, ndv, shot) {
	const width = await ndv
		.getByTestId('node-parameters')
		.first()
		.evaluate((element) => element.clientWidth);
	const cut = [...(await cutWhenHovered(page, ndv))];
	await j.shot(shot);
	j.saw(`labels cut at ${width} px`, JSON.stringify(cut));
	await j.check(cut.length === 0, `labels cut in a ${width} px panel: ${JSON.stringify(cut)}`);
}

/** The approver's side: the mail's Approve link, the page, a double click, the link again twice. */
async function approve(j, env) {
	const mailbox = await env.browser.newContext({
		viewport: { width: 1200, height: 800 },
		userAgent: APPROVER_BROWSER,
	});
	const editorPage = j.page;
	try {
		const { mails } = await env.emulator.control('GET', 'mails');
		const mail = mails.filter((candidate) => candidate.email === TO).at(-1);
		const link = /href="([^"]*\/webhook-waiting\/[^"]*approved=true[^"]*)"/
			.exec(mail.html)[1]
			.replace(/&amp;/g, '&');
		const page = await mailbox.newPage();
		j.page = page;
		await page.goto(link);
		await page.getByRole('button', { name: 'Approve' }).waitFor();
		await j.shot('confirmation-page');
		await page.getByRole('button', { name: 'Approve' }).dblclick();
		await page.waitForLoadState();
		await page.waitForTimeout(1000);
		const afterDouble = await textOf(page.locator('body'));
		await j.shot('after-a-double-click');
		j.saw('page after a double click', afterDouble.slice(0, 200));
		await j.check(
			/Got it, thanks|No action required/.test(afterDouble) && !/stack|Error:/.test(afterDouble),
			`a double click on Approve shows "${afterDouble.slice(0, 300)}", not a page`,
		);
		// The run goes on for 10 s (its Wait node): n8n itself answers the link while it runs.
		await page.goto(link);
		const whileRunning = await textOf(page.locator('body'));
		await j.shot('link-again-while-the-run-goes-on');
		j.saw('the link while the run goes on', whileRunning.slice(0, 200));
		await j.check(
			/running already/.test(whileRunning),
			`the link while the run goes on shows "${whileRunning.slice(0, 300)}": n8n's 409 changed (update docs/human-review.md)`,
		);
		let afterwards = '';
		for (let tries = 0; tries < 40 && !/No action required/.test(afterwards); tries++) {
			await page.waitForTimeout(1000);
			await page.goto(link);
			afterwards = await textOf(page.locator('body'));
		}
		await j.shot('link-again-after-the-run');
		j.saw('the link after the run', afterwards.slice(0, 200));
		await j.check(/No action required/.test(afterwards), `after the run: "${afterwards}"`);
	} finally {
		j.page = editorPage;
		await mailbox.close();
	}
}

export async function t(env) {
	const id = await stage(env);
	return await journey(env, 't-human-review', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, id);
		await panel(j, page);
		await page.getByTestId('execute-workflow-button').click();
		// A waiting node shows no run status on the canvas: the mail in the emulator's log says it was sent.
		for (let tries = 0; tries < 120; tries++) {
			const { mails } = await env.emulator.control('GET', 'mails');
			if (mails.some((mail) => mail.email === TO)) break;
			await page.waitForTimeout(500);
		}
		await page.waitForTimeout(1500);
		await j.shot('the-canvas-while-it-waits');
		const ndv = await openNode(page, ASKING);
		await page.waitForTimeout(1500);
		const output = await textOf(page.getByTestId('output-panel'));
		await j.shot('the-waiting-node');
		j.saw('the waiting node', output.slice(0, 300));
		await j.check(
			new RegExp(
				`Sent to ${TO} \\(uniqueMsgID [\\w-]+\\)\\. The run waits without a time limit\\.`,
			).test(output),
			`the waiting node does not say whom the mail went to: ${output.slice(0, 300)}`,
		);
		await j.check(
			/Execution will continue once the person answers the mail\. It waits without a time limit/.test(
				output,
			) && !/or at its time limit/.test(output),
			`the waiting node speaks of a time limit there is none of: ${output.slice(0, 300)}`,
		);
		await closeNode(page).catch(() => undefined);
		void ndv;
		await approve(j, env);
		await canvasNode(page, 'Book the refund')
			.getByTestId('canvas-node-status-success')
			.waitFor({ timeout: 60_000 })
			.catch(() => undefined);
		await j.shot('the-run-went-on');
	});
}
