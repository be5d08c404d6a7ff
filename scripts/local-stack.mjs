// What `npm start` and `npm run dev` share: the emulator, real n8n with the built package, the demo (owner,
// credentials for the three schemes, the example workflows) and the banner that says where everything is.
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';

import { setupDemo, startDemoEmulator } from './demo.mjs';
import { root } from './ensure-deps.mjs';
import { lineOf, paths } from './n8n-install.mjs';
import { OWNER, setupOwner, startN8n } from './n8n-runtime.mjs';

/**
 * Starts the emulator and n8n (the line of N8N_LINE) on the ports of N8N_PORT and EMULATOR_PORT, with n8n's data
 * in the line's user folder (or N8N_USER_FOLDER) and its log beside it, and sets up the demo.
 * `restartN8n()` stops n8n and starts it again with dist/ as it is now (startN8n copies it in, as an install
 * does); `stop()` stops both.
 */
export async function startLocalStack() {
	const line = lineOf(process.env.N8N_LINE);
	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	const emulatorPort = Number(process.env.EMULATOR_PORT ?? 3789);
	const emulator = await startDemoEmulator(emulatorPort, { mailLog: true });
	console.log(`Emulator listening on ${emulator.url}`);
	const userFolder = process.env.N8N_USER_FOLDER ?? paths(line).userFolder;
	// Beside the line's data, or inside a user folder given apart (a test's).
	const logFile = process.env.N8N_USER_FOLDER
		? path.join(userFolder, 'n8n.log')
		: path.join(paths(line).base, 'n8n.log');
	mkdirSync(path.dirname(logFile), { recursive: true });
	const logStream = createWriteStream(logFile, { flags: 'a' });
	const options = {
		line,
		userFolder,
		port: n8nPort,
		brokerPort: n8nPort + 1,
		log: (text) => logStream.write(text),
	};
	let n8n;
	try {
		console.log(`Starting n8n (line ${line}) on port ${n8nPort}...`);
		n8n = await startN8n(options);
		await setupDemo(await setupOwner(n8n.baseUrl), emulator);
	} catch (error) {
		await n8n?.stop();
		emulator.stop();
		throw error;
	}
	return {
		line,
		emulator,
		logFile,
		get n8n() {
			return n8n;
		},
		async restartN8n() {
			const stopping = Date.now();
			await n8n.stop();
			console.log(`n8n stopped in ${((Date.now() - stopping) / 1000).toFixed(1)} s`);
			n8n = await startN8n(options);
			console.log(`n8n started in ${(n8n.startupMs / 1000).toFixed(1)} s`);
			return n8n;
		},
		async stop() {
			await n8n.stop();
			emulator.stop();
			logStream.end();
		},
	};
}

/** Where everything is, and what to try first. */
export function readyBanner(stack, { startedAt, extra = [] }) {
	return `
────────────────────────────────────────────────────────────────────────────
 n8n is ready:   ${stack.n8n.baseUrl}   (started in ${Math.round((Date.now() - startedAt) / 1000)} s)
 Log in with:    ${OWNER.email}  /  ${OWNER.password}
 Emulator:       ${stack.emulator.url}   (state: ${stack.emulator.url}/__control/state)
 Mail log:       ${stack.emulator.url}/mails: each mail as its recipient reads it (an
                 approval mail's buttons work there), with buttons that push its events at
                 once: Opened, Clicked a link, Unsubscribed, Marked as spam, Bounced.
                 JSON: ${stack.emulator.url}/__control/mails. New mails print below.
 n8n's log:      ${path.relative(root, stack.logFile)}

 Try first:
  1. Open "Mail Delivery: combined transactional send" and click "Execute workflow":
     six recipients become six items, sent in ONE request.
  2. Open "Mail Delivery: events by kind" → Executions: the emulator pushed one
     event per recipient (Delivered, Bounced, Dropped...), each on its own branch.
     Open a mail in the mail log and click "Opened": an execution on the Opened branch.
     Your own trigger publishes too: the example lets it take the push address.
  3. "Mail Delivery: campaign to a list" sends to the seeded "newsletter" list.
 Credentials for all three authentication schemes are set up against the emulator.
${extra.map((text) => ` ${text}\n`).join('')} Press Ctrl-C to stop n8n and the emulator.
────────────────────────────────────────────────────────────────────────────`;
}
