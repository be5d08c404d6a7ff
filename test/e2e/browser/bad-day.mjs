// Journeys of issue 54 (a user's bad day), walked as a person walks them: the emulator's address as `npm start`
// prints it, opened in the browser (a page leading to the mail log and the settings); and Send and Wait for
// Response whose time runs out: the waiting node says "after 1 minute", the person who opens Approve after the
// limit is told when the time to answer ended, and the next node's input says the run timed out.
import { journey, stageWorkflow, textOf, rl } from './journeys.mjs';
import { canvasNode, closeNode, openNode, openWorkflowById } from './ui.mjs';

const APPROVER_BROWSER =
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

export async function u(env) {
	return await journey(env, 'u-emulator-address', async (j, page) => {
		// The address npm start's banner prints as "Emulator:".
		await page.goto(env.emulator.url);
		const home = await textOf(page.locator('body'));
		await j.shot('emulator-address');
		j.saw('the emulator address', home.slice(0, 300));
		if (
			!(await j.check(
				/Platform emulator/.test(home) && !/接口不存在|"code"/.test(home),
				`the emulator's address shows "${home.slice(0, 200)}", not a page`,
			))
		)
			return;
		await page.getByRole('link', { name: 'Mail log' }).click();
		await page.getByRole('heading', { name: 'Mail log' }).waitFor({ timeout: 10_000 });
		await j.shot('mail-log-from-the-address');
		await page.getByRole('link', { name: 'Platform emulator' }).click();
		await page.getByRole('link', { name: 'Settings' }).click();
		await page.getByRole('heading', { name: 'Settings' }).waitFor({ timeout: 10_000 });
		const settings = await textOf(page.locator('body'));
		await j.shot('emulator-settings');
		j.saw('the settings page', settings.slice(0, 300));
		await j.check(
			/Latency \(ms\)/.test(settings) && /Rate limit/.test(settings) && /Messages/.test(settings),
			`the settings page does not show the latency and the rest: ${settings.slice(0, 300)}`,
		);
		// A person slows the platform down and sees it kept; then puts it back.
		await page.locator('#latencyMs').fill('250');
		await page.getByRole('button', { name: 'Save' }).click();
		await page.locator('#saved').waitFor({ timeout: 10_000 });
		await j.shot('emulator-settings-saved');
		const latency = await page.locator('#latencyMs').inputValue();
		await j.check(latency === '250', `the latency reads ${latency} after saving 250`);
		await env.emulator.control('POST', 'settings', { latencyMs: 0 });
	});
}

/** The ISO time in the waiting node's hint: until when answers count (or, before issue 54, when the run goes on). */
const limitIn = (text) => /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)/.exec(text)?.[1];

export async function ab(env) {
	const to = `late-${Date.now()}@example.org`;
	const id = await stageWorkflow(
		env,
		`Browser: time runs out ${to}`,
		null,
		{
			resource: 'transactionalMail',
			operation: 'sendAndWait',
			senderMail: rl('sender@example.com'),
			sendTo: to,
			subject: 'Approve the refund?',
			message: 'Refund 120 EUR?',
			options: { limitWaitTime: { values: { resumeAmount: 1, resumeUnit: 'minutes' } } },
		},
		{ next: 'After' },
	);
	return await journey(env, 'ab-time-runs-out', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, id);
		await page.getByTestId('execute-workflow-button').click();
		for (let tries = 0; tries < 120; tries++) {
			const { mails } = await env.emulator.control('GET', 'mails');
			if (mails.some((mail) => mail.email === to)) break;
			await page.waitForTimeout(500);
		}
		await page.waitForTimeout(1500);
		await openNode(page, 'Mail Delivery');
		await page.waitForTimeout(1500);
		const waiting = await textOf(page.getByTestId('output-panel'));
		await j.shot('the-waiting-node');
		j.saw('the waiting node', waiting.slice(0, 400));
		await j.check(
			/without an answer after 1 minute\./.test(waiting),
			`the waiting node does not say "after 1 minute": ${waiting.slice(0, 400)}`,
		);
		await closeNode(page).catch(() => undefined);
		const limit = Date.parse(limitIn(waiting) ?? '');
		if (!(await j.check(Number.isFinite(limit), 'the waiting node says no time limit'))) return;

		// The person opens Approve 2 s after the limit.
		const { mails } = await env.emulator.control('GET', 'mails');
		const link = /href="([^"]*\/webhook-waiting\/[^"]*approved=true[^"]*)"/
			.exec(mails.filter((mail) => mail.email === to).at(-1).html)[1]
			.replace(/&amp;/g, '&');
		await page.waitForTimeout(Math.max(0, limit + 2000 - Date.now()));
		const mailbox = await env.browser.newContext({
			viewport: { width: 1200, height: 800 },
			userAgent: APPROVER_BROWSER,
		});
		const editorPage = j.page;
		try {
			const late = await mailbox.newPage();
			j.page = late;
			await late.goto(link);
			const text = await textOf(late.locator('body'));
			await j.shot('approve-after-the-limit');
			j.saw('Approve 2 s after the limit', text.slice(0, 300));
			await j.check(
				/The time to answer has ended/.test(text) &&
					/could be answered until \d\d:\d\d:\d\d on /.test(text),
				`Approve after the limit shows "${text.slice(0, 300)}", not when the time to answer ended`,
			);
		} finally {
			j.page = editorPage;
			await mailbox.close();
		}

		// The run goes on without an answer; the next node can tell.
		await canvasNode(page, 'After')
			.getByTestId('canvas-node-status-success')
			.waitFor({ timeout: 90_000 });
		await openNode(page, 'After');
		await page.getByTestId('output-panel').getByText('JSON', { exact: true }).click();
		await page.waitForTimeout(800);
		const output = (await textOf(page.getByTestId('output-panel'))).replace(/\s+/g, ' ');
		await j.shot('the-output-after-the-limit');
		j.saw('the output after the limit', output.slice(0, 300));
		await j.check(
			/"timedOut": true/.test(output),
			`the output after the limit does not say it timed out: ${output.slice(0, 300)}`,
		);
	});
}
