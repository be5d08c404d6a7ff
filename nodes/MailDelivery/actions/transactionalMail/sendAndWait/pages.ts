/**
 * The pages a person sees after opening a response link: a confirmation page with one button (a POST: link
 * scanners, which open links but do not submit forms, record nothing), the answer recorded, and the refusals.
 * Self-contained HTML without scripts, sent with the sandboxing header n8n sends with its own form pages.
 */
import { escapeHtml, messageHtml } from './html';
import type { Button } from './mail';

/** n8n's Content-Security-Policy for pages it serves from webhooks (n8n-core getHtmlSandboxCSP, 2.41). */
export const SANDBOX_CSP =
	'sandbox allow-downloads allow-forms allow-modals allow-orientation-lock allow-pointer-lock allow-popups allow-popups-to-escape-sandbox allow-presentation allow-scripts allow-top-navigation-by-user-activation allow-top-navigation-to-custom-protocols';

const STYLE = `*{box-sizing:border-box}body{margin:0;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#2d2e33}
.card{max-width:480px;margin:48px auto;background:#fff;border:1px solid #dbdfe7;border-radius:8px;padding:28px;text-align:center}
h1{font-size:20px;font-weight:normal;margin:0 0 12px}p{font-size:14px;line-height:21px;color:#5c5f66;margin:0 0 16px}
.message{text-align:left;color:#2d2e33;border-top:1px solid #eceef2;padding-top:16px}
button{border-radius:6px;padding:12px 28px;font-size:15px;font-weight:bold;cursor:pointer;border:1px solid #ff6d5a;background:#ff6d5a;color:#fff}
button.secondary{background:#fff;color:#3a3a3a;border-color:#c9ccd3}`;

/** A whole page: its title, and its body's HTML (already escaped). */
function page(title: string, body: string): string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1.0"><meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><div class="card">${body}</div></body></html>`;
}

const notice = (title: string, text: string) =>
	page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);

/**
 * Approve or Disapprove, confirmed with one click. The form posts to the page's own address (the signed link),
 * so the POST carries the same signature and token as the link.
 */
export function confirmationPage(
	subject: string,
	message: string,
	button: Pick<Button, 'label' | 'style'>,
): string {
	return page(
		button.label,
		`<h1>${escapeHtml(subject)}</h1><form method="POST"><button type="submit" class="${button.style}">${escapeHtml(button.label)}</button></form><p style="margin-top:16px">Your answer is recorded when you click.</p><div class="message"><p>${messageHtml(message)}</p></div>`,
	);
}

// n8n answers the links itself while the resumed run runs (a 409 in JSON): the person is told beforehand.
export const RECORDED_PAGE = notice(
	'Got it, thanks',
	"Your answer is recorded. Opening the mail's links again changes nothing (while the workflow goes on, n8n may show a technical message instead). This page can be closed now.",
);

/** A second answer a moment after the first (answered.ts): n8n would otherwise answer it with an error. */
export const ANSWERED_PAGE = notice(
	'No action required',
	'An answer to this request was recorded a moment ago, so this one was not.',
);

export const OTHER_WAIT_PAGE = notice(
	'No action required',
	'This request was answered already, or a newer request replaced it: your answer was not recorded.',
);

export const INVALID_LINK_PAGE = notice(
	'This link is not valid',
	'The link was changed or is incomplete, so nothing was recorded. Open the link from the mail again.',
);

export const UNCHECKED_PAGE = notice(
	'This link could not be checked',
	'n8n could not read the request this link answers, so nothing was recorded. Try again later.',
);

export const INCOMPLETE_FORM_PAGE = notice(
	'The answer is incomplete',
	'The form was sent without its answers, so nothing was recorded. Open the link from the mail again.',
);

/** An answer after the time limit: the run goes on (or went on) without it. */
export const timeEndedPage = (limit: string) =>
	notice(
		'The time to answer has ended',
		`This request could be answered until ${limit}. Your answer came later and was not recorded: the workflow goes on without it.`,
	);

/** What a link scanner or preview service gets: nothing to record, nothing to follow. */
export const EMPTY_PAGE = page('Mail Delivery', '');
