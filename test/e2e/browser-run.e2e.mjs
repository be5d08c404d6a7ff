// The editor in a real browser, second part: runs and what they show (a person in the loop, numbers and words, text
// bodies, the README's pictures, sandbox, events by clicking, time running out; set-up: browser/suite.mjs; the
// other part: browser-build.e2e.mjs).
import { browserSuite } from './browser/suite.mjs';
import { n } from './browser/approval.mjs';
import { ab, u } from './browser/bad-day.mjs';
import { t } from './browser/human-review.mjs';
import { m } from './browser/journeys.mjs';
import { o, p, q, r } from './browser/newcomer.mjs';
import { s } from './browser/repeated-events.mjs';
import { v, w, x, y, z } from './browser/second-hour.mjs';

browserSuite([
	[
		'm. a field only n8n can evaluate over 150 items: the output panel names it and the faster way; an operation run item by item offers Requests in Parallel and Redo After a Crash',
		m,
	],
	[
		'n. a person in the loop: Send and Wait for Response found by searching "approval", the run waits, the approver opens the mail from the emulator\'s mail log, approves on the page, the execution goes on in the editor',
		n,
	],
	[
		'o. numbers as a CRM gives them: a phone number that is a number saves the contact with its digits; one beyond 2^53 is refused, naming the field and why',
		o,
	],
	[
		'p. words: a tag typed into Subject (red, [undefined]) and the hint that says so; Contact → Get of an unknown address says the likely cause in English',
		p,
	],
	[
		'q. a text body: Content Source Text sends the text as safe HTML; Campaign → Create offers Body Format Text',
		q,
	],
	[
		"r. the README's pictures, taken from the editor as it is: the send panel after a run, the trigger's outputs (docs/images/)",
		r,
	],
	[
		"s. the trigger's Options offer Ignore Repeated Events: on when added, its tooltip says what it does, no label cut",
		s,
	],
	[
		"t. Send and Wait for Response once set up: the Options a person in the loop needs in front and two explained groups, n8n's labels, the waiting node saying whom it asked and that it has no time limit, a double click on the approver's page, the link while the run goes on and after",
		t,
	],
	[
		'v. one rule for a bad item: Create or Update with one phone number above 2^53 among three writes nothing; three items without the tag promise nothing of the others',
		v,
	],
	[
		'w. the mail before it goes out: Send with Sandbox Mode shows each mail with its tags filled, the output opening on it (not on Binary); the canvas subtitle reads Send (sandbox)',
		w,
	],
	[
		"x. events by clicking: the example send, its mail opened in the emulator's mail log, Opened clicked, the example's execution on its Opened branch",
		x,
	],
	[
		"y. the user's first own trigger publishes while the demo's example holds the address; its outputs read whole before any is connected",
		y,
	],
	[
		"z. canvas subtitles in the panel's words: Send, Send and Wait for Response, Create or Update: Contact",
		z,
	],
	[
		"u. the emulator's address as npm start prints it: a page leading to the mail log and the settings (latency and the rest), which a person changes",
		u,
	],
	[
		'ab. time runs out on Send and Wait: the waiting node says "after 1 minute", Approve opened after the limit says when the time to answer ended, the next node reads timedOut',
		ab,
	],
]);
