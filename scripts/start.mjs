// The README's main job: real n8n with this package, against the local emulator, ready to use.
import { createWriteStream } from 'node:fs';
import path from 'node:path';

import { setupDemo, startDemoEmulator } from './demo.mjs';
import { ensureDependencies, root, run } from './ensure-deps.mjs';
import { lineOf, paths } from './n8n-install.mjs';
import { OWNER, setupOwner, startN8n } from './n8n-runtime.mjs';

const EMULATOR_PORT = Number(process.env.EMULATOR_PORT ?? 3789);
const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const line = lineOf(process.env.N8N_LINE);
const started = Date.now();

ensureDependencies();
run('npm run -s build');

const emulator = await startDemoEmulator(EMULATOR_PORT, { mailLog: true });
console.log(`Emulator listening on ${emulator.url}`);

let n8n;
const stopAll = async () => {
	console.log('\nStopping n8n and the emulator...');
	await n8n?.stop();
	emulator.stop();
	process.exit(0);
};
process.on('SIGINT', () => void stopAll());
process.on('SIGTERM', () => void stopAll());

console.log(`Starting n8n (line ${line}) on port ${N8N_PORT}...`);
const logFile = path.join(paths(line).base, 'n8n.log');
const logStream = createWriteStream(logFile, { flags: 'a' });
n8n = await startN8n({
	line,
	userFolder: paths(line).userFolder,
	port: N8N_PORT,
	brokerPort: N8N_PORT + 1,
	log: (text) => logStream.write(text),
});
const session = await setupOwner(n8n.baseUrl);

await setupDemo(session, emulator);

console.log(`
────────────────────────────────────────────────────────────────────────────
 n8n is ready:   ${n8n.baseUrl}   (started in ${Math.round((Date.now() - started) / 1000)} s)
 Log in with:    ${OWNER.email}  /  ${OWNER.password}
 Emulator:       ${emulator.url}   (state: ${emulator.url}/__control/state)
 Mail log:       ${emulator.url}/mails: each mail as its recipient reads it (an
                 approval mail's buttons work there); JSON: ${emulator.url}/__control/mails.
                 New mails print below.
 n8n's log:      ${path.relative(root, logFile)}

 Try first:
  1. Open "Mail Delivery: combined transactional send" and click "Execute workflow":
     six recipients become six items, sent in ONE request.
  2. Open "Mail Delivery: events by kind" → Executions: the emulator pushed one
     event per recipient (Delivered, Bounced, Dropped...), each on its own branch.
  3. "Mail Delivery: campaign to a list" sends to the seeded "newsletter" list.
 Credentials for all three authentication schemes are set up against the emulator.
 Press Ctrl-C to stop n8n and the emulator.
────────────────────────────────────────────────────────────────────────────`);
