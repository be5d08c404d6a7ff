/**
 * Transactional Mail → Send and Wait for Response through n8n's engine, the waiting execution kept and resumed
 * as n8n 2.41 does (test/harness/n8n/waiting.cts): one message through the platform, its links read from the mail as
 * the recipient gets it, a person's answers (approve, disapprove, free text, a custom form), what never answers
 * for the person (a bot, a preview service, a link scanner opening the link, a forged or altered link, a link of
 * another wait of the same node), the time limit, Sandbox Mode, and bad input refused before any request.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { TX } from '../harness/fixtures.cts';
import {
	askParameters,
	BROWSER,
	DOUBLE_APPROVAL,
	linksOf,
	loopOnceNode,
	registerNodeType,
	resign,
	runToWait,
	type WaitingRun,
} from '../harness/n8n.cts';

const env = useEmulator({ messages: 'en' });

const ask = askParameters;
const double = DOUBLE_APPROVAL;

const sends = () => env.view().requests.filter((request) => request.path === TX);
const lastMail = () => env.view().mails.at(-1)!;
const after = (run: WaitingRun) => run.last.output('After').map((item) => item.json);
/** The mail's links, and the Approve one (the last button). */
const links = () => linksOf(lastMail().html!).filter((link) => link.includes('/webhook-waiting/'));

beforeEach(async () => {
	// The account tracks clicks unless a send says otherwise: only ef:disable-tracking keeps a link as written.
	await env.control('POST', 'settings', { clickTrackingByDefault: true });
});

describe('approval', () => {
	test('one message goes out; the run waits; its buttons are n8n signed links the platform leaves untouched', async () => {
		const run = await runToWait(ask(double), env.credentials(), { items: [{ json: { id: 1 } }] });
		expect(run.first.error()).toBeUndefined();
		expect(run.waiting).toBe(true);
		expect(sends()).toHaveLength(1);
		const body = sends()[0].body as IDataObject;
		expect(body).toMatchObject({
			senderMail: 'sender@example.com',
			subject: 'Refund of order 1042',
			trackOpen: 0,
			messageVersions: [{ to: [{ email: 'ada@example.org', name: 'Ada' }], cc: [], bcc: [] }],
		});
		expect(body.trackClick).toBeUndefined();
		const mail = lastMail();
		expect(mail).toMatchObject({ email: 'ada@example.org', subject: 'Refund of order 1042' });
		// Every link of the mail (the buttons, n8n's attribution) is marked ef:disable-tracking.
		expect(mail.trackedLinks).toBeUndefined();
		const [disapprove, approve] = links();
		for (const link of [disapprove, approve]) {
			expect(link).toMatch(
				new RegExp(`^http://localhost:5678/webhook-waiting/${run.executionId}/node-\\d+\\?`),
			);
			expect(new URL(link).searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
		}
		expect(new URL(approve).searchParams.get('approved')).toBe('true');
		expect(new URL(disapprove).searchParams.get('approved')).toBe('false');
		expect(mail.html).toContain('Refund 120 EUR to Grace?<br>She returned both items.');
		expect(mail.html).toMatch(/>Decline<\/a>.*>Approve<\/a>/s);
		// What the editor shows while the run waits: the message sent, and until when the run waits.
		expect(run.first.output('Mail Delivery')[0].json).toMatchObject({
			success: true,
			responseType: 'approval',
			recipients: ['ada@example.org'],
			senderMail: 'sender@example.com',
			uniqueMsgID: body.uniqueMsgID,
			waitTill: null,
		});
		// The editor shows a waiting node's hints, not its output: the same, in words.
		expect(run.first.run.data.resultData.runData['Mail Delivery'][0].hints).toEqual([
			{
				message: `Sent to ada@example.org (uniqueMsgID ${String(body.uniqueMsgID)}). The run waits without a time limit.`,
				location: 'outputPane',
			},
		]);
	});

	test('Approve opens a page; its button (a POST) records the answer and the run goes on with data.approved', async () => {
		const run = await runToWait(ask(double), env.credentials());
		const approve = links()[1];
		const page = await run.open(approve);
		expect(page.status).toBe(200);
		expect(page.headers['content-security-policy']).toMatch(/^sandbox /);
		expect(page.body).toContain('<form method="POST">');
		expect(page.body).toMatch(/<button type="submit" class="primary">Approve<\/button>/);
		expect(page.body).toContain('Refund of order 1042');
		expect(run.waiting).toBe(true);
		const answered = await run.open(approve, { method: 'POST' });
		expect(answered.status).toBe(200);
		expect(answered.body).toContain('Got it, thanks');
		expect(run.waiting).toBe(false);
		const [output] = after(run);
		expect(output).toEqual({
			data: { approved: true, respondedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
		});
		// The same link again: the execution has finished, nothing more is recorded.
		const again = await run.open(approve, { method: 'POST' });
		expect(again.resumed).toBeUndefined();
		expect(sends()).toHaveLength(1);
	});

	test('Disapprove gives data.approved false', async () => {
		const run = await runToWait(ask(double), env.credentials());
		await run.open(links()[0], { method: 'POST' });
		expect(after(run)).toEqual([{ data: { approved: false, respondedAt: expect.any(String) } }]);
	});

	test('with Confirm on a Page off, opening the link records the answer, as n8n’s own nodes do', async () => {
		const run = await runToWait(ask({ options: { confirmOnPage: false } }), env.credentials());
		expect(links()).toHaveLength(1);
		const answered = await run.open(links()[0]);
		expect(answered.body).toContain('Got it, thanks');
		expect(after(run)).toEqual([{ data: { approved: true, respondedAt: expect.any(String) } }]);
	});

	test.each([
		['a crawler', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
		['Slack’s link preview', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
		['Teams’ preview service', 'Mozilla/5.0 (Windows NT 10.0) SkypeUriPreview Preview/0.5'],
		['an HTTP library', 'python-requests/2.31.0'],
		['no user agent at all', ''],
	])('%s records nothing, with Confirm on a Page off too', async (_, userAgent) => {
		const run = await runToWait(ask({ options: { confirmOnPage: false } }), env.credentials());
		for (const method of ['GET', 'POST'] as const) {
			const answered = await run.open(links()[0], { method, userAgent });
			expect([answered.status, answered.body]).toEqual([
				200,
				expect.not.stringContaining('Got it'),
			]);
		}
		expect(run.waiting).toBe(true);
	});

	test('a link scanner that opens the link like a browser only sees the page; the person still answers', async () => {
		const run = await runToWait(ask(double), env.credentials());
		for (const link of links()) await run.open(link, { userAgent: BROWSER });
		expect(run.waiting).toBe(true);
		await run.open(links()[1], { method: 'POST' });
		expect(after(run)[0].data).toMatchObject({ approved: true });
	});

	test('an altered link is refused with 401 and the run keeps waiting: by n8n’s signature, and by the node’s own token where n8n does not check', async () => {
		const run = await runToWait(ask(double), env.credentials());
		const disapprove = new URL(links()[0]);
		disapprove.searchParams.set('approved', 'true');
		expect((await run.open(disapprove.toString(), { method: 'POST' })).status).toBe(401);
		// Re-signed as n8n would sign it, as if n8n did not check (an execution n8n 2.x made before it signed
		// links, n8n 1.x without the check asked for): the node's token, bound to the answer, refuses it.
		const forged = await run.open(resign(disapprove.toString()), { method: 'POST' });
		expect(forged.status).toBe(401);
		expect(forged.body).toContain('This link is not valid');
		const guessed = new URL(links()[1]);
		guessed.searchParams.set('token', 'x'.repeat(43));
		expect((await run.open(resign(guessed.toString()), { method: 'POST' })).status).toBe(401);
		expect(run.waiting).toBe(true);
		await run.open(links()[1], { method: 'POST' });
		expect(after(run)[0].data).toMatchObject({ approved: true });
	});
});

describe('the same node asking again in one execution (a loop, an AI agent’s next tool call)', () => {
	// Sends its input back to Mail Delivery once (output 0), then on to After (output 1).
	registerNodeType(
		'test.askAgain',
		loopOnceNode('Ask Again', (context) => context.getInputData()),
	);

	test('the first mail’s links, valid n8n signatures, never answer the second question', async () => {
		const run = await runToWait(ask(double), env.credentials(), {
			graph: ({ nodes, connections }) => ({
				nodes: [
					...nodes,
					{
						id: 'again',
						name: 'Ask Again',
						type: 'test.askAgain',
						typeVersion: 1,
						position: [300, 0],
						parameters: {},
					},
				],
				connections: {
					...connections,
					'Mail Delivery': { main: [[{ node: 'Ask Again', type: 'main', index: 0 }]] },
					'Ask Again': {
						main: [
							[{ node: 'Mail Delivery', type: 'main', index: 0 }],
							[{ node: 'After', type: 'main', index: 0 }],
						],
					},
				},
			}),
		});
		const [firstDisapprove, firstApprove] = links();
		await run.open(firstDisapprove, { method: 'POST' });
		expect(run.waiting).toBe(true);
		expect(sends()).toHaveLength(2);
		const [secondDisapprove, secondApprove] = links();
		expect(secondApprove).not.toBe(firstApprove);
		for (const stale of [firstApprove, firstDisapprove]) {
			const answered = await run.open(stale, { method: 'POST' });
			expect(answered.status).toBe(410);
			expect(answered.body).toContain('No action required');
		}
		expect(run.waiting).toBe(true);
		await run.open(secondApprove, { method: 'POST' });
		expect(after(run)).toEqual([{ data: { approved: true, respondedAt: expect.any(String) } }]);
		void secondDisapprove;
	});
});

describe('Free Text and Custom Form', () => {
	test('Free Text: the link opens n8n’s form page (sandboxed); its POST gives data.text', async () => {
		const run = await runToWait(
			ask({ responseType: 'freeText', options: { messageButtonLabel: 'Answer' } }),
			env.credentials(),
		);
		expect(lastMail().html).toMatch(/>Answer<\/a>/);
		const [link] = links();
		const page = await run.open(link);
		expect(page.rendered?.view).toBe('form-trigger');
		expect(page.headers['content-security-policy']).toMatch(/^sandbox /);
		expect(page.rendered?.data).toMatchObject({
			formDescription: 'Refund 120 EUR to Grace?<br>She returned both items.',
			buttonLabel: 'Submit',
			formFields: [
				{ id: 'field-0', label: 'Response', isTextarea: true, inputRequired: 'form-required' },
			],
		});
		const empty = await run.open(link, { method: 'POST', body: { data: { 'field-0': '' } } });
		expect(empty.status).toBe(400);
		expect(run.waiting).toBe(true);
		await run.open(link, { method: 'POST', body: { data: { 'field-0': 'Only 100 EUR' } } });
		expect(after(run)).toEqual([
			{ data: { text: 'Only 100 EUR', respondedAt: expect.any(String) } },
		]);
	});

	test('Custom Form: fields as n8n’s Form node defines them, answers typed as n8n types them', async () => {
		const formFields = {
			values: [
				{ fieldLabel: 'Amount', fieldType: 'number', requiredField: true },
				{
					fieldLabel: 'Decision',
					fieldType: 'radio',
					fieldOptions: { values: [{ option: 'Refund' }, { option: 'Replace' }] },
				},
				{
					fieldLabel: 'Reasons',
					fieldType: 'checkbox',
					fieldOptions: { values: [{ option: 'Damaged' }, { option: 'Late' }] },
				},
				{
					fieldType: 'html',
					html: '<p onclick="x()">Policy <script>bad()</script><b>30 days</b></p>',
				},
				{ fieldType: 'hiddenField', fieldName: 'case', fieldValue: 'C-7' },
			],
		};
		const run = await runToWait(ask({ responseType: 'customForm', formFields }), env.credentials());
		const [link] = links();
		const page = await run.open(link);
		const fields = page.rendered!.data.formFields as IDataObject[];
		expect(fields.map((field) => field.id)).toEqual([
			'field-0',
			'field-1',
			'field-2',
			'field-3',
			'field-4',
		]);
		expect(fields[1]).toMatchObject({ isMultiSelect: true, radioSelect: 'radio' });
		expect(fields[3].html).toBe('<p>Policy <b>30 days</b></p>');
		await run.open(link, {
			method: 'POST',
			body: {
				data: {
					'field-0': ' 120 ',
					'field-1': '["Refund"]',
					'field-2': '["Damaged","Late"]',
					'field-4': 'C-7',
				},
			},
		});
		expect(after(run)).toEqual([
			{
				data: {
					Amount: 120,
					Decision: 'Refund',
					Reasons: ['Damaged', 'Late'],
					case: 'C-7',
					respondedAt: expect.any(String),
				},
			},
		]);
	});

	test('a form that cannot be shown is refused before any request, naming the field', async () => {
		const run = await runToWait(
			ask({ responseType: 'customForm', defineForm: 'json', jsonOutput: '[{"fieldLabel": "A"' }),
			env.credentials(),
		);
		expect(run.first.error('Mail Delivery')?.message).toBe(
			'Field "Form Fields" is not valid JSON, in item 0 (the 1st input item)',
		);
		expect(sends()).toHaveLength(0);
	});
});

describe('the time limit, Sandbox Mode, bad input', () => {
	test('after the time limit the run goes on with the input items as they came, each saying it timed out', async () => {
		const items: INodeExecutionData[] = [{ json: { id: 1 } }, { json: { id: 2 } }];
		const started = Date.now();
		const run = await runToWait(
			ask({ options: { limitWaitTime: { values: { resumeAmount: 2, resumeUnit: 'hours' } } } }),
			env.credentials(),
			{ items },
		);
		// One mail for the run, not one per item, as n8n's own send-and-wait nodes.
		expect(sends()).toHaveLength(1);
		const limit = run.first.output('Mail Delivery')[0].json.waitTill as string;
		expect(Date.parse(limit) - started).toBeGreaterThanOrEqual(2 * 3600_000 - 1000);
		expect(Date.parse(limit) - started).toBeLessThan(2 * 3600_000 + 60_000);
		// n8n resumes the run a few seconds after the limit: an answer taken just before it resumes it first.
		expect(new Date(run.first.run.waitTill!).getTime() - Date.parse(limit)).toBe(10_000);
		expect(run.first.run.data.resultData.runData['Mail Delivery'][0].hints?.[0].message).toMatch(
			`Answers count until ${limit}; without one the run goes on a few seconds later, its items saying timedOut.`,
		);
		await run.timeOut();
		expect(after(run)).toEqual([
			{ id: 1, timedOut: true, timeLimit: limit },
			{ id: 2, timedOut: true, timeLimit: limit },
		]);
		// A late answer: nothing more happens.
		const late = await run.open(links()[0]);
		expect(late.resumed).toBeUndefined();
	});

	test('an answer after the limit, while the run still waits: a page saying when the time to answer ended, nothing recorded', async () => {
		const run = await runToWait(
			ask({ options: { limitWaitTime: { values: { resumeAmount: 2, resumeUnit: 'hours' } } } }),
			env.credentials(),
		);
		const limit = Date.parse(run.first.output('Mail Delivery')[0].json.waitTill as string);
		jest.useFakeTimers({ now: limit + 1, doNotFake: ['nextTick', 'setImmediate', 'setTimeout'] });
		try {
			for (const method of ['GET', 'POST'] as const) {
				const late = await run.open(links()[0], { method });
				expect(late.status).toBe(410);
				expect(String(late.body)).toMatch(/The time to answer has ended/);
				expect(String(late.body)).toMatch(/could be answered until \d\d:\d\d:\d\d on /);
				expect(late.resumed).toBeUndefined();
			}
		} finally {
			jest.useRealTimers();
		}
		expect(run.waiting).toBe(true);
	});

	test('Sandbox Mode: the platform checks the request, nothing is sent, and the node does not wait', async () => {
		const run = await runToWait(ask({ sandboxMode: true }), env.credentials());
		expect(run.waiting).toBe(false);
		expect(env.view().mails).toHaveLength(0);
		expect((sends()[0].body as IDataObject).sandboxMode).toBe(true);
		expect(after(run)).toEqual([
			expect.objectContaining({
				success: true,
				sandboxMode: true,
				recipients: ['ada@example.org'],
			}),
		]);
	});

	test.each([
		[
			{ sendTo: 'margaret(at)example.org' },
			'Field "To" "margaret(at)example.org" is not a valid email address',
		],
		// n8n refuses to run a required field left empty: an expression gives it empty.
		[{ sendTo: '={{ "" }}' }, 'Field "To" needs at least one entry'],
		[{ subject: 'Line one\nline two' }, 'Field "Subject" must be on one line'],
		[{ message: '={{ "" }}' }, 'Field "Message" is required'],
		[
			{
				options: {
					limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: 'soon' } },
				},
			},
			'Field "Max Date and Time" is not a date and time that can be read: "soon"',
		],
		[
			{ options: { reports: { values: { category: 'a-b' } } } },
			'Field "Category" may contain only letters and digits',
		],
	])('%j is refused before any request', async (extra, message) => {
		const run = await runToWait(ask(extra), env.credentials());
		expect(run.first.error('Mail Delivery')?.message).toContain(message);
		expect(sends()).toHaveLength(0);
	});

	test('text that looks like the platform’s tags reaches the reader as written', async () => {
		await runToWait(
			ask({ subject: 'Order {{orderId}} <urgent>', message: 'Tag {{name}} & <b>bold</b>' }),
			env.credentials(),
		);
		const mail = lastMail();
		expect(mail.subject).toBe('Order {{orderId}} <urgent>');
		expect(mail.missingTags).toBeUndefined();
		expect(mail.html).toContain('Tag &#123;&#123;name&#125;&#125; &amp; &lt;b&gt;bold&lt;/b&gt;');
	});
});

describe('at most one mail per wait, whatever n8n does around the node', () => {
	test('Retry On Fail after a send that may have reached the platform (HTTP 500) sends no second mail', async () => {
		await env.control('POST', 'fault', { path: TX, fault: 'internalError' });
		const run = await runToWait(ask(), env.credentials(), {
			node: { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 },
		});
		expect(sends()).toHaveLength(1);
		expect(run.waiting).toBe(false);
		const error = run.first.error('Mail Delivery') as Error & { description?: string };
		expect(error.description).toMatch(
			/may still have processed that request \(the mail may have gone out\)/,
		);
	});

	test('Options → Platform Reports and Sending the Mail reach the request: report labels, open tracking, Retry Attempts', async () => {
		await env.control('POST', 'fault', { path: TX, fault: 'tooManyRequests' });
		const run = await runToWait(
			ask({
				options: {
					reports: { values: { category: 'Refunds', campaign: 'Approvals', trackOpen: true } },
					sending: { values: { retryAttempts: 1 } },
				},
			}),
			env.credentials(),
		);
		expect(sends().map((request) => request.code)).toEqual([429]);
		expect(run.first.error('Mail Delivery')?.message).toMatch(/429|too many/i);
		await runToWait(
			ask({
				options: {
					reports: { values: { category: 'Refunds', campaign: 'Approvals', trackOpen: true } },
				},
			}),
			env.credentials(),
		);
		expect(sends().at(-1)!.body).toMatchObject({
			category: 'Refunds',
			campaign: 'Approvals',
			trackOpen: 1,
		});
	});

	test('a "try later" answer (429) is waited out and sent once', async () => {
		await env.control('POST', 'fault', { path: TX, fault: 'tooManyRequests' });
		const run = await runToWait(ask(), env.credentials());
		expect(sends().map((request) => request.code)).toEqual([429, 200]);
		expect(env.view().mails).toHaveLength(1);
		expect(run.waiting).toBe(true);
	});

	test('Retry of an execution that crashed after sending sends nothing again, unless Redo After a Crash', async () => {
		const execution = { establishedAt: Date.now(), source: 'webhook' };
		// The same workflow each time: n8n keeps a node's claims by workflow and node.
		const node = { id: 'approval-node' };
		await runToWait(ask(), env.credentials(), {
			node,
			mode: 'webhook',
			executionContext: execution,
		});
		expect(sends()).toHaveLength(1);
		// n8n crashed before saving the wait: Retry starts a new execution of the same lineage.
		const retried = await runToWait(ask(), env.credentials(), {
			node,
			mode: 'retry',
			executionContext: execution,
		});
		// Its journal shows the mail went out, with links that answer the first execution: no second mail.
		expect(retried.first.error('Mail Delivery')?.message).toBe(
			'Not sent: an earlier try of this step already sent the mail',
		);
		expect(sends()).toHaveLength(1);
		expect(retried.waiting).toBe(false);
		const redo = { options: { sending: { values: { repeatOnRetry: true } } } };
		const repeated = await runToWait(ask(redo), env.credentials(), {
			node,
			mode: 'retry',
			executionContext: execution,
		});
		expect(sends()).toHaveLength(2);
		expect(repeated.waiting).toBe(true);
	});
});
