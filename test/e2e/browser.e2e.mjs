// The editor in a real browser: n8n of the main line with the built package and the emulator, the demo's credentials and
// example workflows (as `npm start` makes them), and Debian's Chromium driven as a person drives it. The REST
// API only sets the stage; every check reads what the editor shows. Screenshots: .tmp/browser/<journey>/.
import { after, before, test } from 'node:test';

import { setupDemo } from '../../scripts/demo.mjs';
import { startStack } from './env.mjs';
import { n } from './browser/approval.mjs';
import { t } from './browser/human-review.mjs';
import { a, b, c, d, e, f, g, h, i, j, k, l, m } from './browser/journeys.mjs';
import { o, p, q, r } from './browser/newcomer.mjs';
import { s } from './browser/repeated-events.mjs';
import { v, w, x, y, z } from './browser/second-hour.mjs';
import { launchBrowser } from './browser/ui.mjs';
import { ab, u } from './browser/bad-day.mjs';

const JOURNEY_TIMEOUT = 180_000;
const env = { state: {} };
let stack;

before(async () => {
	const started = Date.now();
	// Chromium first: without it the suite fails here, before starting anything.
	env.browser = await launchBrowser();
	stack = await startStack('2');
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

test(
	"a. sign in, run the two manual examples and read their output, see the trigger example's executions by kind",
	{ timeout: JOURNEY_TIMEOUT },
	() => a(env),
);

test(
	'b. a new workflow: Code → Mail Delivery Send with pickers, drag and drop into To and a tag value, execute',
	{ timeout: JOURNEY_TIMEOUT },
	() => b(env),
);

test(
	'c. On Error: error output routes the bad item, regular output keeps it, Stop Workflow says what was not sent',
	{ timeout: JOURNEY_TIMEOUT },
	() => c(env),
);

test(
	'd. the trigger panel: Registration, Manual fields (the Secret says it is required), one output per kind, a test listen while the example holds the address (it gives way)',
	{ timeout: JOURNEY_TIMEOUT },
	() => d(env),
);

test(
	'e. the three credential dialogs: wrong secrets explained, the authorization code fetched from the URL the dialog shows',
	{ timeout: JOURNEY_TIMEOUT },
	() => e(env),
);

test(
	"f. Webhook → Save refuses to take a trigger's address unless the Replace option is on",
	{ timeout: JOURNEY_TIMEOUT },
	() => f(env),
);

test(
	"g. a second trigger published in the editor while the user's first holds the address: refused fast, by workflow name",
	{ timeout: JOURNEY_TIMEOUT },
	() => g(env),
);

test(
	'h. tags pasted into Template → Create (n8n stores them as an expression) reach the platform as tags',
	{ timeout: JOURNEY_TIMEOUT },
	() => h(env),
);

test(
	'i. the node creator: On any event, Send transactional mail first; Campaign → Create lists its lists on first open; Custom API Call',
	{ timeout: JOURNEY_TIMEOUT },
	() => i(env),
);

test(
	'j. no label cut: the trigger outputs on the canvas, the send panel as a desktop browser draws it with every field hovered',
	{ timeout: JOURNEY_TIMEOUT },
	() => j(env),
);

test(
	"k. the send says what it cannot: tags without a value fail by default (the error names the tag, the item and its values), Send With the Tag Empty sends them (output, hint, the emulator's mail log), Email Field named in the error, fields before the first run",
	{ timeout: JOURNEY_TIMEOUT },
	() => k(env),
);

test(
	"l. the example's Tag Values → Name shows its mode, Import's Add to List offers a new list, the node creator's entry speaks of actions and events",
	{ timeout: JOURNEY_TIMEOUT },
	() => l(env),
);

test(
	'm. a field only n8n can evaluate over 150 items: the output panel names it and the faster way; an operation run item by item offers Requests in Parallel and Redo After a Crash',
	{ timeout: JOURNEY_TIMEOUT },
	() => m(env),
);

test(
	'n. a person in the loop: Send and Wait for Response found by searching "approval", the run waits, the approver opens the mail from the emulator\'s mail log, approves on the page, the execution goes on in the editor',
	{ timeout: JOURNEY_TIMEOUT },
	() => n(env),
);

test(
	'o. numbers as a CRM gives them: a phone number that is a number saves the contact with its digits; one beyond 2^53 is refused, naming the field and why',
	{ timeout: JOURNEY_TIMEOUT },
	() => o(env),
);

test(
	'p. words: a tag typed into Subject (red, [undefined]) and the hint that says so; Contact → Get of an unknown address says the likely cause in English',
	{ timeout: JOURNEY_TIMEOUT },
	() => p(env),
);

test(
	'q. a text body: Content Source Text sends the text as safe HTML; Campaign → Create offers Body Format Text',
	{ timeout: JOURNEY_TIMEOUT },
	() => q(env),
);

test(
	"r. the README's pictures, taken from the editor as it is: the send panel after a run, the trigger's outputs (docs/images/)",
	{ timeout: JOURNEY_TIMEOUT },
	() => r(env),
);

test(
	"s. the trigger's Options offer Ignore Repeated Events: on when added, its tooltip says what it does, no label cut",
	{ timeout: JOURNEY_TIMEOUT },
	() => s(env),
);

test(
	"t. Send and Wait for Response once set up: the Options a person in the loop needs in front and two explained groups, n8n's labels, the waiting node saying whom it asked and that it has no time limit, a double click on the approver's page, the link while the run goes on and after",
	{ timeout: JOURNEY_TIMEOUT },
	() => t(env),
);

test(
	'v. one rule for a bad item: Create or Update with one phone number above 2^53 among three writes nothing; three items without the tag promise nothing of the others',
	{ timeout: JOURNEY_TIMEOUT },
	() => v(env),
);

test(
	'w. the mail before it goes out: Send with Sandbox Mode shows each mail with its tags filled, the output opening on it (not on Binary); the canvas subtitle reads Send (sandbox)',
	{ timeout: JOURNEY_TIMEOUT },
	() => w(env),
);

test(
	"x. events by clicking: the example send, its mail opened in the emulator's mail log, Opened clicked, the example's execution on its Opened branch",
	{ timeout: JOURNEY_TIMEOUT },
	() => x(env),
);

test(
	"y. the user's first own trigger publishes while the demo's example holds the address; its outputs read whole before any is connected",
	{ timeout: JOURNEY_TIMEOUT },
	() => y(env),
);

test(
	"z. canvas subtitles in the panel's words: Send, Send and Wait for Response, Create or Update: Contact",
	{ timeout: JOURNEY_TIMEOUT },
	() => z(env),
);

test(
	"u. the emulator's address as npm start prints it: a page leading to the mail log and the settings (latency and the rest), which a person changes",
	{ timeout: JOURNEY_TIMEOUT },
	() => u(env),
);

test(
	'ab. time runs out on Send and Wait: the waiting node says "after 1 minute", Approve opened after the limit says when the time to answer ended, the next node reads timedOut',
	{ timeout: JOURNEY_TIMEOUT },
	() => ab(env),
);
