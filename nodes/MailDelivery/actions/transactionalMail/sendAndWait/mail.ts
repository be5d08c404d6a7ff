/**
 * The approval mail's HTML: tables and inline styles, as mail clients (Outlook's Word engine included) show them,
 * the message escaped, and buttons that are plain links. Every link carries `ef:disable-tracking`, so the
 * platform neither rewrites it for click tracking nor touches it (API 4.6): a response link must reach n8n as it
 * was signed.
 */
import { escapeHtml, messageHtml } from './html';

export interface Button {
	label: string;
	url: string;
	style: 'primary' | 'secondary';
}

const BUTTON_STYLES = {
	primary:
		'display:inline-block;background-color:#ff6d5a;color:#ffffff;border:1px solid #ff6d5a;border-radius:6px;padding:12px 24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;font-weight:bold;line-height:20px;text-decoration:none;min-width:110px;text-align:center;',
	secondary:
		'display:inline-block;background-color:#ffffff;color:#3a3a3a;border:1px solid #c9ccd3;border-radius:6px;padding:12px 24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;font-weight:bold;line-height:20px;text-decoration:none;min-width:110px;text-align:center;',
};

/** A link the platform leaves alone: no click tracking, no rewriting. */
const untrackedLink = (url: string, text: string, style: string) =>
	`<a ef:disable-tracking href="${escapeHtml(url)}" target="_blank" rel="noopener" style="${style}">${escapeHtml(text)}</a>`;

const buttonCell = (button: Button) =>
	`<td style="padding:6px;">${untrackedLink(button.url, button.label, BUTTON_STYLES[button.style])}</td>`;

const ATTRIBUTION = `<tr><td align="center" style="padding:16px 8px 0;font-family:Arial,Helvetica,sans-serif;font-size:12px;color:#8a8d93;">This message was sent automatically with ${untrackedLink('https://n8n.io/', 'n8n', 'color:#8a8d93;text-decoration:underline;')}</td></tr>`;

/** The whole mail: the message, the buttons in one row, an optional attribution line. */
export function approvalMailHtml(options: {
	subject: string;
	message: string;
	buttons: Button[];
	attribution: boolean;
}): string {
	const { subject, message, buttons, attribution } = options;
	return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1.0"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background-color:#f4f5f7;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f5f7;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:520px;background-color:#ffffff;border:1px solid #dbdfe7;border-radius:8px;">
<tr><td style="padding:28px 28px 8px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:22px;color:#2d2e33;">${messageHtml(message)}</td></tr>
<tr><td align="center" style="padding:16px 22px 28px;"><table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>${buttons.map(buttonCell).join('')}</tr></table></td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:520px;">${attribution ? ATTRIBUTION : ''}</table>
</td></tr></table>
</body></html>`;
}
