/** `npm run emulator`: the emulator on its own, printing its address and seeded credentials. */
import { startEmulator } from './server';

async function main() {
	const port = Number(process.env.EMULATOR_PORT ?? 3789);
	const emulator = await startEmulator({
		port,
		messages: process.env.EMULATOR_MESSAGES === 'en' ? 'en' : 'zh',
	});
	const a = emulator.account;
	if (process.env.EMULATOR_JSON === '1') {
		// One machine-readable line for scripts that start the emulator as a child process.
		console.log(
			JSON.stringify({ url: emulator.url, account: a, redirectUri: emulator.redirectUri }),
		);
	} else {
		console.log(`Mail delivery platform emulator listening on ${emulator.url}
  Signature credential:          Base URL ${emulator.url}  API Key ${a.apiKey}  API Secret ${a.apiSecret}
  OAuth2 client credentials:     Base URL ${emulator.url}  API Key ${a.apiKey}  API Secret ${a.apiSecret}
  OAuth2 authorization code:     Base URL ${emulator.url}  Client ID ${a.clientId}  Client Secret ${a.clientSecret}
                                 Redirect URI ${emulator.redirectUri}
  Get a code: ${emulator.url}/v5/auth/oauth/authorize?client_id=${a.clientId}&response_type=code&redirect_uri=${encodeURIComponent(emulator.redirectUri)}&scope=All
  Control interface: ${emulator.url}/__control/state (see CONTRIBUTING.md, "The emulator")
Press Ctrl-C to stop.`);
	}
	const stop = async () => {
		await emulator.stop();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

void main();
