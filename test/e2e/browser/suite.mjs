// The browser suite's set-up (browser.e2e.mjs lists the journeys): n8n of the main line with the built package and
// the emulator, the demo's credentials and example workflows (as `npm start` makes them), and Debian's Chromium driven
// as a person drives it. The REST API only sets the stage; every check reads what the editor shows. Screenshots:
// .tmp/browser/<journey>/. One suite, not two: split in two (each with its own n8n and Chromium) its journeys took
// 1,549 s of the lanes against 1,307 s as one, and two lanes share the run's other suites well enough.
import { after, before, test } from 'node:test';

import { setupDemo } from '../../../scripts/demo.mjs';
import { startStack } from '../env.mjs';
import { launchBrowser } from './ui.mjs';

// A backstop for a hung journey, not a speed check: journeys took up to 154 s at a load average of 9 on 2 cores.
const JOURNEY_TIMEOUT = 420_000;

/** Registers the suite's set-up and its journeys, each `[title, journey]`, run one after another in that order. */
export function browserSuite(journeys) {
	const env = { state: {} };
	let stack;

	before(async () => {
		const started = Date.now();
		// Chromium first: without it the suite fails here, before starting anything.
		env.browser = await launchBrowser();
		stack = await startStack('2', { editor: true });
		const { url, account, redirectUri } = stack.emulator;
		await setupDemo(stack.session, { url, account, redirectUri });
		Object.assign(env, {
			baseUrl: stack.n8n.baseUrl,
			emulator: stack.emulator,
			session: stack.session,
		});
		console.log(
			`browser suite: n8n and the demo ready in ${Math.round((Date.now() - started) / 1000)} s`,
		);
	});

	after(async () => {
		await env.browser?.close();
		await stack?.n8n.stop();
		await stack?.emulator.stop();
	});

	for (const [title, journey] of journeys)
		test(title, { timeout: JOURNEY_TIMEOUT }, () => journey(env));
}
