// The harness that starts real n8n for every end-to-end suite (scripts/n8n-runtime.mjs, issue 53 item 3): a second
// test run on the machine must not break it. A port picked free and taken before n8n listens on it (n8n then exits:
// "n8n Task Broker's port … is already in use") starts n8n again on new ports; a port given and held by another
// process fails the start, naming that process, even when that process answers n8n's readiness check; stop() returns
// for an n8n killed by a signal; a stack whose n8n fails to start leaves no process behind.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { installN8n } from '../../scripts/n8n-install.mjs';
import { startN8n } from '../../scripts/n8n-runtime.mjs';
import { freePort } from '../../scripts/processes.mjs';
import { startStack } from '../e2e/env.mjs';

const cleanups = [];
after(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
});

function userFolder() {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-runtime-test-'));
	cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
	return folder;
}

/** A server of this process on a free port: what another test run's process would be. */
async function portHolder({ answersReadiness = false } = {}) {
	const server = http.createServer((request, response) => {
		response.writeHead(answersReadiness ? 200 : 404, { 'Content-Type': 'application/json' });
		response.end('{"status":"ok"}');
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	cleanups.push(() => new Promise((resolve) => server.close(resolve)));
	return server.address().port;
}

/** Rejects when `promise` has not settled within `ms` (what never returns must fail, not hang the suite). */
const within = (promise, ms, what) =>
	Promise.race([
		promise,
		new Promise((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new Error(`${what} did not return in ${ms / 1000} s`)),
				ms,
			);
			timer.unref();
		}),
	]);

/** Live (not zombie) child processes of this process. */
function children() {
	return readdirSync('/proc')
		.filter((entry) => /^\d+$/.test(entry))
		.flatMap((pid) => {
			try {
				const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
				const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
				return Number(parent) === process.pid && state !== 'Z'
					? [`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')}`]
					: [];
			} catch {
				return [];
			}
		});
}

test(
	'a port taken between its pick and n8n listening on it: n8n starts again on new ports; stop() returns after n8n was killed by a signal',
	{
		timeout: 900_000,
	},
	async () => {
		installN8n('2');
		const taken = await portHolder();
		// The second port handed out (the task broker's) is one another process holds, as when a second run took it
		// meanwhile: n8n exits, "n8n Task Broker's port … is already in use".
		const picked = [];
		const pickPort = async () => {
			const port = picked.length === 1 ? taken : await freePort();
			picked.push(port);
			return port;
		};
		const n8n = await startN8n({ line: '2', userFolder: userFolder(), pickPort });
		cleanups.push(() => n8n.stop());
		assert.ok(picked.length > 2, `ports picked: ${picked.join(', ')}`);
		assert.notEqual(n8n.ports.port, taken);
		assert.notEqual(n8n.ports.brokerPort, taken);
		assert.equal((await fetch(`${n8n.baseUrl}/healthz/readiness`)).status, 200);

		process.kill(n8n.pid, 'SIGKILL');
		assert.deepEqual(await n8n.exited, { code: null, signal: 'SIGKILL' });
		await within(n8n.stop(), 60_000, 'stop() of an n8n killed by SIGKILL');
	},
);

test(
	"a port given that another process holds and answers n8n's readiness check: the start fails naming that process",
	{
		timeout: 900_000,
	},
	async () => {
		const held = await portHolder({ answersReadiness: true });
		await assert.rejects(
			startN8n({ line: '2', userFolder: userFolder(), port: held }),
			new RegExp(`port ${held} is held by process ${process.pid} \\(`),
		);
		assert.deepEqual(children(), [], 'the n8n that could not listen was stopped');
	},
);

test(
	'a stack whose n8n fails to start: the error says why, and nothing it started stays behind',
	{
		timeout: 900_000,
	},
	async () => {
		// n8n's Node.js cannot load a module it is told to preload, and exits as it starts.
		const stack = startStack('2', { extraEnv: { NODE_OPTIONS: '--require ./no-such-module.cjs' } });
		await assert.rejects(stack, /n8n start exited with code 1/);
		// (Had it started, the stack is stopped all the same.)
		cleanups.push(async () => {
			const started = await stack.catch(() => undefined);
			await started?.n8n.stop();
			await started?.emulator.stop();
		});
		assert.deepEqual(children(), [], 'processes left behind by the failed set-up');
	},
);
