/**
 * Send and Wait for Response against everyone but the person asked, through n8n's engine, the waiting execution
 * kept as n8n's database keeps it (test/harness/n8n/waiting.cts): whoever may read the execution (an API key with
 * execution:read, a project viewer) finds nothing in it that makes an answer; every name n8n accepts finds its
 * wait, and the answer is read as the mail asked it whatever an expression gives when the run resumes; a time
 * limit the node cannot wait for is refused before the mail; a form field whose answer could not be kept is
 * refused before the mail.
 */
import { createHmac } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { TX } from '../harness/fixtures.cts';
import {
	askParameters,
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
const links = () =>
	linksOf(env.view().mails.at(-1)!.html!).filter((link) => link.includes('/webhook-waiting/'));
const after = (run: WaitingRun) => run.last.output('After').map((item) => item.json);

/** Every string the value holds, and its parts between dots (how a reader would take a value apart). */
function stringsIn(value: unknown, found = new Set<string>()): Set<string> {
	if (typeof value === 'string') {
		found.add(value);
		for (const part of value.split('.')) found.add(part);
	} else if (value && typeof value === 'object')
		for (const [key, inner] of Object.entries(value)) {
			found.add(key);
			stringsIn(inner, found);
		}
	return found;
}

describe('whoever may read the execution cannot answer for the person', () => {
	test('the waiting execution holds no token of the mail and no key that makes one', async () => {
		const run = await runToWait(ask(double), env.credentials());
		const [disapprove, approve] = links();
		const saved = JSON.stringify(run.saved);
		for (const link of [disapprove, approve])
			expect(saved).not.toContain(new URL(link).searchParams.get('token'));
		expect(saved).not.toContain(env.emulator.account.apiSecret);

		// A reader takes every string of the node's context data as a key and as a wait's id and asks for a
		// Disapprove; n8n accepts its own resume token in place of the link's signature (resign stands for it).
		const context = run.saved.executionData!.contextData;
		const candidates = [...stringsIn(context)].filter((value) => value.length >= 8);
		expect(candidates.length).toBeGreaterThan(0);
		for (const key of candidates)
			for (const wait of candidates) {
				const forged = new URL(approve);
				forged.searchParams.set('approved', 'false');
				forged.searchParams.set('wait', wait);
				forged.searchParams.set(
					'token',
					createHmac('sha256', key).update(`${wait}:false`).digest('base64url'),
				);
				const answered = await run.open(resign(forged.toString()), { method: 'POST' });
				expect(answered.resumed).toBeUndefined();
			}
		expect(run.waiting).toBe(true);
		await run.open(approve, { method: 'POST' });
		expect(after(run)[0].data).toMatchObject({ approved: true });
	});

	test.each([
		['Signature API', 'signature', 'mailDeliverySignatureApi', 'apiSecret'],
		[
			'OAuth2 client credentials',
			'oAuth2ClientCredentials',
			'mailDeliveryClientCredentialsOAuth2Api',
			'apiSecret',
		],
		[
			'OAuth2 authorization code',
			'oAuth2AuthorizationCode',
			'mailDeliveryAuthCodeOAuth2Api',
			'clientSecret',
		],
	])(
		'%s: the links answer; once the credential’s secret changes (or is gone), the links of waits made before refuse',
		async (_, authentication, type, secretField) => {
			const credentials = env.credentials(await env.authorizationCode());
			const run = await runToWait(ask({ ...double, authentication }), credentials, {
				node: { credentials: { [type]: { id: '1', name: 'test' } } },
			});
			expect(run.first.error()).toBeUndefined();
			const saved = JSON.stringify(run.saved);
			expect(saved).not.toContain(String(credentials.stored[type][secretField]));
			const [disapprove, approve] = links();
			const original = credentials.stored[type][secretField];
			credentials.stored[type] = { ...credentials.stored[type], [secretField]: 'rotated-secret' };
			expect((await run.open(disapprove, { method: 'POST' })).status).toBe(401);
			// The credential without its secret (deleted): the link cannot be checked, nothing is recorded.
			const stored = credentials.stored[type];
			credentials.stored[type] = {};
			expect((await run.open(disapprove, { method: 'POST' })).status).toBe(500);
			credentials.stored[type] = { ...stored, [secretField]: original };
			await run.open(approve, { method: 'POST' });
			expect(after(run)[0].data).toMatchObject({ approved: true });
		},
	);
});

describe('every name n8n accepts finds its wait', () => {
	test.each([
		'Ask }} me',
		'Ask {{ me',
		'{{ $json.x }}',
		'constructor',
		'toString',
		'Ask "quoted" \'me\' \\ `now`',
		'Approve prototype',
		'Zustimmung 👍 ✓',
	])('a node named %j: the person’s answer is recorded', async (name) => {
		const run = await runToWait(ask(double), env.credentials(), { node: { name } });
		expect(run.waiting).toBe(true);
		const [, approve] = links();
		const page = await run.open(approve);
		expect([page.status, page.body]).toEqual([
			200,
			expect.stringContaining('<form method="POST">'),
		]);
		const answered = await run.open(approve, { method: 'POST' });
		expect([answered.status, answered.body]).toEqual([200, expect.stringContaining('Got it')]);
		expect(after(run)[0].data).toMatchObject({ approved: true });
	});
});

test.each(['Ask }} me', 'Ask "quoted" \\ `now` {{', 'Approve prototype', 'Zustimmung 👍'])(
	'where n8n’s webhook context would not hold the execution’s data, an expression finds the wait of a node named %j',
	async (name) => {
		const run = await runToWait(ask(double), env.credentials(), { node: { name } });
		const [, approve] = links();
		const answered = await run.open(approve, { method: 'POST', withoutExecutionData: true });
		expect([answered.status, answered.body]).toEqual([200, expect.stringContaining('Got it')]);
		expect(after(run)[0].data).toMatchObject({ approved: true });
	},
);

describe('the answer is read as the mail asked it, whatever an expression gives when the run resumes', () => {
	registerNodeType(
		'test.askAgainOnce',
		loopOnceNode('Ask Again Once', (context) => context.getInputData()),
	);
	const loop = ({ nodes, connections }: { nodes: never[]; connections: IDataObject }) => ({
		nodes: [
			...nodes,
			{
				id: 'again-once',
				name: 'Ask Again Once',
				type: 'test.askAgainOnce',
				typeVersion: 1,
				position: [300, 0],
				parameters: {},
			},
		],
		connections: {
			...connections,
			'Mail Delivery': { main: [[{ node: 'Ask Again Once', type: 'main', index: 0 }]] },
			'Ask Again Once': {
				main: [
					[{ node: 'Mail Delivery', type: 'main', index: 0 }],
					[{ node: 'After', type: 'main', index: 0 }],
				],
			},
		},
	});

	test('Response Type and Message from $runIndex: the second wait’s form link opens its form and records its text', async () => {
		const run = await runToWait(
			ask({
				responseType: '={{ $runIndex === 0 ? "approval" : "freeText" }}',
				message: '={{ "Question " + ($runIndex + 1) }}',
			}),
			env.credentials(),
			{ graph: loop as never },
		);
		const [firstApprove] = links();
		const first = await run.open(firstApprove);
		expect(first.body).toContain('Question 1');
		await run.open(firstApprove, { method: 'POST' });
		expect(run.waiting).toBe(true);
		expect(sends()).toHaveLength(2);
		const [formLink] = links();
		const page = await run.open(formLink);
		expect(page.status).toBe(200);
		expect(page.rendered?.data).toMatchObject({ formDescription: 'Question 2' });
		const answered = await run.open(formLink, {
			method: 'POST',
			body: { data: { 'field-0': 'Only 100 EUR' } },
		});
		expect(answered.status).toBe(200);
		expect(after(run)).toEqual([
			{ data: { text: 'Only 100 EUR', respondedAt: expect.any(String) } },
		]);
	});
});

describe('a time limit the node cannot wait for is refused before the mail', () => {
	const interval = (resumeAmount: unknown, resumeUnit = 'minutes') => ({
		options: { limitWaitTime: { values: { resumeAmount, resumeUnit } } },
	});
	const at = (maxDateAndTime: string) => ({
		options: { limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime } } },
	});

	test.each([
		[interval(1e8, 'days'), /^Field "Limit Wait Time" ends later than n8n can wait/],
		[interval(1e12), /^Field "Limit Wait Time" ends later than n8n can wait/],
		[interval(0), /^Field "Limit Wait Time" needs an Amount above 0/],
		[interval(-5), /^Field "Limit Wait Time" needs an Amount above 0/],
		[interval('={{ "soon" }}'), /^Field "Amount" must be a number \(it is "soon"\)/],
		[at('2001-01-01T10:00:00'), /^Field "Max Date and Time" is in the past \(2001-01-01/],
		[at('3000-01-01T00:00:00'), /^Field "Max Date and Time" ends later than n8n can wait/],
		[at('+275760-09-13T00:00:00Z'), /^Field "Max Date and Time"/],
	])('%j', async (extra, message) => {
		const run = await runToWait(ask(extra), env.credentials(), {
			node: { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 },
		});
		const error = run.first.error('Mail Delivery') as Error & { description?: string };
		expect(error?.message).toMatch(message);
		expect(error?.description ?? '').not.toMatch(/may still have processed/);
		expect(sends()).toHaveLength(0);
		expect(run.waiting).toBe(false);
	});

	test('the longest limit n8n waits for is taken, and waitTill says when it ends', async () => {
		const run = await runToWait(ask(at('2999-12-31T23:00:00Z')), env.credentials());
		expect(run.waiting).toBe(true);
		expect(run.first.output('Mail Delivery')[0].json.waitTill).toBe('2999-12-31T23:00:00.000Z');
	});
});

describe('a form field whose answer could not be kept is refused before the mail', () => {
	const form = (values: IDataObject[]) => ({ responseType: 'customForm', formFields: { values } });

	test.each([
		[[{ fieldLabel: '__proto__' }], /^Form field 1 is labelled "__proto__"/],
		[
			[{ fieldLabel: 'Amount' }, { fieldType: 'hiddenField', fieldName: 'constructor' }],
			/^Form field 2 is named "constructor"/,
		],
		[[{ fieldLabel: 'respondedAt' }], /^Form field 1 is labelled "respondedAt"/],
		[
			[{ fieldLabel: 'Amount' }, { fieldLabel: 'Reason' }, { fieldLabel: 'Amount' }],
			/^Form fields 1 and 3 both answer under "Amount"/,
		],
	])('%j', async (fields, message) => {
		const run = await runToWait(ask(form(fields)), env.credentials());
		expect(run.first.error('Mail Delivery')?.message).toMatch(message);
		expect(sends()).toHaveLength(0);
	});

	test('a label such as "Proto" or "__proto__ note" is kept as written', async () => {
		const run = await runToWait(
			ask(form([{ fieldLabel: 'Proto' }, { fieldLabel: '__proto__ note' }])),
			env.credentials(),
		);
		const [link] = links();
		await run.open(link, {
			method: 'POST',
			body: { data: { 'field-0': 'a', 'field-1': 'b' } },
		});
		expect(after(run)[0].data).toEqual({
			Proto: 'a',
			'__proto__ note': 'b',
			respondedAt: expect.any(String),
		});
	});
});

describe('a second answer a moment after the first', () => {
	test('Approve clicked twice and a Disapprove at once: one resume, each request a page saying what happened', async () => {
		const run = await runToWait(ask(double), env.credentials());
		const [disapprove, approve] = links();
		const [first, again, other] = await Promise.all([
			run.open(approve, { method: 'POST' }),
			run.open(approve, { method: 'POST' }),
			run.open(disapprove, { method: 'POST' }),
		]);
		expect(first.resumed).toBeDefined();
		expect([again.resumed, again.status, again.body]).toEqual([
			undefined,
			200,
			expect.stringContaining('Got it'),
		]);
		expect([other.resumed, other.status, other.body]).toEqual([
			undefined,
			409,
			expect.stringContaining('No action required'),
		]);
		expect(after(run)).toEqual([{ data: { approved: true, respondedAt: expect.any(String) } }]);
	});
});
