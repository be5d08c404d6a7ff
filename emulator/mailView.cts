/**
 * The mail log as a person reads it: each accepted message's body as its recipient gets it, and the platform's
 * click tracking. With click tracking on (trackClick 1, or no trackClick and the setting `clickTrackingByDefault`),
 * the platform rewrites every link of the HTML to its own tracking address, except a link with the attribute
 * `ef:disable-tracking` (API 4.6), which it leaves exactly as written. A tracking address records a Clicked event
 * and redirects to the link.
 *
 * Pages (HTML, outside /v5): GET /mails (the log), GET /mails/<n> (message n, counted from 0 as in
 * /__control/mails), GET /t/<n>/<k> (the tracking address of link k of message n).
 */
import type http from 'node:http';

import type { Delivery } from './delivery.cts';
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
	return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><title>Mail log</title><style>body{font-family:Arial,sans-serif;margin:24px}td,th{padding:6px 10px;border-bottom:1px solid #ddd;text-align:left}</style></head><body><h1>Mail log</h1><p>${mails.length} message${mails.length === 1 ? '' : 's'} accepted, newest first.</p><table><tr><th>#</th><th>To</th><th>Subject</th><th>Content</th></tr>${rows}</table></body></html>`;
}

function mailPage(mail: MailRecord, index: number): string {
	const header = `<div style="font-family:Arial,sans-serif;font-size:13px;padding:10px 16px;background:#eef0f3;border-bottom:1px solid #ccc"><a href="/mails">Mail log</a> · message ${index} · To: <b>${escape(mail.email)}</b> · Subject: <b id="mail-subject">${escape(mail.subject)}</b></div>`;
	return `${header}${mail.html ?? `<pre>${escape(mail.content ?? '')}</pre>`}`;
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
		html(res, mail ? 200 : 404, mail ? mailPage(mail, Number(shown[1])) : 'No such message');
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
		delivery.causeEvent('Clicked', mail.email, { Link: link });
	} catch {
		// A message never delivered (scheduled later) has no click to record; the link still opens.
	}
	res.writeHead(302, { Location: link });
	res.end();
	return true;
}
