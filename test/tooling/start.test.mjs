// `npm start` on a bad day (issue 54 item 2), on a copy of the project: a port held by another process is named; an
// npm start killed outright leaves its emulator and n8n running, and the next npm start stops them and starts; when
// n8n dies the terminal says so at once; Ctrl-C then stops everything, once. The script npm start runs is run
// directly (node scripts/start.mjs), in its own process group as a terminal runs a command.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { freePort, portHolder } from '../../scripts/processes.mjs';
import { copyOfProject, eventually, groupAlive } from '../harness/projectCopy.mjs';

const cleanups = [];
after(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
});

/** `node scripts/start.mjs` in `copy`: its output so far, its exit, and its process group killed at the end. */
function npmStart(copy, env) {
	const child = spawn(process.execPath, ['scripts/start.mjs'], {
		cwd: copy,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, ...env },
	});
	const run = { child, output: '' };
	run.exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal })),
	);
	child.stdout.on('data', (chunk) => (run.output += chunk));
	child.stderr.on('data', (chunk) => (run.output += chunk));
	cleanups.push(() => {
		if (groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
	});
	run.until = (pattern, what, timeoutMs = 600_000) =>
		eventually(
			async () => (pattern.test(run.output) ? true : undefined),
			`${what}:\n${run.output.slice(-3000)}`,
			timeoutMs,
		);
	return run;
}

test(
	'npm start: a port held by another process is named; leftovers of a killed npm start are stopped; n8n dying is told; Ctrl-C stops everything',
	{
		timeout: 1_200_000,
	},
	async () => {
		const copy = copyOfProject(cleanups);
		const userFolder = mkdtempSync(path.join(os.tmpdir(), 'start-user-'));
		cleanups.push(() => rmSync(userFolder, { recursive: true, force: true }));
		const env = {
			N8N_PORT: String(await freePort()),
			EMULATOR_PORT: String(await freePort()),
			N8N_USER_FOLDER: userFolder,
		};

		// Another program holds the emulator's port: npm start says which, and ends.
		const other = net.createServer();
		await new Promise((resolve) => other.listen(Number(env.EMULATOR_PORT), '127.0.0.1', resolve));
		const refused = npmStart(copy, env);
		assert.equal((await refused.exited).code, 1, refused.output);
		assert.match(
			refused.output,
			new RegExp(`port ${env.EMULATOR_PORT} is held by process ${process.pid} \\(`),
		);
		await new Promise((resolve) => other.close(resolve));

		// An npm start killed outright (kill -9: no Ctrl-C, no clean-up) leaves the emulator and n8n running.
		const killed = npmStart(copy, env);
		await killed.until(/n8n is ready/, 'the first npm start to be ready');
		process.kill(killed.child.pid, 'SIGKILL');
		await killed.exited;
		assert.ok(portHolder(Number(env.EMULATOR_PORT)), 'the emulator left behind');

		// The next npm start stops them and starts.
		const next = npmStart(copy, env);
		await next.until(/n8n is ready/, 'the next npm start to be ready');
		assert.match(next.output, /left running by an earlier npm start: stopping it/);
		assert.equal(
			groupAlive(killed.child.pid),
			false,
			'processes of the killed npm start still run',
		);

		// n8n dies: the terminal says so, with the end of n8n's log.
		const n8n = portHolder(Number(env.N8N_PORT));
		assert.ok(n8n?.pid, 'n8n listens');
		process.kill(n8n.pid, 'SIGKILL');
		await next.until(
			/n8n was killed by SIGKILL at \d\d:\d\d:\d\d/,
			'npm start to say n8n died',
			60_000,
		);
		assert.match(next.output, /The emulator still runs/);

		// Ctrl-C (SIGINT to the whole group, as a terminal sends it): everything ends, said once.
		process.kill(-next.child.pid, 'SIGINT');
		assert.deepEqual(await next.exited, { code: 0, signal: null }, next.output.slice(-3000));
		await eventually(
			async () => (groupAlive(next.child.pid) ? undefined : true),
			'every process of npm start to end',
			60_000,
		);
		assert.equal(next.output.match(/Stopping n8n and the emulator/g)?.length, 1);
		assert.equal(portHolder(Number(env.EMULATOR_PORT)), undefined, 'the emulator still listens');
	},
);
