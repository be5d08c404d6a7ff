/**
 * `npm run emulator`: the emulator on its own, printing its address and seeded credentials, then each mail it
 * accepts (as `npm start` shows them). `EMULATOR_DISTANCE_MS=150` serves the platform over HTTPS as if it were
 * 150 ms away (a round trip; `EMULATOR_HTTPS=1` alone: HTTPS on this machine); the control interface and the mail
 * log stay plain HTTP on `EMULATOR_CONTROL_PORT` (any free port by default).
 */
import { type Emulator, startEmulator } from './server.cts';
import type { MailRecord } from './types.cts';

/** Lines printed per batch of mails; the rest are counted, and the mail log has them all. */
const MAILS_SHOWN = 5;

function mailLine(mail: MailRecord, index: number, base: string): string {
	const content = mail.templateName ? `template ${mail.templateName}` : 'HTML';
	const values = Object.entries(mail.params ?? {})
		.map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
		.join(', ');
	const empty = mail.missingTags?.length ? `  tags left empty: ${mail.missingTags.join(', ')}` : '';
	return `  ${mail.email}  "${mail.subject}"  (${content}${values ? `; ${values.slice(0, 120)}` : ''})${empty}  ${base}/mails/${index}`;
}

/** Prints the mails the emulator accepted since the last look, a few at a time: what each recipient would read. */
function watchMails(emulator: Emulator) {
	let mails: MailRecord[] = emulator.state.mails;
	let printed = 0;
	const timer = setInterval(() => {
		// A reset starts a new list.
		if (emulator.state.mails !== mails) [mails, printed] = [emulator.state.mails, 0];
		const fresh = mails.slice(printed);
		if (fresh.length === 0) return;
		const first = printed;
		printed = mails.length;
		const lines = fresh
			.slice(0, MAILS_SHOWN)
			.map((mail, i) => mailLine(mail, first + i, emulator.controlUrl));
		if (fresh.length > MAILS_SHOWN)
			lines.push(
				`  … and ${fresh.length - MAILS_SHOWN} more: ${emulator.controlUrl}/__control/mails`,
			);
		console.log(
			`Emulator accepted ${fresh.length} mail${fresh.length === 1 ? '' : 's'}:\n${lines.join('\n')}`,
		);
	}, 1000);
	timer.unref();
}

async function main() {
	const port = Number(process.env.EMULATOR_PORT ?? 3789);
	const distanceMs = Number(process.env.EMULATOR_DISTANCE_MS ?? 0);
	const emulator = await startEmulator({
		port,
		messages: process.env.EMULATOR_MESSAGES === 'en' ? 'en' : 'zh',
		https: distanceMs > 0 || process.env.EMULATOR_HTTPS === '1',
		distanceMs,
		controlPort: Number(process.env.EMULATOR_CONTROL_PORT ?? 0),
	});
	const control = emulator.controlUrl;
	const a = emulator.account;
	if (process.env.EMULATOR_JSON === '1') {
		// One machine-readable line for scripts that start the emulator as a child process.
		console.log(
			JSON.stringify({
				url: emulator.url,
				controlUrl: control,
				certificateFile: emulator.certificateFile,
				distanceMs,
				account: a,
				redirectUri: emulator.redirectUri,
			}),
		);
	} else {
		console.log(`Mail delivery platform emulator listening on ${emulator.url}
  Signature credential:          Base URL ${emulator.url}  API Key ${a.apiKey}  API Secret ${a.apiSecret}
  OAuth2 client credentials:     Base URL ${emulator.url}  API Key ${a.apiKey}  API Secret ${a.apiSecret}
  OAuth2 authorization code:     Base URL ${emulator.url}  Client ID ${a.clientId}  Client Secret ${a.clientSecret}
                                 Redirect URI ${emulator.redirectUri}
  Get a code: ${emulator.url}/v5/auth/oauth/authorize?client_id=${a.clientId}&response_type=code&redirect_uri=${encodeURIComponent(emulator.redirectUri)}&scope=All
  Control interface: ${control}/__control/state, mail log ${control}/mails (JSON: ${control}/__control/mails; see CONTRIBUTING.md, "The emulator")${
		emulator.certificateFile
			? `
  HTTPS with a certificate made now (trust it: NODE_EXTRA_CA_CERTS=${emulator.certificateFile}), the platform ${distanceMs} ms away (a round trip, handshakes included)`
			: ''
	}
Press Ctrl-C to stop.`);
	}
	if (process.env.EMULATOR_JSON !== '1' || process.env.EMULATOR_MAIL_LOG === '1')
		watchMails(emulator);
	const stop = async () => {
		await emulator.stop();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

void main();
