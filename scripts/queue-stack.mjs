// n8n's queue mode on one machine: PostgreSQL and Redis on loopback ports, one main, workers and one webhook
// processor (n8n 2.41.1), each with its own user folder and this package linked in. Used by the queue-mode
// suite and by `npm run start:queue`. Everything started is stopped by pid, also when start-up fails.
import { execFileSync, execSync } from 'node:child_process';
import {
	chownSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

import { freePort, startN8n } from './n8n-runtime.mjs';
import { aptInstall, hasCommand } from './system-packages.mjs';

export class StackUnavailable extends Error {}

const isRoot = () => userInfo().uid === 0;
function postgresBin() {
	const base = '/usr/lib/postgresql';
	const newest = () =>
		existsSync(base)
			? readdirSync(base)
					.filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
					.sort((a, b) => Number(b) - Number(a))[0]
			: undefined;
	let version = newest();
	if (!version && aptInstall(['postgresql'])) version = newest();
	if (!version)
		throw new StackUnavailable(
			'PostgreSQL server binaries are not installed (no /usr/lib/postgresql/<version>/bin/initdb) and this machine cannot install them with apt-get',
		);
	return path.join(base, version, 'bin');
}

function redisBin() {
	if (!hasCommand('redis-server') && !aptInstall(['redis-server'])) {
		throw new StackUnavailable(
			'redis-server is not installed and this machine cannot install it with apt-get (needs root or passwordless sudo)',
		);
	}
	return execSync('command -v redis-server', { encoding: 'utf8', shell: '/bin/sh' }).trim();
}

/** Checks (and installs when missing and allowed) what the stack needs; throws StackUnavailable otherwise. */
export function ensureQueueDependencies() {
	return { postgres: postgresBin(), redis: redisBin() };
}

/** PostgreSQL in a temporary data folder, run by the `postgres` user when this is root (initdb refuses root). */
async function startPostgres(bin, folder) {
	const port = await freePort();
	const data = path.join(folder, 'pgdata');
	mkdirSync(data, { recursive: true });
	const asOwner = isRoot() ? ['runuser', '-u', 'postgres', '--'] : [];
	if (isRoot()) {
		const uid = Number(execSync('id -u postgres', { encoding: 'utf8' }));
		const gid = Number(execSync('id -g postgres', { encoding: 'utf8' }));
		chownSync(folder, uid, gid);
		chownSync(data, uid, gid);
	}
	const run = (args) =>
		execFileSync(
			asOwner[0] ?? args[0],
			asOwner.length ? [...asOwner.slice(1), ...args] : args.slice(1),
			{ stdio: ['ignore', 'pipe', 'pipe'], cwd: folder, encoding: 'utf8' },
		);
	run([
		path.join(bin, 'initdb'),
		'-D',
		data,
		'-U',
		'postgres',
		'--auth=trust',
		'-E',
		'UTF8',
		'--no-sync',
	]);
	run([
		path.join(bin, 'pg_ctl'),
		'-D',
		data,
		'-l',
		path.join(folder, 'postgres.log'),
		'-w',
		'-o',
		`-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`,
		'start',
	]);
	const pid = pidIn(path.join(data, 'postmaster.pid'));
	run([path.join(bin, 'createdb'), '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'n8n']);
	return {
		port,
		pid,
		stop: () => {
			try {
				run([path.join(bin, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop']);
			} catch {
				killPid(pid);
			}
		},
	};
}

async function startRedis(bin, folder) {
	const port = await freePort();
	const pidFile = path.join(folder, 'redis.pid');
	execFileSync(bin, [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--daemonize',
		'yes',
		'--pidfile',
		pidFile,
		'--dir',
		folder,
		'--logfile',
		path.join(folder, 'redis.log'),
	]);
	// Redis creates its pid file before it writes the number: read until there is one.
	let pid;
	for (let attempt = 0; attempt < 50 && pid === undefined; attempt++) {
		pid = pidIn(pidFile);
		if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return { port, pid, stop: () => killPid(pid) };
}

/** The process id a pid file holds (its first line), or undefined while it holds none (missing, empty). */
export function pidIn(file) {
	if (!existsSync(file)) return undefined;
	const pid = Number(readFileSync(file, 'utf8').split('\n')[0].trim());
	return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Stops one process. Only a real pid: process.kill(0) signals this whole process group, the test suite that runs
 * the stack included (an empty Redis pid file read as 0 once stopped the queue suite after its last test).
 */
function killPid(pid) {
	if (!Number.isInteger(pid) || pid <= 0) return;
	try {
		process.kill(pid, 'SIGTERM');
	} catch {
		// already gone
	}
}

/**
 * The environment every n8n process of the stack gets (the README's queue-mode section lists the same):
 * shared database, queue and encryption key, and N8N_WEBHOOK_URL of the webhook processor (main registers
 * triggers with it).
 */
export function queueEnvironment({ postgresPort, redisPort, webhookUrl, encryptionKey }) {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgresPort),
		DB_POSTGRESDB_DATABASE: 'n8n',
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redisPort),
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_WEBHOOK_URL: webhookUrl,
		// Production webhooks go to the webhook processor only.
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		// The workers' offload of manual executions: the editor's manual runs go to workers too.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}

/**
 * Starts PostgreSQL, Redis, main, `workers` workers and one webhook processor, all on free loopback ports
 * (main on `mainPort` when given). Returns the processes, their addresses and stop(), which stops everything
 * it started (n8n processes first, then Redis and PostgreSQL) and removes the temporary folders (the n8n
 * user folders and logs stay when they are in `keepFolder`).
 */
export async function startQueueStack({
	workers = 2,
	webhooks = 1,
	log = () => {},
	encryptionKey = 'mail-delivery-queue-key',
	keepFolder,
	mainPort,
} = {}) {
	const timings = {};
	const started = Date.now();
	const { postgres: pgBin, redis: redisPath } = ensureQueueDependencies();
	const folder = keepFolder ?? mkdtempSync(path.join(tmpdir(), 'mail-delivery-queue-'));
	mkdirSync(folder, { recursive: true });
	const stoppers = [];
	const stack = { folder, timings, processes: {}, workers: [] };
	// Redis and PostgreSQL run detached: if this process ends without stop() (a crash), kill them by pid.
	const pids = [];
	const killLeftovers = () => pids.forEach((pid) => killPid(pid));
	process.once('exit', killLeftovers);
	stack.stop = async () => {
		for (const stop of stoppers.reverse()) await stop();
		stoppers.length = 0;
		process.off('exit', killLeftovers);
		if (!keepFolder) rmSync(folder, { recursive: true, force: true });
	};
	try {
		// Database files in their own temporary folder, which the postgres user owns and can reach.
		const dataFolder = mkdtempSync(path.join(tmpdir(), 'mail-delivery-services-'));
		stoppers.push(async () => rmSync(dataFolder, { recursive: true, force: true }));
		const postgres = await startPostgres(pgBin, dataFolder);
		stoppers.push(async () => postgres.stop());
		pids.push(postgres.pid);
		const redis = await startRedis(redisPath, dataFolder);
		stoppers.push(async () => redis.stop());
		pids.push(redis.pid);
		stack.postgres = postgres;
		stack.redis = redis;
		timings.databases = Date.now() - started;

		const webhookPort = await freePort();
		const webhookUrl = `http://127.0.0.1:${webhookPort}/`;
		const env = queueEnvironment({
			postgresPort: postgres.port,
			redisPort: redis.port,
			webhookUrl,
			encryptionKey,
		});
		const n8n = async (name, command, port) => {
			const processStarted = Date.now();
			const instance = await startN8n({
				editor: false,
				line: '2',
				command,
				userFolder: path.join(folder, name),
				port,
				extraEnv: env,
				log: (text) => log(name, text),
			});
			stoppers.push(() => instance.stop());
			pids.push(instance.pid);
			instance.name = name;
			timings[name] = Date.now() - processStarted;
			return instance;
		};
		// Main first: it runs the database migrations. Ports not named here are picked by startN8n.
		stack.main = await n8n('main', 'start', mainPort);
		const worker = async (name) => await n8n(name, 'worker');
		stack.workers = await Promise.all(
			Array.from({ length: workers }, (_, index) => worker(`worker-${index + 1}`)),
		);
		/** Worker `index` killed as by a crash: kill -9, its task runner too (by pid). */
		stack.killWorker = async (index) => {
			const killed = stack.workers[index];
			try {
				execFileSync('pkill', ['-9', '-P', String(killed.pid)]);
			} catch {
				// no child process
			}
			process.kill(killed.pid, 'SIGKILL');
			await killed.exited;
			pids.splice(pids.indexOf(killed.pid), 1);
		};
		/** Worker `index` started again on its user folder: a new process, which saw nothing the old one saw. */
		stack.startWorkerAgain = async (index) =>
			(stack.workers[index] = await worker(stack.workers[index].name));
		// Several webhook processors stand behind one public address (N8N_WEBHOOK_URL, the first one's).
		stack.webhooks = [await n8n('webhook', 'webhook', webhookPort)];
		for (let index = 2; index <= webhooks; index++)
			stack.webhooks.push(await n8n(`webhook-${index}`, 'webhook'));
		stack.webhook = stack.webhooks[0];
		stack.webhookUrl = webhookUrl.replace(/\/$/, '');
		timings.total = Date.now() - started;
		return stack;
	} catch (error) {
		await stack.stop();
		throw error;
	}
}

/** Resident memory of a process, in MiB (Linux). */
export function residentMiB(pid) {
	try {
		const line = readFileSync(`/proc/${pid}/status`, 'utf8')
			.split('\n')
			.find((text) => text.startsWith('VmRSS:'));
		return Math.round(Number(line.split(/\s+/)[1]) / 1024);
	} catch {
		return undefined;
	}
}
