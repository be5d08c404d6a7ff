// End-to-end, Send and Wait for Response in real n8n (line N8N_LINE), published and run by a production webhook:
// the run waits; the mail's links are read from the emulator's mail log as the recipient gets them; a bot, a link
// scanner and an altered link change nothing; a person approves, disapproves, answers in words or fills in a form;
// the time limit passes by itself (n8n's wait tracker); n8n restarts while runs wait, and they go on after.
// Whoever may only read executions (an API key with execution:read) finds n8n's resume token and the wait in the
// execution, and n8n takes that token in place of a link's signature: no answer made from what they read is
// recorded, and n8n's log at debug level, the execution list, static data and an error workflow's input hold no
// link. Every name n8n runs finds its wait; a second answer at once gets a page.
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { setupOwner, startN8n } from '../../scripts/n8n-runtime.mjs';
import { activate, createCredential, credentialData, eventually, startStack } from './env.mjs';
import {
	askParameters,
	executionOf,
	executionReader,
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
/** n8n's log, at debug level (the file n8n writes beside its console). */
const debugLog = path.join(mkdtempSync(path.join(tmpdir(), 'mail-delivery-log-')), 'n8n.log');
/** A run with a short time limit, started first: n8n's wait tracker looks for runs due once a minute. */
let limited;
/** The clicks racing a 1 minute limit (raceTheLimit), started with the suite. */
let racing;

before(async () => {
	stack = await startStack(line, {
		extraEnv: {
			N8N_LOG_LEVEL: 'debug',
			N8N_LOG_OUTPUT: 'console,file',
			N8N_LOG_FILE_LOCATION: debugLog,
		},
	});
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
	racing = raceTheLimit();
	racing.catch(() => {}); // its test reports a failure
});

after(async () => {
	await stack?.n8n.stop();
	await stack?.emulator.stop();
});

/** Publishes and starts a workflow that asks; resolves once its execution waits. */
async function ask(name, extra = {}, settings = {}, workflowOptions = {}) {
	const { workflow, hookPath } = waitingWorkflow({
		name,
		credential,
		parameters: askParameters(extra),
		settings,
		...workflowOptions,
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

test('after the time limit the run goes on by itself with the input items, saying it timed out', async () => {
	const done = await executionOf(stack.session, limited.id, 'success', 120_000);
	const [output] = outputOf(done, 'After');
	assert.equal(output.data, undefined);
	assert.equal(output.body.order, 1042);
	// The next node can branch on it (issue 54.4), and read when the time to answer ended.
	assert.equal(output.timedOut, true);
	assert.equal(output.timeLimit, outputOf(limited.waiting, 'Mail Delivery')[0].waitTill);
});

/** The time of day of `at` in Berlin, as a page in a workflow of that time zone says it. */
const berlinTime = (at) =>
	new Intl.DateTimeFormat('en-GB', {
		timeZone: 'Europe/Berlin',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
		hourCycle: 'h23',
	}).format(at);

/**
 * Five runs with a 1 minute limit, each answered by a click at the limit plus its offset: started with the suite,
 * so that the minute passes while the tests before it run.
 */
async function raceTheLimit() {
	const offsets = [-20, 0, 40, 100, 2000];
	const runs = [];
	for (const [i, offset] of offsets.entries()) {
		const email = `race${i}@example.org`;
		const { id, waiting } = await ask(
			`race ${offset} ms`,
			{
				sendTo: email,
				options: { limitWaitTime: { values: { resumeAmount: 1, resumeUnit: 'minutes' } } },
			},
			{},
			{ workflowSettings: { timezone: 'Europe/Berlin' } },
		);
		const { links } = await mailLinks(stack.emulator, email);
		const limit = Date.parse(outputOf(waiting, 'Mail Delivery')[0].waitTill);
		runs.push({ id, offset, approve: links[0], limit });
	}
	// Each person clicks the confirmation page's Approve at the limit plus the offset (n8n's wait tracker sets
	// its timer to the limit for a wait under 70 s away).
	return await Promise.all(
		runs.map(async (run) => {
			await new Promise((resolve) =>
				setTimeout(resolve, Math.max(0, run.limit + run.offset - Date.now())),
			);
			return { ...run, answer: await openLink(run.approve, { method: 'POST' }) };
		}),
	);
}

test('answers racing a 1 minute limit, from 20 ms before to 2 s after it: "Got it" only when the run goes on with the answer, otherwise a page saying when the time to answer ended (issue 54.4)', async () => {
	const clicked = await racing;
	for (const run of clicked) {
		const done = await executionOf(stack.session, run.id, 'success', 180_000);
		const [output] = outputOf(done, 'After');
		const told = `${run.offset} ms: HTTP ${run.answer.status} ${run.answer.text.slice(0, 300)}`;
		assert.match(run.answer.headers.get('content-type') ?? '', /text\/html/, told);
		if (/Got it/.test(run.answer.text)) {
			assert.equal(run.answer.status, 200, told);
			assert.equal(output.data?.approved, true, told);
		} else {
			assert.match(run.answer.text, /The time to answer has ended/, told);
			assert.match(run.answer.text, new RegExp(berlinTime(run.limit)), told);
			assert.equal(output.data, undefined, told);
			assert.equal(output.timedOut, true, told);
		}
	}
	// 2 s late is never in time.
	assert.match(clicked.at(-1).answer.text, /The time to answer has ended/);
});

const DOUBLE = { approvalOptions: { values: { approvalType: 'double' } } };

/**
 * What a reader takes from a value: every string in it and its parts between dots (as keys), and what looks like
 * a wait's id (a value named id, or a part of a dotted value).
 */
function readerGuesses(value, guesses = { keys: new Set(), ids: new Set() }, name = '') {
	if (typeof value === 'string') {
		guesses.keys.add(value);
		const parts = value.split('.');
		if (/id$/i.test(name)) guesses.ids.add(value);
		if (parts.length > 1)
			for (const part of parts) {
				guesses.keys.add(part);
				guesses.ids.add(part);
			}
	} else if (value && typeof value === 'object')
		for (const [key, inner] of Object.entries(value)) readerGuesses(inner, guesses, key);
	return guesses;
}

const create = async (session, workflow) => (await session.api('POST', '/workflows', workflow)).id;

/** The tokens and n8n signatures of every mail's links so far: what only a mail's reader holds. */
async function everyLinkSecret() {
	const { mails } = await stack.emulator.control('GET', 'mails');
	return mails.flatMap((mail) =>
		[...mail.html.matchAll(/href="([^"]*\/webhook-waiting\/[^"]*)"/g)].flatMap((match) => {
			const url = new URL(match[1].replace(/&amp;/g, '&'));
			return [url.searchParams.get('token'), url.searchParams.get('signature')];
		}),
	);
}

test('an API key that may only read executions reads n8n’s resume token and the wait, and no answer made from them is recorded', async () => {
	const reader = await executionReader(stack.session, stack.n8n.baseUrl);
	// n8n 2.x holds a key to its scopes; n8n 1.x only with an enterprise licence (the key then reads everything).
	if (line === '2') assert.equal((await reader.get('/workflows')).status, 403);
	const { id, waiting } = await ask('read by a reader', {
		sendTo: 'reader@example.org',
		...DOUBLE,
	});
	const { links } = await mailLinks(stack.emulator, 'reader@example.org');
	const read = await reader.get(`/executions/${waiting.id}?includeData=true`);
	assert.equal(read.status, 200);
	const listed = await reader.get(`/executions?workflowId=${id}&includeData=true`);
	const { staticData } = await stack.session.api('GET', `/workflows/${id}`);
	const readable = read.text + listed.text + JSON.stringify(staticData ?? {});
	for (const secret of [...(await everyLinkSecret()), stack.emulator.account.apiSecret])
		assert.ok(!readable.includes(secret), `a reader reads ${secret}`);

	const { data, workflowData } = read.json;
	const nodeId = workflowData.nodes.find((node) => node.name === 'Mail Delivery').id;
	// n8n takes the execution's resume token in place of a signature (the node's id after a slash, n8n 2.x);
	// n8n 1.x wants a signature once the node asked for one: the reader then stands with n8n's signature of
	// the link they would need, which n8n's check refuses anyway.
	const viaResumeToken = (query) =>
		`${stack.n8n.baseUrl}/webhook-waiting/${waiting.id}?${new URLSearchParams({
			...query,
			signature: `${data.resumeToken}/${nodeId}`,
		})}`;
	const guesses = readerGuesses({
		context: data.executionData.contextData,
		resumeToken: data.resumeToken,
	});
	const keys = [...guesses.keys].filter((value) => value.length >= 8);
	assert.ok(guesses.ids.size > 0);
	for (const key of keys)
		for (const wait of guesses.ids)
			for (const message of [`${wait}:false`, [waiting.id, nodeId, wait, 'false'].join('/')]) {
				const token = createHmac('sha256', key).update(message).digest('base64url');
				const answer = await openLink(viaResumeToken({ approved: 'false', wait, token }), {
					method: 'POST',
				});
				assert.ok([401, 410].includes(answer.status), `${answer.status} ${answer.text}`);
			}
	assert.equal(await statusOf(id), 'waiting');
	if (!data.resumeToken) return;
	// The same route with the wait and token of the mail's Disapprove link: recorded. Only the mail's token answers.
	const disapprove = new URL(links[0]).searchParams;
	const answered = await openLink(
		viaResumeToken({
			approved: 'false',
			wait: disapprove.get('wait'),
			token: disapprove.get('token'),
		}),
		{ method: 'POST' },
	);
	assert.match(answered.text, /Got it/);
	const done = await executionOf(stack.session, id, 'success');
	assert.equal(outputOf(done, 'After')[0].data.approved, false);
});

test('n8n’s log at debug level holds no token or signature of a link, and an error workflow’s input none either', async () => {
	// n8n 2.x runs only a published error workflow; n8n 1.x any, and publishes none without a trigger.
	const errorWorkflowId = await (line === '2' ? activate : create)(stack.session, {
		name: 'errors',
		nodes: [
			{
				id: randomUUID(),
				name: 'Error Trigger',
				type: 'n8n-nodes-base.errorTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	});
	const { id } = await ask(
		'fails after the answer',
		{ sendTo: 'fails@example.org' },
		{},
		{
			after: {
				type: 'n8n-nodes-base.stopAndError',
				typeVersion: 1,
				parameters: { errorMessage: 'after the answer' },
			},
			workflowSettings: { errorWorkflow: errorWorkflowId },
		},
	);
	const { links } = await mailLinks(stack.emulator, 'fails@example.org');
	assert.match((await openLink(links[0], { method: 'POST' })).text, /Got it/);
	await executionOf(stack.session, id, 'error');
	const input = await executionOf(stack.session, errorWorkflowId, 'success');
	const secrets = [...(await everyLinkSecret()), stack.emulator.account.apiSecret];
	const log = await eventually(() => {
		const text = readFileSync(debugLog, 'utf8');
		return /Received waiting-webhook/.test(text) && text;
	}, 'n8n to log the answer at debug level');
	for (const secret of secrets) {
		assert.ok(!log.includes(secret), `n8n's log holds ${secret}`);
		assert.ok(
			!JSON.stringify(input).includes(secret),
			`the error workflow's input holds ${secret}`,
		);
	}
});

for (const nodeName of ['Ask }} me', 'constructor', '{{ $json.order }}', 'Ask "her" \\ `now`']) {
	test(`a node named ${JSON.stringify(nodeName)}: the person’s answer is recorded`, async () => {
		const email = `${randomUUID().slice(0, 8)}@example.org`;
		const { id } = await ask(`named ${nodeName}`, { sendTo: email }, {}, { nodeName });
		const { links } = await mailLinks(stack.emulator, email);
		assert.match((await openLink(links[0])).text, /<form method="POST">/);
		assert.match((await openLink(links[0], { method: 'POST' })).text, /Got it/);
		const done = await executionOf(stack.session, id, 'success');
		assert.equal(outputOf(done, 'After')[0].data.approved, true);
	});
}

test('asked twice in a loop with Response Type and Message from $runIndex: the second mail’s form link opens its form and records its text', async () => {
	const email = 'loop@example.org';
	const { workflow, hookPath } = waitingWorkflow({
		name: 'asked twice',
		credential,
		parameters: askParameters({
			sendTo: email,
			// The answer is the second run's input: the subject reads nothing from it.
			subject: 'Refund of order 1042',
			responseType: '={{ $runIndex === 0 ? "approval" : "freeText" }}',
			message: '={{ "Question " + ($runIndex + 1) }}',
		}),
		// n8n's IF node (v1) sends the first answer back to the node once, then on.
		after: {
			type: 'n8n-nodes-base.if',
			typeVersion: 1,
			parameters: {
				conditions: { number: [{ value1: '={{ $runIndex }}', operation: 'equal', value2: 0 }] },
			},
		},
	});
	workflow.nodes.push({
		id: randomUUID(),
		name: 'Done',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [900, 0],
		parameters: {},
	});
	workflow.connections.After = {
		main: [
			[{ node: 'Mail Delivery', type: 'main', index: 0 }],
			[{ node: 'Done', type: 'main', index: 0 }],
		],
	};
	const id = await startAsking({
		session: stack.session,
		webhookBase: stack.n8n.baseUrl,
		workflow,
		hookPath,
	});
	await executionOf(stack.session, id, 'waiting');
	const first = await mailLinks(stack.emulator, email);
	assert.match((await openLink(first.links[0])).text, /Question 1/);
	assert.match((await openLink(first.links[0], { method: 'POST' })).text, /Got it/);
	const second = await eventually(async () => {
		const { mails } = await stack.emulator.control('GET', 'mails');
		return (
			mails.filter((mail) => mail.email === email).length === 2 && mailLinks(stack.emulator, email)
		);
	}, 'the second mail');
	// The mail goes out before n8n saves the run as waiting again: until then n8n itself answers 409 "running".
	await executionOf(stack.session, id, 'waiting');
	const page = await openLink(second.links[0]);
	assert.equal(page.status, 200, page.text);
	assert.match(page.text, /id='n8n-form'/);
	assert.match(page.text, /Question 2/);
	const form = new FormData();
	form.append('field-0', 'Only 100 EUR');
	assert.equal((await openLink(second.links[0], { method: 'POST', body: form })).status, 200);
	const done = await executionOf(stack.session, id, 'success');
	assert.equal(outputOf(done, 'Done')[0].data.text, 'Only 100 EUR');
});

test('ten answers at once, five of each: one resume, told "Got it", the others a page; while the run goes on, n8n answers 409 itself', async () => {
	const { id } = await ask(
		'ten at once',
		{ sendTo: 'ten@example.org', ...DOUBLE },
		{},
		{
			// n8n's Wait node waits in the run for a few seconds: the resumed run is still running meanwhile.
			after: {
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				parameters: { resume: 'timeInterval', amount: 6, unit: 'seconds' },
			},
		},
	);
	const { links } = await mailLinks(stack.emulator, 'ten@example.org');
	const answers = await Promise.all(
		Array.from({ length: 10 }, (_, i) => openLink(links[i % 2], { method: 'POST' })),
	);
	for (const answer of answers) {
		assert.notEqual(answer.status, 500, answer.text);
		if (answer.status !== 409 || !/running already/.test(answer.text))
			assert.match(answer.headers.get('content-type'), /text\/html/);
	}
	const running = await openLink(links[1]);
	assert.equal(running.status, 409);
	assert.match(running.text, /running already/);
	const done = await executionOf(stack.session, id, 'success', 60_000);
	const approved = outputOf(done, 'After')[0].data.approved;
	const told = answers
		.map((answer, i) => (/Got it/.test(answer.text) ? i % 2 === 1 : undefined))
		.filter((value) => value !== undefined);
	assert.ok(told.length >= 1 && told.every((value) => value === approved), JSON.stringify(told));
	assert.equal((await executionsOf(stack.session, id)).length, 1);
	assert.doesNotMatch((await openLink(links[0], { method: 'POST' })).text, /Got it/);
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
		editor: false,
		line,
		userFolder: stack.userFolder,
		port: Number(port),
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
