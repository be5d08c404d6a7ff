// Journeys of issue 61, walked as a person walks them: the platform gets busy (the person sets the emulator's rate
// limit on its Settings page), a send of 3,000 customers runs in the editor, and the output panel says what the node
// did about it: the platform's "too many requests", the pace it then kept, and on the next run, that it was paced
// from the start. Every customer gets exactly one mail a run. And a platform whose answers vary (the person sets its
// latency and jitter there): the output panel says they were its own time, not a queue, and the number went back up.
import { randomUUID } from 'node:crypto';

import { createCredential, credentialData } from '../env.mjs';
import { journey, rl, stageWorkflow, textOf } from './journeys.mjs';
import { closeNode, openNode, openWorkflowById, readOutput } from './ui.mjs';

/** 30 requests of 100 recipients: at 10 a second, some 3 s a run. */
const CUSTOMERS = 3000;
const RATE_LIMIT = 10;
const PACED_AFTER_429 =
	/After the platform's first "too many requests" \(HTTP 429\), requests were paced to (\d+) a second[^.]*\./;
const PACED_FROM_START = /Requests were paced from the start, at (\d+) a second in the end[^.]*\./;
const FOLLOWED =
	/Requests in parallel followed the platform: (\d+) requests in (\d+) attempts, at most (\d+) at once[^]*?instead\./;
const FOLLOWED_ANY =
	/Requests in parallel followed the platform: \d+ requests, at most (\d+) at once[^]*?instead\./;

/** The output panel's text once it shows `expected` (a run still going shows the run before's), or after 90 s. */
async function outputPanelShowing(page, expected) {
	const panel = page.getByTestId('output-panel');
	const deadline = Date.now() + 90_000;
	let text = await textOf(panel);
	while (!expected.test(text) && Date.now() < deadline) {
		await page.waitForTimeout(500);
		text = await textOf(panel);
	}
	return text;
}

/**
 * Runs the whole workflow from the canvas and opens the send, whose output panel shows the run once it ends. Not the
 * panel's Execute step: in n8n 2.41.3 a second Execute step after a run of 3,000 items fails in the editor ("Cannot
 * read properties of null (reading 'When clicking ‘Execute workflow’')"), before anything reaches the node.
 */
async function runAndOpen(page) {
	await page.getByTestId('execute-workflow-button').click();
	await page.waitForTimeout(500);
	await openNode(page, 'Mail Delivery');
}

/** Recipients of this journey that got other than one mail since `before` mails were logged. */
async function notOnce(env, suffix, before) {
	const { mails } = await env.emulator.control('GET', 'mails');
	const counts = new Map();
	for (const mail of mails.slice(before))
		if (mail.email.startsWith(`busy-${suffix}-`))
			counts.set(mail.email, (counts.get(mail.email) ?? 0) + 1);
	const wrong = [...Array(CUSTOMERS).keys()]
		.map((i) => `busy-${suffix}-${i}@example.org`)
		.filter((email) => counts.get(email) !== 1);
	return { wrong, logged: mails.length };
}

/**
 * A signature credential of the journey's own, named `name`: what the node learns of a platform is kept per
 * credential, and the other journeys' sends should meet the emulator as it was.
 */
async function accountOfItsOwn(env, name) {
	await createCredential(
		env.session,
		'mailDeliverySignatureApi',
		credentialData(env.emulator, 'mailDeliverySignatureApi'),
		name,
	);
	return name;
}

export async function ac(env) {
	const suffix = randomUUID().slice(0, 6);
	const credential = await accountOfItsOwn(env, `Mail Delivery (a busy account ${suffix})`);
	const id = await stageWorkflow(
		env,
		`Browser: a busy platform ${suffix}`,
		null,
		{
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: rl('sender@example.com'),
			to: '={{ $json.email }}',
			contentSource: 'template',
			templateName: rl('welcome'),
			tagValuesMode: 'inputFields',
		},
		{
			credential,
			code: `return Array.from({ length: ${CUSTOMERS} }, (_, i) => ({ json: { email: 'busy-${suffix}-' + i + '@example.org', name: 'Customer ' + i } }));`,
		},
	);
	return await journey(env, 'ac-busy-platform', async (j, page) => {
		// The person makes the platform busy where the emulator's address leads: its Settings page.
		await page.goto(`${env.emulator.url}/settings`);
		await page.locator('#rateLimitPerSecond').fill(String(RATE_LIMIT));
		await page.getByRole('button', { name: 'Save' }).click();
		await page.locator('#saved').waitFor({ timeout: 10_000 });
		try {
			let { logged } = await notOnce(env, suffix, 0);
			await openWorkflowById(page, env.baseUrl, id);

			// The first run meets the limit: some requests are refused, then the run keeps to the platform's pace.
			await runAndOpen(page);
			const first = await outputPanelShowing(page, PACED_AFTER_429);
			const output = await readOutput(page);
			await j.shot('first-run-paced');
			const paced = PACED_AFTER_429.exec(first);
			const followed = FOLLOWED.exec(first);
			j.saw('first run', `${output.countText}; ${paced?.[0] ?? '(no pace hint)'}`);
			j.saw('requests at once', followed?.[0] ?? '(none)');
			await j.check(
				output.count === CUSTOMERS,
				`the send gave ${output.count} items for ${CUSTOMERS}: ${output.text.slice(0, 200)}`,
			);
			await j.check(
				paced !== null && Number(paced[1]) <= RATE_LIMIT + 1,
				`the output panel does not say the run was paced to about ${RATE_LIMIT} a second after a 429: ${first.slice(0, 600)}`,
			);
			// 30 requests of 100 recipients; the refused ones went again, counted apart as attempts. The emulator
			// answers within milliseconds: nothing waited there (n8n reading answers late is not the platform's queue).
			await j.check(
				followed !== null &&
					Number(followed[1]) === CUSTOMERS / 100 &&
					/refused or not answered/.test(followed[0]) &&
					!/waited at the platform/.test(followed[0]),
				`the output panel does not say the run's ${CUSTOMERS / 100} requests, their attempts, how many went at once and how many were refused: ${first.slice(0, 600)}`,
			);
			const firstMails = await notOnce(env, suffix, logged);
			await j.check(
				firstMails.wrong.length === 0,
				`${firstMails.wrong.length} customers did not get exactly one mail on the first run (first: ${firstMails.wrong[0]})`,
			);
			logged = firstMails.logged;

			// The next run knows the pace: it says it kept to it from the start.
			await closeNode(page);
			await runAndOpen(page);
			const second = await outputPanelShowing(page, PACED_FROM_START);
			await j.shot('next-run-paced-from-start');
			const fromStart = PACED_FROM_START.exec(second);
			j.saw('next run', fromStart?.[0] ?? '(no pace hint)');
			await j.check(
				fromStart !== null && Number(fromStart[1]) <= RATE_LIMIT + 1,
				`the next run's output panel does not say it was paced from the start: ${second.slice(0, 600)}`,
			);
			const secondMails = await notOnce(env, suffix, logged);
			await j.check(
				secondMails.wrong.length === 0,
				`${secondMails.wrong.length} customers did not get exactly one mail on the next run (first: ${secondMails.wrong[0]})`,
			);
		} finally {
			await env.emulator.control('POST', 'settings', { rateLimitPerSecond: 0 });
		}
	});
}

/** 300 contacts, a request each. */
const CONTACTS = 300;
const OWN_TIME =
	/Answers took as long with fewer at once \((\d+) ms\): the platform's own time, not a queue of this run's, so the number, lowered (?:once|\d+ times) to find that out, went back up\./;

/** How many times each of this journey's contacts was saved since the request log's `before`-th request. */
async function savedNotOnce(env, suffix, before) {
	const { requests } = await env.emulator.control('GET', 'requests');
	const counts = new Map();
	for (const request of requests.slice(before))
		if (request.path === '/v5/contacts/upsert' && request.code === 200)
			counts.set(request.body.email, (counts.get(request.body.email) ?? 0) + 1);
	return [...Array(CONTACTS).keys()]
		.map((i) => `varying-${suffix}-${i}@example.org`)
		.filter((email) => counts.get(email) !== 1);
}

export async function ad(env) {
	const suffix = randomUUID().slice(0, 6);
	const credential = await accountOfItsOwn(
		env,
		`Mail Delivery (an account whose answers vary ${suffix})`,
	);
	const id = await stageWorkflow(
		env,
		`Browser: answers that vary ${suffix}`,
		null,
		{
			resource: 'contact',
			operation: 'upsert',
			email: '={{ $json.email }}',
			additionalFields: { name: '={{ $json.name }}' },
		},
		{
			credential,
			code: `return Array.from({ length: ${CONTACTS} }, (_, i) => ({ json: { email: 'varying-${suffix}-' + i + '@example.org', name: 'Contact ' + i } }));`,
		},
	);
	return await journey(env, 'ad-answers-vary', async (j, page) => {
		// The person makes the platform's answers vary, 20 to 320 ms, on the emulator's Settings page.
		await page.goto(`${env.emulator.url}/settings`);
		await page.locator('#latencyMs').fill('20');
		await page.locator('#latencyJitterMs').fill('300');
		await page.getByRole('button', { name: 'Save' }).click();
		await page.locator('#saved').waitFor({ timeout: 10_000 });
		try {
			const before = (await env.emulator.control('GET', 'requests')).requests.length;
			await openWorkflowById(page, env.baseUrl, id);
			await runAndOpen(page);
			const text = await outputPanelShowing(page, /followed the platform/);
			const output = await readOutput(page);
			await j.shot('answers-vary');
			const followed = FOLLOWED_ANY.exec(text);
			j.saw('output', output.countText);
			j.saw('requests at once', followed?.[0] ?? '(none)');
			await j.check(
				output.count === CONTACTS,
				`Create or Update gave ${output.count} items for ${CONTACTS}: ${output.text.slice(0, 200)}`,
			);
			// Slower than half again the fastest answer, with no queue: the number was lowered to find out, then went
			// back up; nothing says answers waited at the platform (before, "Fewer went at once 12 times when answers
			// waited at the platform", at most 16 at once, 36.7 s).
			await j.check(
				followed !== null &&
					OWN_TIME.test(followed[0]) &&
					!/waited at the platform/.test(followed[0]),
				`the output panel does not say the answers were the platform's own time and the number went back up: ${text.slice(0, 700)}`,
			);
			await j.check(
				followed !== null && Number(followed[1]) >= 40,
				`the run did not go back up to 40 or more at once: ${followed?.[0] ?? text.slice(0, 300)}`,
			);
			const wrong = await savedNotOnce(env, suffix, before);
			await j.check(
				wrong.length === 0,
				`${wrong.length} contacts were not saved exactly once (first: ${wrong[0]})`,
			);
		} finally {
			await env.emulator.control('POST', 'settings', { latencyMs: 0, latencyJitterMs: 0 });
		}
	});
}
