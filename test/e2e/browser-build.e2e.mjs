// The editor in a real browser, first part: signing in, building workflows, the trigger panel, the credential dialogs,
// pickers, the node creator, labels, errors (set-up: browser/suite.mjs; the other part: browser-run.e2e.mjs).
import { browserSuite } from './browser/suite.mjs';
import { a, b, c, d, e, f, g, h, i, j, k, l } from './browser/journeys.mjs';

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
]);
