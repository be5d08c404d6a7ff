// The editor in a real browser: its journeys, one after another, on one n8n with the demo and one Chromium (set-up:
// browser/suite.mjs). Screenshots: .tmp/browser/<journey>/.
import { browserSuite } from './browser/suite.mjs';
import { n } from './browser/approval.mjs';
import { ab, u } from './browser/bad-day.mjs';
import { ac, ad } from './browser/busy-platform.mjs';
import { t } from './browser/human-review.mjs';
import { a, b, c, d, e, f, g, h, i, j, k, l, m } from './browser/journeys.mjs';
import { o, p, q, r } from './browser/newcomer.mjs';
import { s } from './browser/repeated-events.mjs';
import { v, w, x, y, z } from './browser/second-hour.mjs';

browserSuite([
	[
		"a. sign in, run the two manual examples and read their output, see the trigger example's executions by kind",
		a,
	],
	[
		'b. a new workflow: Code → Mail Delivery Send with pickers, drag and drop into To and a tag value, execute',
		b,
	],
	[
		'c. On Error: error output routes the bad item, regular output keeps it, Stop Workflow says what was not sent',
		c,
	],
	[
		'd. the trigger panel: Registration, Manual fields (the Secret says it is required), one output per kind, a test listen while the example holds the address (it gives way)',
		d,
	],
	[
		'e. the three credential dialogs: wrong secrets explained, the authorization code fetched from the URL the dialog shows',
		e,
	],
	["f. Webhook → Save refuses to take a trigger's address unless the Replace option is on", f],
	[
		"g. a second trigger published in the editor while the user's first holds the address: refused fast, by workflow name",
		g,
	],
	[
		'h. tags pasted into Template → Create (n8n stores them as an expression) reach the platform as tags',
		h,
	],
	[
		'i. the node creator: On any event, Send transactional mail first; Campaign → Create lists its lists on first open; Custom API Call',
		i,
	],
	[
		'j. no label cut: the trigger outputs on the canvas, the send panel as a desktop browser draws it with every field hovered',
		j,
	],
	[
		"k. the send says what it cannot: tags without a value fail by default (the error names the tag, the item and its values), Send With the Tag Empty sends them (output, hint, the emulator's mail log), Email Field named in the error, fields before the first run",
		k,
	],
	[
		"l. the example's Tag Values → Name shows its mode, Import's Add to List offers a new list, the node creator's entry speaks of actions and events",
		l,
	],
	[
		'm. a field only n8n can evaluate over 150 items: the output panel names it and the faster way; an operation run item by item offers Requests in Parallel (no Max in Parallel; added, it shows 0, following the platform) and Redo After a Crash',
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
		'w. the mail before it goes out: Send with Sandbox Mode shows each mail with its tags filled, the output opening on it (not on Binary), its first columns in the Table view; the canvas subtitle reads Send (sandbox)',
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
	[
		"ac. a busy platform: the person sets the emulator's rate limit, a send of 3,000 runs; the output panel says it was paced after a 429 and how many went at once, the next run that it was paced from the start; each customer one mail a run",
		ac,
	],
	[
		"ad. answers that vary: the person sets the emulator's latency to 20 ms and its jitter to 300 ms, 300 contacts are saved; the output panel says the answers were the platform's own time, not a queue, and the number went back up; each contact saved once",
		ad,
	],
]);
