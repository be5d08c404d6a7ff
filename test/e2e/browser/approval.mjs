// Journey n: a person in the loop by mail, as a workflow builder and an approver meet it. The builder finds the
// operation by searching "approval", fills the panel and runs the workflow, which waits; the approver (another
// browser, with a desktop browser's user agent) opens the mail from the emulator's mail log, clicks Approve,
// confirms on the page; the builder sees the execution go on in the editor with data.approved.
import {
	addManualTrigger,
	chooseCredential,
	journey,
	pickFromList,
	shownCredential,
	SIGNATURE_CREDENTIAL,
} from './journeys.mjs';
import { canvasNode, closeNode, openNode, readOutput } from './ui.mjs';

const APPROVER_BROWSER =
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const SUBJECT = 'Refund of order 1042';
const NODE_NAME = 'Send mail and wait for response';

const textOf = async (locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim();

/** The node creator searched for `term`: its entries, and Mail Delivery's actions once opened. */
async function findByApproval(j, page) {
	await page.getByTestId('node-creator-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill('approval');
	const creator = page.getByTestId('node-creator');
	const entry = creator
		.getByTestId('item-iterator-item')
		.filter({ has: page.getByText('Mail Delivery', { exact: true }) })
		.first();
	const found = await entry.waitFor({ timeout: 10_000 }).then(
		() => true,
		() => false,
	);
	await j.shot('search-approval');
	j.saw('search "approval"', (await textOf(creator)).slice(0, 300));
	if (!found)
		throw new Error('searching "approval" in the node creator does not list Mail Delivery');
	await entry.click();
	await page.waitForTimeout(1000);
	await j.shot('mail-delivery-actions');
	const action = creator.getByText('Send mail and wait for response', { exact: true }).first();
	await action.click();
	await page.getByTestId('ndv').waitFor();
	return page.getByTestId('ndv');
}

async function fill(ndv, parameter, value) {
	await ndv
		.getByTestId(`parameter-input-${parameter}`)
		.locator('input, textarea')
		.first()
		.fill(value);
	await ndv.page().waitForTimeout(700);
}

/** The approver's side: the mail log, the mail, Approve, the confirmation page, its button. */
async function approveFromMailLog(j, env) {
	const mailbox = await env.browser.newContext({
		viewport: { width: 1200, height: 900 },
		userAgent: APPROVER_BROWSER,
	});
	const editorPage = j.page;
	try {
		const log = await mailbox.newPage();
		j.page = log;
		await log.goto(`${env.emulator.url}/mails`);
		await log.getByRole('link', { name: SUBJECT }).first().click();
		await log.getByText('Refund 120 EUR to Grace?').waitFor();
		await j.shot('the-mail-in-the-mail-log');
		const approveLink = log.getByRole('link', { name: 'Approve', exact: true });
		const href = await approveLink.getAttribute('href');
		j.saw(
			'Approve links to',
			href.replace(/token=[^&]+|signature=[^&]+/g, (m) => `${m.slice(0, 12)}…`),
		);
		await j.check(
			href.startsWith(`${env.baseUrl}/webhook-waiting/`),
			`the mail's Approve link is ${href}, not n8n's waiting webhook: the platform rewrote it?`,
		);
		const [confirm] = await Promise.all([mailbox.waitForEvent('page'), approveLink.click()]);
		j.page = confirm;
		await confirm.getByRole('button', { name: 'Approve' }).waitFor();
		await j.shot('confirmation-page');
		j.saw('confirmation page', await textOf(confirm.locator('body')));
		await confirm.getByRole('button', { name: 'Approve' }).click();
		await confirm.getByText('Got it, thanks').waitFor();
		await j.shot('answer-recorded');
	} finally {
		j.page = editorPage;
		await mailbox.close();
	}
}

export async function n(env) {
	return await journey(env, 'n-approval-by-mail', async (j, page) => {
		await page.goto(`${env.baseUrl}/workflow/new`);
		await page.getByTestId('canvas-wrapper').waitFor();
		await addManualTrigger(page);
		const ndv = await findByApproval(j, page);
		await page.waitForTimeout(1000);
		const operation = await ndv
			.getByTestId('parameter-input-operation')
			.locator('input')
			.first()
			.inputValue();
		j.saw('operation', operation);
		await j.check(
			/Send and Wait for Response/.test(operation),
			`the action opened the operation "${operation}"`,
		);
		if ((await shownCredential(page)) !== SIGNATURE_CREDENTIAL)
			await chooseCredential(page, SIGNATURE_CREDENTIAL);
		await pickFromList(j, page, 'senderMail', 'sender@example.com');
		await fill(ndv, 'sendTo', 'Ada <ada@example.org>');
		await fill(ndv, 'subject', SUBJECT);
		await fill(ndv, 'message', 'Refund 120 EUR to Grace? She returned both items.');
		await j.shot('panel-filled');
		const panel = await textOf(ndv);
		for (const label of ['Response Type', 'Approval Options', 'Sandbox Mode'])
			await j.check(panel.includes(label), `the panel shows no "${label}": ${panel.slice(0, 400)}`);
		await closeNode(page);

		const { mails: before } = await env.emulator.control('GET', 'mails');
		await page.getByTestId('execute-workflow-button').click();
		const mailed = await (async () => {
			for (let tries = 0; tries < 60; tries++) {
				const { mails } = await env.emulator.control('GET', 'mails');
				if (mails.length > before.length) return mails.at(-1);
				await page.waitForTimeout(500);
			}
			return undefined;
		})();
		await page.waitForTimeout(1500);
		await j.shot('workflow-waiting');
		if (!mailed) throw new Error('Execute workflow sent no mail');
		j.saw('mail sent', `${mailed.email} "${mailed.subject}"`);
		const canvasText = await textOf(page.getByTestId('canvas-wrapper'));
		j.saw('canvas while waiting', canvasText.slice(0, 200));

		await approveFromMailLog(j, env);

		// n8n names a node added through an action after the action.
		await canvasNode(page, NODE_NAME)
			.getByTestId('canvas-node-status-success')
			.waitFor({ timeout: 60_000 })
			.catch(() => undefined);
		await j.shot('execution-went-on');
		await openNode(page, NODE_NAME);
		const output = await readOutput(page);
		await j.shot('output-approved');
		j.saw('output after the answer', output.text.slice(0, 200));
		await j.check(
			/approved/.test(output.text) && /true/.test(output.text) && /respondedAt/.test(output.text),
			`the node's output after Approve shows no data.approved true: ${output.text.slice(0, 300)}`,
		);
	});
}
