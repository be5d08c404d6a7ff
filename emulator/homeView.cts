/**
 * The emulator's own pages for a person: its address (the one `npm start` prints) leads to the mail log and the
 * settings, instead of the platform's JSON 404; the settings page shows each setting with what it does and
 * changes them with a form (the same as POST /__control/settings, which scripts use).
 */
import type http from 'node:http';

import { control, type Controlled } from './control.cts';

const escape = (text: string) =>
	text.replace(
		/[&<>"]/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string,
	);

const STYLE =
	'body{font-family:Arial,sans-serif;margin:24px;max-width:860px;color:#222}td,th{padding:6px 10px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}code{background:#f2f3f5;padding:1px 4px}input,select{width:110px}';

function page(title: string, body: string): string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>${escape(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function send(res: http.ServerResponse, status: number, body: string) {
	res.writeHead(status, {
		'Content-Type': 'text/html; charset=utf-8',
		'Content-Length': Buffer.byteLength(body),
	});
	res.end(body);
}

function homePage(target: Controlled): string {
	const { state } = target;
	const address = state.webhook.transCallbackUrl;
	return page(
		'Platform emulator',
		`<h1>Platform emulator</h1><p>A stand-in for the mail platform's v5 API (<code>/v5/…</code>), which n8n's Mail Delivery nodes call here. It sends no real mail: it keeps each accepted mail in its log and pushes the platform's events to the account's push address.</p>
<ul>
<li><a href="/mails">Mail log</a>: ${state.mails.length} mail${state.mails.length === 1 ? '' : 's'} accepted; open one to read it as its recipient does and push its events (Opened, Clicked a link, Unsubscribed, Marked as spam, Bounced).</li>
<li><a href="/settings">Settings</a>: latency, rate limit, outages, messages in English or Chinese, click tracking, push time-out.</li>
<li>The account's push address: ${address ? escape(withoutQuery(address)) : 'none (publish a workflow with a Mail Delivery Trigger)'}.</li>
<li>For scripts, in JSON: <a href="/__control/state">/__control/state</a> (senders, templates, lists, the webhook configuration), <a href="/__control/account">/__control/account</a> (the seeded credentials), <a href="/__control/mails">/__control/mails</a>.</li>
</ul>`,
	);
}

const withoutQuery = (url: string) => {
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}`;
	} catch {
		return '(an address that cannot be read)';
	}
};

type Field =
	| { name: string; label: string; does: string; kind: 'number'; value: number }
	| { name: string; label: string; does: string; kind: 'choice'; value: string; choices: string[] };

function fields({ network, pushes, settings, state }: Controlled): Field[] {
	const number = (name: string, label: string, value: number, does: string): Field => ({
		name,
		label,
		does,
		kind: 'number',
		value,
	});
	return [
		number(
			'latencyMs',
			'Latency (ms)',
			network.settings.latencyMs,
			'Waited before each /v5 request is answered, as a platform far away.',
		),
		number(
			'latencyJitterMs',
			'Latency jitter (ms)',
			network.settings.latencyJitterMs,
			'Up to this much more latency, at random.',
		),
		number(
			'rateLimitPerSecond',
			'Rate limit (requests per second)',
			network.settings.rateLimitPerSecond,
			'Requests above it get HTTP 429 with Retry-After, unprocessed. 0: no limit.',
		),
		number(
			'unavailableEvery',
			'Unavailable every Nth request',
			network.settings.unavailableEvery,
			'Every Nth /v5 request gets HTTP 503 with Retry-After: 1, unprocessed. 0: never.',
		),
		number(
			'pushTimeoutMs',
			'Push time-out (ms)',
			pushes.answerTimeoutMs,
			"How long the platform waits for a push address's answer before it sends the push again.",
		),
		{
			name: 'messages',
			label: 'Messages',
			does: 'The language of error messages: Chinese as the platform sends them, or English.',
			kind: 'choice',
			value: settings.messages,
			choices: ['zh', 'en'],
		},
		{
			name: 'errorHttpStatus',
			label: 'Business errors',
			does: 'ok: HTTP 200 with the code in the body, as the platform answers; mirror: the HTTP status is the code.',
			kind: 'choice',
			value: settings.errorHttpStatus,
			choices: ['ok', 'mirror'],
		},
		{
			name: 'clickTrackingByDefault',
			label: 'Click tracking by default',
			does: 'on: a send without trackClick has its links rewritten to tracking addresses.',
			kind: 'choice',
			value: state.clickTrackingByDefault ? 'on' : 'off',
			choices: ['off', 'on'],
		},
	];
}

function input(field: Field): string {
	if (field.kind === 'number')
		return `<input type="number" min="0" name="${field.name}" id="${field.name}" value="${field.value}">`;
	const options = field.choices
		.map(
			(choice) =>
				`<option value="${choice}"${choice === field.value ? ' selected' : ''}>${choice}</option>`,
		)
		.join('');
	return `<select name="${field.name}" id="${field.name}">${options}</select>`;
}

function settingsPage(target: Controlled, saved: boolean): string {
	const rows = fields(target)
		.map(
			(field) =>
				`<tr><td><label for="${field.name}">${escape(field.label)}</label></td><td>${input(field)}</td><td>${escape(field.does)}</td></tr>`,
		)
		.join('');
	return page(
		'Emulator settings',
		`<p><a href="/">Platform emulator</a> · <a href="/mails">Mail log</a></p><h1>Settings</h1>${saved ? '<p id="saved"><b>Saved.</b> They hold until the emulator restarts.</p>' : ''}<p>How the emulator plays the platform, for trying the nodes under a slow or failing platform. Scripts set these and more (faults on chosen requests, page sizes, refused values) with <code>POST /__control/settings</code> and <code>/__control/fault</code>: CONTRIBUTING.md, "The emulator".</p><form method="post" action="/settings"><table><tr><th>Setting</th><th>Value</th><th>What it does</th></tr>${rows}</table><p><button type="submit">Save</button></p></form>`,
	);
}

/** The settings form as /__control/settings takes them: numbers as numbers, switches as booleans. */
function settingsOf(raw: string, target: Controlled): Record<string, unknown> {
	const form = new URLSearchParams(raw);
	const values: Record<string, unknown> = {};
	for (const field of fields(target)) {
		const given = form.get(field.name);
		if (given === null) continue;
		if (field.kind === 'number') {
			const value = Number(given);
			if (Number.isFinite(value) && value >= 0) values[field.name] = value;
		} else if (field.choices.includes(given))
			values[field.name] = field.name === 'clickTrackingByDefault' ? given === 'on' : given;
	}
	return values;
}

/** The emulator's pages: GET /, GET and POST /settings. False when the request is not one of them. */
export async function homeView(
	req: http.IncomingMessage,
	url: URL,
	raw: string,
	res: http.ServerResponse,
	target: Controlled,
): Promise<boolean> {
	if (req.method === 'GET' && url.pathname === '/') send(res, 200, homePage(target));
	else if (req.method === 'GET' && url.pathname === '/settings')
		send(res, 200, settingsPage(target, url.searchParams.has('saved')));
	else if (req.method === 'POST' && url.pathname === '/settings') {
		const body = JSON.stringify(settingsOf(raw, target));
		await control(target, new URL('/__control/settings', url), body, 'POST');
		res.writeHead(303, { Location: '/settings?saved=1' });
		res.end();
	} else return false;
	return true;
}
