// What `npm start` and `npm run dev` share: the emulator, real n8n with the built package, the demo (owner,
// credentials for the three schemes, the example workflows) and the banner that says where everything is; what a
// previous run left running is stopped first, n8n's death is told when it happens, and Ctrl-C stops everything in
// whatever state it is.
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { setupDemo, startDemoEmulator } from './demo.mjs';
import { root } from './ensure-deps.mjs';
import { dataPaths, lineOf } from './n8n-install.mjs';
import { OWNER, setupOwner, startN8n } from './n8n-runtime.mjs';
import { describeExit, describeHolder, isAlive, portHolder, statFields } from './processes.mjs';

const clock = () => new Date().toTimeString().slice(0, 8);

/** The last lines of a file (n8n's log), or nothing when it cannot be read. */
function lastLines(file, count) {
	try {
		return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-count);
	} catch {
		return [];
	}
}

const environOf = (pid) => {
	try {
		return Object.fromEntries(
			readFileSync(`/proc/${pid}/environ`, 'utf8')
				.split('\0')
				.filter(Boolean)
				.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
		);
	} catch {
		return {};
	}
};
const parentOf = (pid) => {
	try {
		return Number(statFields(pid)[1]); // state, then the parent's pid
	} catch {
		return undefined;
	}
};
const commandOf = (pid) => {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
	} catch {
		return '';
	}
};

/**
 * Frees `port` for `role` when what holds it is this checkout's own emulator or n8n (same user folder) left running
 * by a previous `npm start` or `npm run dev` that ended without stopping it (killed, or its terminal closed); throws,
 * naming the process, when anything else holds it.
 */
async function freeForStart(port, role, { userFolder, variable }) {
	const holder = portHolder(port);
	if (!holder) return;
	const command = holder.pid ? commandOf(holder.pid) : '';
	const ours =
		command.includes(path.join(root, 'emulator', 'cli.cts')) ||
		(/\bn8n\b/.test(command) && environOf(holder.pid).N8N_USER_FOLDER === userFolder);
	const parent = holder.pid ? parentOf(holder.pid) : undefined;
	// Still run by a live npm start or npm run dev of this checkout: not a leftover.
	const liveStarter =
		parent && /scripts\/start\.mjs|gulp/.test(commandOf(parent)) ? parent : undefined;
	if (!ours || liveStarter)
		throw new Error(
			`${role}'s port ${port} is held by ${describeHolder(holder)}${liveStarter ? `, which npm start or npm run dev (process ${liveStarter}) still runs: stop that one first` : ''}. Stop it, or choose another port with ${variable}=<port>.`,
		);
	console.log(
		`${role}'s port ${port} is held by ${describeHolder(holder)}, left running by an earlier npm start: stopping it.`,
	);
	process.kill(holder.pid, 'SIGTERM');
	for (let waited = 0; isAlive(holder.pid); waited += 200) {
		if (waited === 20_000) process.kill(holder.pid, 'SIGKILL');
		if (waited > 30_000) throw new Error(`${describeHolder(holder)} did not stop`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

/**
 * The emulator and n8n (the line of N8N_LINE) on the ports of N8N_PORT and EMULATOR_PORT, with n8n's data in the
 * line's user folder of this checkout (or N8N_USER_FOLDER) and its log beside it, and the demo set up. `start()`
 * starts them; `stop()` stops whatever has started, also during `start()`, and may be called any number of times;
 * `restartN8n()` stops n8n and starts it again with dist/ as it is now (startN8n copies it in, as an install does).
 * When n8n exits without being asked, the terminal is told at once with the end of its log.
 */
export function localStack() {
	const line = lineOf(process.env.N8N_LINE);
	const n8nPort = Number(process.env.N8N_PORT ?? 5678);
	const emulatorPort = Number(process.env.EMULATOR_PORT ?? 3789);
	const userFolder = process.env.N8N_USER_FOLDER ?? dataPaths(line).userFolder;
	// Beside the line's data, or inside a user folder given apart (a test's).
	const logFile = process.env.N8N_USER_FOLDER
		? path.join(userFolder, 'n8n.log')
		: dataPaths(line).logFile;
	const cancelStart = new AbortController();
	let logStream;
	let emulator;
	let n8n;
	let stopping;
	/** n8n instances stopped on purpose: their exit is not news. */
	const stoppedOnPurpose = new WeakSet();

	const watch = (instance) => {
		void instance.exited.then((exit) => {
			if (stoppedOnPurpose.has(instance) || stopping) return;
			const tail = lastLines(logFile, 8);
			console.log(
				[
					'',
					`n8n ${describeExit(exit)} at ${clock()}: the editor at ${instance.baseUrl} is gone.`,
					...(tail.length > 0
						? [
								`The end of its log (${path.relative(root, logFile)}):`,
								...tail.map((row) => `  ${row}`),
							]
						: []),
					`The emulator still runs (its mail log, ${controlUrlOf(emulator)}/mails, shows what was sent).`,
					'Ctrl-C stops it; npm start then starts both again.',
				].join('\n'),
			);
		});
	};
	const startN8nHere = async () => {
		const instance = await startN8n({
			line,
			userFolder,
			port: n8nPort,
			log: (text) => logStream.write(text),
			signal: cancelStart.signal,
			// The emulator over HTTPS (EMULATOR_DISTANCE_MS, EMULATOR_HTTPS) has a certificate of its own: n8n trusts it.
			...(emulator?.certificateFile
				? { extraEnv: { NODE_EXTRA_CA_CERTS: emulator.certificateFile } }
				: {}),
		});
		watch(instance);
		return instance;
	};
	const stopN8n = async () => {
		if (!n8n) return;
		stoppedOnPurpose.add(n8n);
		await n8n.stop();
	};

	const stack = {
		line,
		logFile,
		get emulator() {
			return emulator;
		},
		get n8n() {
			return n8n;
		},
		/** Whether stop() was called (a start it cut short failed for that reason). */
		get stopRequested() {
			return stopping !== undefined;
		},
		/** Stops what an earlier run left on the ports; throws, naming it, when anything else holds one. */
		async freePorts() {
			await freeForStart(emulatorPort, 'The emulator', {
				userFolder,
				variable: 'EMULATOR_PORT',
			});
			await freeForStart(n8nPort, 'n8n', { userFolder, variable: 'N8N_PORT' });
		},
		async start() {
			await stack.freePorts();
			emulator = await startDemoEmulator(emulatorPort, { mailLog: true });
			if (stopping) return stack; // Ctrl-C came meanwhile: stop() stops what has started
			console.log(`Emulator listening on ${emulator.url}`);
			mkdirSync(path.dirname(logFile), { recursive: true });
			logStream = createWriteStream(logFile, { flags: 'a' });
			console.log(`Starting n8n (line ${line}) on port ${n8nPort}...`);
			n8n = await startN8nHere();
			await setupDemo(await setupOwner(n8n.baseUrl), emulator);
			return stack;
		},
		async restartN8n() {
			const stoppingAt = Date.now();
			await stopN8n();
			console.log(`n8n stopped in ${((Date.now() - stoppingAt) / 1000).toFixed(1)} s`);
			n8n = await startN8nHere();
			console.log(`n8n started in ${(n8n.startupMs / 1000).toFixed(1)} s`);
			return n8n;
		},
		stop() {
			stopping ??= (async () => {
				cancelStart.abort();
				await stopN8n();
				await emulator?.stop();
				logStream?.end();
			})();
			return stopping;
		},
	};
	return stack;
}

/**
 * Runs `stack` until Ctrl-C (or SIGTERM): the first stops everything and resolves; another while stopping kills
 * what is left at once. Installed before the stack starts, so that Ctrl-C during the start stops it too.
 */
export function stopOnInterrupt(stack) {
	let interrupted = 0;
	return new Promise((resolve) => {
		const onSignal = () => {
			interrupted++;
			if (interrupted === 1) {
				console.log('\nStopping n8n and the emulator...');
				void stack.stop().then(() => resolve());
			} else {
				console.log('Stopping at once.');
				process.exit(130); // processes.mjs kills every child still running
			}
		};
		process.on('SIGINT', onSignal);
		process.on('SIGTERM', onSignal);
	});
}

/** The emulator's control interface and mail log: its address, or with HTTPS a plain HTTP one of their own. */
const controlUrlOf = (emulator) => emulator.controlUrl ?? emulator.url;

/** With EMULATOR_DISTANCE_MS or EMULATOR_HTTPS: the platform over HTTPS, how far, and the certificate n8n trusts. */
const distantLine = (emulator) =>
	emulator.certificateFile
		? `\n                 over HTTPS, ${emulator.distanceMs} ms away (a round trip; n8n trusts\n                 ${emulator.certificateFile})`
		: '';

/** Where everything is, and what to try first. */
export function readyBanner(stack, { startedAt, extra = [] }) {
	return `
────────────────────────────────────────────────────────────────────────────
 n8n is ready:   ${stack.n8n.baseUrl}   (started in ${Math.round((Date.now() - startedAt) / 1000)} s)
 Log in with:    ${OWNER.email}  /  ${OWNER.password}
 Emulator:       ${stack.emulator.url}   (state: ${controlUrlOf(stack.emulator)}/__control/state)${distantLine(stack.emulator)}
 Mail log:       ${controlUrlOf(stack.emulator)}/mails: each mail as its recipient reads it (an
                 approval mail's buttons work there), with buttons that push its events at
                 once: Opened, Clicked a link, Unsubscribed, Marked as spam, Bounced.
                 JSON: ${controlUrlOf(stack.emulator)}/__control/mails. New mails print below.
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
