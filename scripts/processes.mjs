// The child processes the scripts and suites start (n8n, the emulator, verdaccio): how each is stopped, whatever
// state it is in, and which process holds a loopback port (read from Linux's /proc).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import net from 'node:net';

/** A free loopback port (free now: another process may take it before it is used). */
export async function freePort() {
	return await new Promise((resolve) => {
		const server = net.createServer();
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

const running = new Set();
// Whatever this process started and did not stop ends with it (a suite whose set-up threw, a script that failed).
process.on('exit', () => {
	for (const child of running) child.kill('SIGKILL');
});

/**
 * Watches a child from its start: `exited` resolves with its code or signal also when it has exited already (a
 * child killed by a signal keeps a null exitCode, and its 'exit' event has passed), `stop()` ends it (SIGTERM, then
 * SIGKILL after `graceMs`) and resolves once it has exited, however many times it is called.
 */
export function supervise(child, { graceMs = 20_000 } = {}) {
	running.add(child);
	const exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => {
			running.delete(child);
			resolve({ code, signal });
		}),
	);
	let stopping;
	return {
		exited,
		isRunning: () => child.exitCode === null && child.signalCode === null,
		stop() {
			stopping ??= (async () => {
				if (child.exitCode === null && child.signalCode === null) {
					child.kill('SIGTERM');
					const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
					await exited;
					clearTimeout(timer);
				}
				return await exited;
			})();
			return stopping;
		},
	};
}

/** How an exit reads: "exited with code 1", "was killed by SIGKILL". */
export const describeExit = ({ code, signal }) =>
	signal ? `was killed by ${signal}` : `exited with code ${code}`;

/** The socket inodes listening on `port` (any address, IPv4 or IPv6). */
function listeningInodes(port) {
	const inodes = new Set();
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let text;
		try {
			text = readFileSync(table, 'utf8');
		} catch {
			continue;
		}
		for (const row of text.split('\n').slice(1)) {
			const fields = row.trim().split(/\s+/);
			// local_address is ADDRESS:PORT in hex; state 0A is LISTEN; the inode is the tenth field.
			if (fields.length < 10 || fields[3] !== '0A') continue;
			if (parseInt(fields[1].split(':').at(-1), 16) === port) inodes.add(fields[9]);
		}
	}
	return inodes;
}

const commandOf = (pid) => {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
	} catch {
		return undefined;
	}
};

/** Whether process `pid` has one of `inodes` open. */
function holdsSocket(pid, inodes) {
	let fds;
	try {
		fds = readdirSync(`/proc/${pid}/fd`);
	} catch {
		return false; // gone, or another user's
	}
	return fds.some((fd) => {
		try {
			return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]);
		} catch {
			return false;
		}
	});
}

/**
 * The process listening on `port`: `{ pid, command }`, `{}` when something listens but its process cannot be
 * seen (another user's), undefined when nothing listens (or /proc cannot tell: not Linux).
 */
export function portHolder(port) {
	const inodes = listeningInodes(port);
	if (inodes.size === 0) return undefined;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const pid = Number(entry);
		if (holdsSocket(pid, inodes)) return { pid, command: commandOf(pid) };
	}
	return {};
}

/** Whether process `pid` listens on `port`. */
export const listensOn = (pid, port) => holdsSocket(pid, listeningInodes(port));

/** "process 1234 (node emulator/cli.cts)", or what can be said without it. */
export const describeHolder = (holder) =>
	holder?.pid
		? `process ${holder.pid} (${(holder.command ?? '?').slice(0, 160)})`
		: 'a process this user cannot see';

/**
 * The fields of /proc/<pid>/stat from the third on (state, ppid, …; utime is [11], stime [12], cutime [13],
 * cstime [14], in clock ticks of 1/100 s): after "pid (command) ", whose command may hold spaces and parentheses.
 */
export function statFields(pid = 'self') {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds process `pid` has spent so far (user and system, its own threads), from /proc. */
export function cpuSecondsOf(pid) {
	const fields = statFields(pid);
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Whether a process of that id is alive (a zombie, dead but not yet reaped by its parent, is not). */
export function isAlive(pid) {
	try {
		process.kill(pid, 0);
	} catch (error) {
		return error.code === 'EPERM';
	}
	try {
		return statFields(pid)[0] !== 'Z';
	} catch {
		return true; // no /proc: kill(0) said it lives
	}
}
