// `npm run dev` (gulp dev, issue 40 item 6), as a contributor uses it, on a copy of the project: it starts n8n and
// the emulator, a change to a node's description is served by n8n a moment later, and Ctrl-C (SIGINT to the whole
// process group, as a terminal sends it) stops every process it started. The copy shares node_modules with this
// checkout and the installed n8n with every checkout (the install cache); n8n's data goes to a temporary folder
// (N8N_USER_FOLDER).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { freePort, setupOwner } from '../../scripts/n8n-runtime.mjs';
import { copyOfProject, eventually, groupAlive } from '../harness/projectCopy.mjs';

const NODE_FILE = path.join('nodes', 'MailDelivery', 'MailDelivery.node.ts');
const CHANGED = 'Changed while npm run dev was watching';

const cleanups = [];
after(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
});

test(
	'npm run dev: n8n serves a changed node description without a new start, and Ctrl-C stops everything',
	{
		timeout: 900_000,
	},
	async () => {
		const copy = copyOfProject(cleanups);
		const userFolder = mkdtempSync(path.join(os.tmpdir(), 'dev-user-'));
		cleanups.push(() => rmSync(userFolder, { recursive: true, force: true }));
		const n8nPort = await freePort();
		const emulatorPort = await freePort();
		const baseUrl = `http://127.0.0.1:${n8nPort}`;
		let output = '';
		// Its own process group, as a terminal starts a command: Ctrl-C reaches every process of it.
		const dev = spawn('npm', ['run', 'dev'], {
			cwd: copy,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: {
				...process.env,
				N8N_PORT: String(n8nPort),
				EMULATOR_PORT: String(emulatorPort),
				N8N_USER_FOLDER: userFolder,
			},
		});
		const exited = new Promise((resolve) =>
			dev.once('exit', (code, signal) => resolve({ code, signal })),
		);
		dev.stdout.on('data', (chunk) => (output += chunk));
		dev.stderr.on('data', (chunk) => (output += chunk));
		cleanups.push(async () => {
			if (groupAlive(dev.pid)) process.kill(-dev.pid, 'SIGKILL');
		});
		const tail = () => output.slice(-3000);

		await eventually(
			async () => (output.includes('n8n is ready') ? true : undefined),
			`npm run dev to say n8n is ready:\n${tail()}`,
			600_000,
		);
		const session = await setupOwner(baseUrl);
		const description = async () => {
			const answer = await fetch(`${baseUrl}/types/nodes.json`, {
				headers: { cookie: session.cookie },
			});
			const types = await answer.json();
			return types.find((type) => type.name === 'n8n-nodes-mail-delivery.mailDelivery')
				?.description;
		};
		assert.match(await description(), /^Send transactional and campaign mail/);

		// A contributor edits the node's description in their editor.
		const file = path.join(copy, NODE_FILE);
		const source = readFileSync(file, 'utf8');
		assert.ok(
			source.includes("'Send transactional and campaign mail,"),
			'the description to change',
		);
		const changedAt = Date.now();
		writeFileSync(
			file,
			source.replace(
				"'Send transactional and campaign mail,",
				`'${CHANGED}: send transactional and campaign mail,`,
			),
		);
		const served = await eventually(
			async () => ((await description())?.startsWith(CHANGED) ? true : undefined),
			`n8n to serve the changed description:\n${tail()}`,
			300_000,
		);
		assert.equal(served, true);
		const said = /Built in [^\n]*\n(?:[^\n]*\n)*?n8n runs the change [^\n]+/.exec(output)?.[0];
		assert.ok(said, `npm run dev says when the change runs:\n${tail()}`);
		console.log(
			`the change was served ${((Date.now() - changedAt) / 1000).toFixed(1)} s after it; npm run dev said:\n${said}`,
		);

		// Ctrl-C: every process of the group ends, n8n and the emulator stop answering.
		process.kill(-dev.pid, 'SIGINT');
		await exited;
		await eventually(
			async () => (groupAlive(dev.pid) ? undefined : true),
			`every process npm run dev started to end:\n${tail()}`,
			60_000,
		);
		assert.match(output, /Stopping n8n and the emulator/);
		await assert.rejects(fetch(`${baseUrl}/healthz`), 'n8n still answers after Ctrl-C');
		await assert.rejects(
			fetch(`http://127.0.0.1:${emulatorPort}/__control/state`),
			'the emulator still answers after Ctrl-C',
		);
	},
);
