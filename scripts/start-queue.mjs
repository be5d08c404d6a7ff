// `npm run start:queue`: the package in n8n's queue mode, the topology the queue-mode suite tests: PostgreSQL,
// Redis, one main (editor, activation), two workers (executions) and one webhook processor (production
// webhooks), against the emulator, with the same credentials and examples as `npm start`. A fresh database
// every start; Ctrl-C stops everything.
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { setupDemo, startDemoEmulator } from './demo.mjs';
import { ensureDependencies, root, run } from './ensure-deps.mjs';
import { OWNER, setupOwner } from './n8n-runtime.mjs';
import { startQueueStack } from './queue-stack.mjs';

const EMULATOR_PORT = Number(process.env.EMULATOR_PORT ?? 3789);
const started = Date.now();
const folder = path.join(root, '.n8n-local', 'queue');

ensureDependencies();
run('npm run -s build');

const emulator = await startDemoEmulator(EMULATOR_PORT);
console.log(`Emulator listening on ${emulator.url}`);

rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
const logs = {};
const log = (name, text) => {
	logs[name] ??= createWriteStream(path.join(folder, `${name}.log`), { flags: 'a' });
	logs[name].write(text);
};
let stack;
let stopping = false;
const stopAll = async () => {
	if (stopping) return;
	stopping = true;
	console.log('\nStopping the n8n processes, Redis, PostgreSQL and the emulator...');
	await stack?.stop();
	emulator.stop();
	process.exit(0);
};
process.on('SIGINT', () => void stopAll());
process.on('SIGTERM', () => void stopAll());

console.log(
	'Starting PostgreSQL, Redis, n8n main, two workers and a webhook processor (n8n 2.41.1)...',
);
try {
	stack = await startQueueStack({
		workers: 2,
		log,
		keepFolder: folder,
		mainPort: Number(process.env.N8N_PORT ?? 5678),
	});
} catch (error) {
	emulator.stop();
	throw error;
}
const session = await setupOwner(stack.main.baseUrl);
await setupDemo(session, emulator);

const row = (name, address, pid) => ` ${name.padEnd(18)} ${address.padEnd(40)} pid ${pid}`;
console.log(`
────────────────────────────────────────────────────────────────────────────
 n8n in queue mode is ready (started in ${Math.round((Date.now() - started) / 1000)} s)
 Editor (main):     ${stack.main.baseUrl}
 Log in with:       ${OWNER.email}  /  ${OWNER.password}

${row('main', stack.main.baseUrl, stack.main.pid)}
${stack.workers.map((worker) => row(worker.name, `${worker.baseUrl}/healthz/readiness`, worker.pid)).join('\n')}
${row('webhook processor', `${stack.webhookUrl}/webhook/…`, stack.webhook.pid)}
${row('PostgreSQL', `127.0.0.1:${stack.postgres.port} (database n8n)`, stack.postgres.pid)}
${row('Redis', `127.0.0.1:${stack.redis.port}`, stack.redis.pid)}
${row('emulator', emulator.url, emulator.child.pid)}

 Logs: ${path.relative(root, folder)}/<process>.log. The example trigger is registered with the
 webhook processor's URL; executions run on the workers (their logs say "Worker started execution").
 Stop: Ctrl-C here stops every process above (or kill ${process.pid}).
────────────────────────────────────────────────────────────────────────────`);
