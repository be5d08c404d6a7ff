// What `npm start` prints when the demo is ready (scripts/local-stack.mjs): it tells a newcomer how to make the
// emulator push an open, a click, an unsubscribe, a spam report or a bounce (the mail page's buttons), and that
// their own trigger publishes beside the example's (issue 46).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { readyBanner } from '../../scripts/local-stack.mjs';

/** The mail page's button labels, read from EVENT_BUTTONS in emulator/mailView.cts (node imports no TypeScript). */
const source = readFileSync(new URL('../../emulator/mailView.cts', import.meta.url), 'utf8');
const buttons = /EVENT_BUTTONS[^=]*=\s*\[([^;]*)\];/.exec(source)[1];
const labels = [...buttons.matchAll(/\['\w+',\s*'([^']+)'\]/g)].map((match) => match[1]);

const banner = readyBanner(
	{
		n8n: { baseUrl: 'http://127.0.0.1:5678' },
		emulator: { url: 'http://127.0.0.1:3789' },
		logFile: '.n8n-local/n8n-2.41.3/n8n.log',
	},
	{ startedAt: Date.now() },
);

test('the banner names the mail page and each of its event buttons, as the page labels them', () => {
	assert.match(banner, /http:\/\/127\.0\.0\.1:3789\/mails/);
	assert.equal(labels.length, 5);
	for (const label of labels) assert.ok(banner.includes(label), `"${label}" is not in the banner`);
	assert.match(banner, /click "Opened": an execution on the Opened branch/);
});

test("the banner says the user's own trigger publishes beside the example", () => {
	assert.match(banner, /Your own trigger publishes too/);
});
