// The browser suite's journeys. Each takes the suite's environment ({ browser, baseUrl, emulator, session,
// state }) and walks the editor as a person does; the REST API only sets the stage.
import { randomUUID } from 'node:crypto';

import { PACKAGE_NAME } from '../../../scripts/n8n-runtime.mjs';
import {
	addNode, branchTabs, canvasNode, chooseOption, closeNode, closeToasts, drag, edgeCounts, executeStep, inputField, Journey, nodeError, openBranch,
	openNode, openWorkflowById, openWorkflowFromList, outputLabels, readOutput, signIn, toasts, waitForRun,
} from './ui.mjs';

const ACTION = `${PACKAGE_NAME}.mailDelivery`;
const SIGNATURE_CREDENTIAL = 'Mail Delivery (signature, emulator)';
const KINDS = ['Delivered', 'Bounced', 'Dropped', 'Opened', 'Clicked', 'Unsubscribed', 'SpamReport', 'TaskStatus', 'Other'];
const PEOPLE = [
	{ name: 'Ada Lovelace', email: 'ada@example.org', firstName: 'Ada', orderId: 'A-1001' },
	{ name: 'Grace Hopper', email: 'grace@example.org', firstName: 'Grace', orderId: 'A-1002' },
	{ name: 'Linus Torvalds', email: 'linus@example.org', firstName: 'Linus', orderId: 'A-1003' },
	{ name: 'Katherine Johnson', email: 'katherine@example.org', firstName: 'Katherine', orderId: 'A-1004' },
];
const codeReturning = (people) => `return ${JSON.stringify(people.map((json) => ({ json })), null, '\t')};`;

/** Runs a journey in its own context; signs in through the page when journey a left no session behind. */
async function journey(env, name, walk, { signInThroughPage = false } = {}) {
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
		j.problems.push(`the journey stopped: ${error.message.split('\n')[0]} (see ${file})`);
	} finally {
		await j.close();
	}
	j.report();
	return j;
}

/** Clicks the canvas's Execute workflow button and waits until every node of `nodes` shows a run status. */
async function executeWorkflow(page, nodes) {
	await page.getByTestId('execute-workflow-button').click();
	for (const name of nodes) {
		await canvasNode(page, name).locator('[data-test-id^="canvas-node-status-"]').first().waitFor({ timeout: 60_000 });
	}
	await page.waitForTimeout(500);
}

export async function a(env) {
	return await journey(env, 'a-examples', async (j, page) => {
		await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: combined transactional send');
		await executeWorkflow(page, ['Send welcome mail']);
		await j.shot('send-executed');
		await openNode(page, 'Send welcome mail');
		let output = await readOutput(page);
		await j.shot('send-output');
		j.saw('send output', output.countText);
		await j.check(output.count === 6, `the send node's output shows ${output.countText || 'nothing'}, expected 6 items`);
		await j.check(output.items?.every((item) => item.success === true), `not every item of the send node says success true: ${output.text.slice(0, 300)}`);
		await closeNode(page);

		await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: campaign to a list');
		await executeWorkflow(page, ['Create campaign', 'Campaign tasks']);
		await j.shot('campaign-executed');
		await openNode(page, 'Create campaign');
		output = await readOutput(page);
		await j.shot('campaign-create-output');
		j.saw('Create campaign output', output.countText);
		await j.check(output.count === 1 && output.items?.[0]?.success === true, `Create campaign shows ${output.countText || 'nothing'} (${output.text.slice(0, 200)}), expected 1 item with success true`);
		await closeNode(page);
		await openNode(page, 'Campaign tasks');
		output = await readOutput(page);
		await j.shot('campaign-tasks-output');
		j.saw('Campaign tasks output', output.countText);
		await j.check(output.count >= 1, `Campaign tasks shows ${output.countText || 'no items'}, expected at least one task`);
		await closeNode(page);

		// The send above made the emulator push Delivered, Bounced and Dropped events to the published trigger.
		await openWorkflowFromList(page, env.baseUrl, 'Mail Delivery: events by kind');
		const labels = await outputLabels(page, 'Mail Delivery Trigger');
		await j.shot('events-canvas');
		await j.check(KINDS.every((kind) => labels.includes(kind)), `the trigger's outputs on the canvas are labelled ${JSON.stringify(labels)}, expected ${KINDS.join(', ')}`);
		await page.getByTestId('radio-button-executions').click();
		const list = page.getByTestId('current-executions-list').locator('[data-test-id^="execution-details-"]');
		await list.first().waitFor({ timeout: 30_000 });
		const totals = {};
		const shown = Math.min(await list.count(), 8);
		for (let index = 0; index < shown; index++) {
			await list.nth(index).click();
			await page.locator('[data-test-id="canvas-node"][data-node-name="Mail Delivery Trigger"]').waitFor();
			await page.waitForTimeout(500);
			const executionLabels = await outputLabels(page, 'Mail Delivery Trigger');
			if (index === 0) {
				await j.shot('execution');
				await j.check(KINDS.every((kind) => executionLabels.includes(kind)), `the execution's trigger outputs are labelled ${JSON.stringify(executionLabels)}, expected ${KINDS.join(', ')}`);
			}
			for (const [target, count] of Object.entries(await edgeCounts(page, 'Mail Delivery Trigger'))) totals[target] = (totals[target] ?? 0) + count;
		}
		j.saw(`items per branch over ${shown} executions`, JSON.stringify(totals));
		for (const kind of ['Delivered', 'Bounced', 'Dropped']) {
			await j.check((totals[`On ${kind}`] ?? 0) >= 1, `no execution of "events by kind" shows an item on its ${kind} branch (counts ${JSON.stringify(totals)})`);
		}
	}, { signInThroughPage: true });
}
