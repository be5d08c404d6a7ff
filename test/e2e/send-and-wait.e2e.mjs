// End-to-end, Send and Wait for Response in real n8n (line N8N_LINE), published and run by a production webhook:
// the run waits; the mail's links are read from the emulator's mail log as the recipient gets them; a bot, a link
// scanner and an altered link change nothing; a person approves, disapproves, answers in words or fills in a form;
// the time limit passes by itself (n8n's wait tracker); n8n restarts while runs wait, and they go on after.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { setupOwner, startN8n } from '../../scripts/n8n-runtime.mjs';
import { createCredential, credentialData, eventually, freePort, startStack } from './env.mjs';
import {
	askParameters,
	executionOf,
	executionsOf,
	mailLinks,
	openLink,
	outputOf,
	startAsking,
	waitingWorkflow,
} from './waiting.mjs';

const line = process.env.N8N_LINE ?? '2';
let stack;
let credential;
/** A run with a short time limit, started first: n8n's wait tracker looks for runs due once a minute. */
let limited;

before(async () => {
	stack = await startStack(line);
	credential = await createCredential(
		stack.session,
		'mailDeliverySignatureApi',
		credentialData(stack.emulator, 'mailDeliverySignatureApi'),
	);
	// The account tracks clicks unless a send says otherwise: only ef:disable-tracking keeps a link as signed.
	await stack.emulator.control('POST', 'settings', { clickTrackingByDefault: true });
	limited = await ask('time limit', {
		sendTo: 'limit@example.org',
		options: { limitWaitTime: { values: { resumeAmount: 0.05, resumeUnit: 'minutes' } } },
	});
});

after(async () => {
	await stack?.n8n.stop();
	await stack?.emulator.stop();
});

/** Publishes and starts a workflow that asks; resolves once its execution waits. */
async function ask(name, extra = {}, settings = {}) {
	const { workflow, hookPath } = waitingWorkflow({
		name,
		credential,
		parameters: askParameters(extra),
		settings,
	});
	const id = await startAsking({
		session: stack.session,
		webhookBase: stack.n8n.baseUrl,
		workflow,
		hookPath,
	});
	const waiting = await executionOf(stack.session, id, 'waiting');
	return { id, waiting };
}

const statusOf = async (id) => (await executionsOf(stack.session, id))[0].status;

test('the run waits after one mail whose buttons are n8n signed links the platform leaves untouched', async () => {
	const { id, waiting } = await ask('approve', {
		approvalOptions: { values: { approvalType: 'double' } },
	});
	const { mail, links } = await mailLinks(stack.emulator);
	assert.equal(mail.subject, 'Refund of order 1042');
	assert.equal(mail.trackedLinks, undefined);
	assert.equal(links.length, 2);
	for (const link of links) {
		const url = new URL(link);
		assert.equal(url.origin, stack.n8n.baseUrl);
		assert.match(url.pathname, new RegExp(`^/webhook-waiting/${waiting.id}/`));
		assert.match(url.searchParams.get('signature'), /^[0-9a-f]{64}$/);
	}
	assert.equal(outputOf(waiting, 'Mail Delivery')[0].recipients[0], 'ada@example.org');
	const [disapprove, approve] = links;

	// A bot or a preview service, GET or POST: an empty page, nothing recorded.
	for (const userAgent of ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', '']) {
		const bot = await openLink(approve, { method: 'POST', userAgent });
		assert.equal(bot.status, 200);
		assert.doesNotMatch(bot.text, /Got it/);
	}
	// A link scanner opening the link like a browser: the confirmation page, nothing recorded.
	const page = await openLink(approve);
	assert.equal(page.status, 200);
	assert.match(page.headers.get('content-security-policy'), /^sandbox /);
	assert.match(
		page.text,
		/<form method="POST"><button type="submit" class="primary">Approve<\/button>/,
	);
	// An altered link: n8n's signature check refuses it.
	const altered = new URL(disapprove);
	altered.searchParams.set('approved', 'true');
	assert.equal((await openLink(altered.toString(), { method: 'POST' })).status, 401);
	const unsigned = new URL(approve);
	unsigned.searchParams.delete('signature');
	assert.equal((await openLink(unsigned.toString(), { method: 'POST' })).status, 401);
	assert.equal(await statusOf(id), 'waiting');

	// The person clicks the page's button.
	const answered = await openLink(approve, { method: 'POST' });
	assert.equal(answered.status, 200);
	assert.match(answered.text, /Got it, thanks/);
	const done = await executionOf(stack.session, id, 'success');
	const [output] = outputOf(done, 'After');
	assert.equal(output.data.approved, true);
	assert.match(output.data.respondedAt, /^\d{4}-\d\d-\d\dT/);
	// The same link again, or the other one: n8n says no action is required, nothing runs again.
	for (const link of links) {
		const again = await openLink(link, { method: 'POST' });
		assert.doesNotMatch(again.text, /Got it/);
	}
	assert.equal((await executionsOf(stack.session, id)).length, 1);
});

test('Disapprove, with Confirm on a Page off: opening the link answers, as n8n’s own nodes', async () => {
	const { id } = await ask('disapprove', {
		approvalOptions: { values: { approvalType: 'double', disapproveLabel: 'Refuse' } },
		options: { confirmOnPage: false },
	});
	const { mail, links } = await mailLinks(stack.emulator);
	assert.match(mail.html, />Refuse<\/a>/);
	const answered = await openLink(links[0]);
	assert.match(answered.text, /Got it, thanks/);
	const done = await executionOf(stack.session, id, 'success');
	assert.equal(outputOf(done, 'After')[0].data.approved, false);
});

test('Free Text: the link opens n8n’s own form page; the person’s answer comes back as data.text', async () => {
	const { id } = await ask('free text', { responseType: 'freeText' });
	const { links } = await mailLinks(stack.emulator);
	const page = await openLink(links[0]);
	assert.equal(page.status, 200);
	assert.match(page.headers.get('content-security-policy') ?? '', /sandbox/);
	assert.match(page.text, /id='n8n-form'/);
	assert.match(page.text, /Refund 120 EUR to Grace\?/);
	const form = new FormData();
	form.append('field-0', 'Only 100 EUR, please');
	const answered = await openLink(links[0], { method: 'POST', body: form });
	assert.equal(answered.status, 200);
	const done = await executionOf(stack.session, id, 'success');
	assert.equal(outputOf(done, 'After')[0].data.text, 'Only 100 EUR, please');
});

test('Custom Form: the form’s answers come back typed, under their labels', async () => {
	const { id } = await ask('custom form', {
		responseType: 'customForm',
		defineForm: 'json',
		jsonOutput: JSON.stringify([
			{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
			{
				fieldLabel: 'Reasons',
				fieldType: 'checkbox',
				fieldOptions: { values: [{ option: 'Damaged' }, { option: 'Late' }] },
			},
		]),
	});
	const { links } = await mailLinks(stack.emulator);
	const page = await openLink(links[0]);
	assert.match(page.text, /Amount/);
	const form = new FormData();
	form.append('field-0', '120');
	form.append('field-1', JSON.stringify(['Late']));
	await openLink(links[0], { method: 'POST', body: form });
	const done = await executionOf(stack.session, id, 'success');
	const { data } = outputOf(done, 'After')[0];
	assert.deepEqual([data.Amount, data.Reasons], [120, ['Late']]);
});

test('after the time limit the run goes on by itself with the input items, as n8n’s own nodes', async () => {
	const done = await executionOf(stack.session, limited.id, 'success', 120_000);
	const [output] = outputOf(done, 'After');
	assert.equal(output.data, undefined);
	assert.equal(output.body.order, 1042);
});

test('n8n restarts while runs wait (n8n 2.x with its quickjs expression engine): a run whose limit passed meanwhile goes on, the other still takes its answer', async () => {
	const open = await ask('across a restart', { sendTo: 'restart@example.org' });
	const { links } = await mailLinks(stack.emulator, 'restart@example.org');
	const due = await ask('due during the restart', {
		sendTo: 'due@example.org',
		options: { limitWaitTime: { values: { resumeAmount: 0.05, resumeUnit: 'minutes' } } },
	});
	const port = new URL(stack.n8n.baseUrl).port;
	await stack.n8n.stop();
	await new Promise((resolve) => setTimeout(resolve, 4000));
	stack.n8n = await startN8n({
		line,
		userFolder: stack.userFolder,
		port: Number(port),
		brokerPort: await freePort(),
		// On n8n 2.x, back with its other isolated expression engine: the answer is read under vm and quickjs.
		extraEnv: line === '2' ? { N8N_EXPRESSION_ENGINE: 'quickjs' } : {},
	});
	stack.session = await setupOwner(stack.n8n.baseUrl);
	const resumed = await executionOf(stack.session, due.id, 'success', 60_000);
	assert.equal(outputOf(resumed, 'After')[0].data, undefined);
	assert.equal(await statusOf(open.id), 'waiting');
	const answered = await eventually(async () => {
		const answer = await openLink(links[0], { method: 'POST' });
		return /Got it/.test(answer.text) ? answer : false;
	}, 'the waiting run to take its answer after the restart');
	assert.equal(answered.status, 200);
	const done = await executionOf(stack.session, open.id, 'success');
	assert.equal(outputOf(done, 'After')[0].data.approved, true);
});

test('Sandbox Mode: the platform checks the request, nothing is sent, the run does not wait', async () => {
	const { workflow, hookPath } = waitingWorkflow({
		name: 'sandbox',
		credential,
		parameters: askParameters({ sendTo: 'sandbox@example.org', sandboxMode: true }),
	});
	const id = await startAsking({
		session: stack.session,
		webhookBase: stack.n8n.baseUrl,
		workflow,
		hookPath,
	});
	const done = await executionOf(stack.session, id, 'success');
	assert.equal(outputOf(done, 'After')[0].sandboxMode, true);
	const { mails } = await stack.emulator.control('GET', 'mails');
	assert.equal(mails.filter((mail) => mail.email === 'sandbox@example.org').length, 0);
});
