/**
 * The mail log as a person reads it: each accepted message's body as its recipient gets it, and the platform's
 * click tracking. With click tracking on (trackClick 1, or no trackClick and the setting `clickTrackingByDefault`),
 * the platform rewrites every link of the HTML to its own tracking address, except a link with the attribute
 * `ef:disable-tracking` (API 4.6), which it leaves exactly as written. A tracking address records a Clicked event
 * and redirects to the link.
 *
 * Pages (HTML, outside /v5): GET /mails (the log), GET /mails/<n> (message n, counted from 0 as in
 * /__control/mails), GET /t/<n>/<k> (the tracking address of link k of message n). The mail page's buttons
 * (POST /mails/<n>/events) fire an event of that mail, pushed at once, as its recipient or their mail server
 * would cause it: the demo's way to see the trigger's branches without the control interface.
 */
import type http from 'node:http';

import type { Delivery } from './delivery.cts';
import type { DiscardRecord, PushDispatcher } from './pushes.cts';
import type { State } from './state.cts';
import type { MailRecord } from './types.cts';

const LINK = /<a\b([^>]*?)\shref\s*=\s*("([^"]*)"|'([^']*)')([^>]*)>/gi;

/**
 * A message's body with its links as the platform sends them: tracked links point to the platform's tracking
 * address (relative to the platform), `ef:disable-tracking` ones are untouched. `links` gets the originals.
 */
export function trackedBody(html: string, mailIndex: number, links: string[]): string {
	return html.replace(LINK, (whole, before: string, _quoted, double, single, after: string) => {
		if (/\sef:disable-tracking\b/i.test(` ${before} ${after}`)) return whole;
		const original = (double ?? single ?? '').replace(/&amp;/g, '&');
		links.push(original);
		return `<a${before} href="/t/${mailIndex}/${links.length - 1}"${after}>`;
	});
}

const escape = (text: string) =>
	text.replace(
		/[&<>"]/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string,
	);

function html(res: http.ServerResponse, status: number, body: string) {
	res.writeHead(status, {
		'Content-Type': 'text/html; charset=utf-8',
		'Content-Length': Buffer.byteLength(body),
	});
	res.end(body);
}

function logPage(mails: MailRecord[]): string {
	const rows = mails
		.map(
			(mail, index) =>
				`<tr><td>${index}</td><td>${escape(mail.email)}</td><td><a href="/mails/${index}">${escape(mail.subject || '(no subject)')}</a></td><td>${escape(mail.templateName ? `template ${mail.templateName}` : 'HTML')}</td></tr>`,
		)
		.reverse()
		.join('');
	return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Mail log</title><style>body{font-family:Arial,sans-serif;margin:24px}td,th{padding:6px 10px;border-bottom:1px solid #ddd;text-align:left}</style></head><body><p><a href="/">Platform emulator</a> · <a href="/settings">Settings</a></p><h1>Mail log</h1><p>${mails.length} message${mails.length === 1 ? '' : 's'} accepted, newest first.</p><table><tr><th>#</th><th>To</th><th>Subject</th><th>Content</th></tr>${rows}</table></body></html>`;
}

/** The events the mail page fires, with their buttons' words: what a recipient does, and a late bounce. */
export const EVENT_BUTTONS: Array<[kind: string, label: string]> = [
	['Opened', 'Opened'],
	['Clicked', 'Clicked a link'],
	['Unsubscribed', 'Unsubscribed'],
	['SpamReport', 'Marked as spam'],
	['Bounced', 'Bounced'],
];

const BAR =
	'font-family:Arial,sans-serif;font-size:13px;padding:8px 16px;border-bottom:1px solid #ccc';

function mailPage(mail: MailRecord, index: number, result?: string): string {
	const header = `<div style="${BAR};background:#eef0f3"><a href="/mails">Mail log</a> · message ${index} · To: <b>${escape(mail.email)}</b> · Subject: <b id="mail-subject">${escape(mail.subject)}</b></div>`;
	const buttons = EVENT_BUTTONS.map(
		([kind, label]) =>
			`<button type="submit" name="kind" value="${kind}" style="margin-left:6px">${label}</button>`,
	).join('');
	const events = `<form method="post" action="/mails/${index}/events" style="${BAR};background:#f7f7f9;margin:0">Push an event of this mail to the account's push address:${buttons}${result ? `<div id="event-result" style="margin-top:6px"><b>${escape(result)}</b></div>` : ''}</form>`;
	return `${header}${events}${mail.html ?? `<pre>${escape(mail.content ?? '')}</pre>`}`;
}

/** Answers a mail log page or a tracking address; false when the path is none of them. */
export function mailView(
	url: URL,
	res: http.ServerResponse,
	{ state, delivery }: { state: State; delivery: Delivery },
): boolean {
	if (url.pathname === '/mails') {
		html(res, 200, logPage(state.mails));
		return true;
	}
	const shown = /^\/mails\/(\d+)$/.exec(url.pathname);
	if (shown) {
		const mail = state.mails[Number(shown[1])];
		const result = url.searchParams.get('result') ?? undefined;
		html(
			res,
			mail ? 200 : 404,
			mail ? mailPage(mail, Number(shown[1]), result) : 'No such message',
		);
		return true;
	}
	const tracked = /^\/t\/(\d+)\/(\d+)$/.exec(url.pathname);
	if (!tracked) return false;
	const mail = state.mails[Number(tracked[1])];
	const link = mail?.trackedLinks?.[Number(tracked[2])];
	if (!mail || link === undefined) {
		html(res, 404, 'No such link');
		return true;
	}
	try {
		delivery.causeEventOf('Clicked', mail.email, mail.identity, { Link: link });
	} catch {
		// A message never delivered (scheduled later) has no click to record; the link still opens.
	}
	res.writeHead(302, { Location: link });
	res.end();
	return true;
}

const KINDS = new Set(EVENT_BUTTONS.map(([kind]) => kind));

/** The first link of a mail, as the recipient would click it. */
function firstLink(mail: MailRecord): string | undefined {
	if (mail.trackedLinks?.length) return mail.trackedLinks[0];
	const found = /<a\b[^>]*?\shref\s*=\s*("([^"]*)"|'([^']*)')/i.exec(mail.html ?? '');
	return found ? (found[2] ?? found[3]).replace(/&amp;/g, '&') : undefined;
}

const DISCARDED: Record<DiscardRecord['reason'], (kind: string) => string> = {
	'no address': () =>
		'the account has no push address (publish a workflow with a Mail Delivery Trigger)',
	'kind switched off': (kind) =>
		`the account does not push ${kind} events (a trigger that chose them switches them on)`,
	'push disabled': () => "the account's pushes are switched off (transEnable)",
};

/** What became of the event just caused: pushed (where, and the receiver's answer), or why not. */
function pushOutcome(
	kind: string,
	pushes: PushDispatcher,
	before: { pushes: number; discarded: number },
	hasAddress: boolean,
) {
	const pushed = pushes.pushes.slice(before.pushes);
	if (pushed.length > 0)
		return pushed
			.map((push) => {
				const to = withoutQuery(push.url);
				return push.ok
					? `${kind} pushed to ${to}: answered ${push.status}`
					: `${kind} pushed to ${to}, which did not take it: ${push.error ?? `answered ${push.status}`}`;
			})
			.join('; ');
	const discarded = pushes.discarded.slice(before.discarded)[0];
	if (!discarded) return `${kind} recorded; not pushed yet`;
	// Switched off and without an address (the account as seeded): the missing address is what to fix.
	const reason =
		discarded.reason === 'push disabled' && !hasAddress ? 'no address' : discarded.reason;
	return `${kind} not pushed: ${DISCARDED[reason](kind)}`;
}

const withoutQuery = (url: string) => {
	try {
		const parsed = new URL(url);
		return `${parsed.origin}${parsed.pathname}`;
	} catch {
		return '(an address that cannot be read)';
	}
};

/**
 * A button of the mail page (POST /mails/<n>/events, form field `kind`): the event is caused on that mail and
 * pushed at once, then the page shows where it went. False when the path is not one.
 */
export async function mailEvent(
	url: URL,
	raw: string,
	res: http.ServerResponse,
	{ state, delivery, pushes }: { state: State; delivery: Delivery; pushes: PushDispatcher },
): Promise<boolean> {
	const path = /^\/mails\/(\d+)\/events$/.exec(url.pathname);
	if (!path) return false;
	const index = Number(path[1]);
	const mail = state.mails[index];
	const kind = new URLSearchParams(raw).get('kind') ?? '';
	if (!mail) html(res, 404, 'No such message');
	else if (!KINDS.has(kind)) html(res, 400, `No event of kind ${escape(kind)} can be fired here`);
	else if (!delivery.delivered(mail.email, mail.identity))
		html(
			res,
			409,
			`Message ${index} was not delivered to ${escape(mail.email)} (it is due later, or it was dropped or bounced): it has no ${escape(kind)} event to push.`,
		);
	else {
		const before = { pushes: pushes.pushes.length, discarded: pushes.discarded.length };
		const link = kind === 'Clicked' ? firstLink(mail) : undefined;
		delivery.causeEventOf(kind, mail.email, mail.identity, link ? { Link: link } : {});
		await pushes.flush();
		const { transCallbackUrl, transCallbackUrlExtra } = state.webhook;
		const result = pushOutcome(
			kind,
			pushes,
			before,
			!!transCallbackUrl || (transCallbackUrlExtra ?? []).length > 0,
		);
		res.writeHead(303, { Location: `/mails/${index}?result=${encodeURIComponent(result)}` });
		res.end();
	}
	return true;
}
