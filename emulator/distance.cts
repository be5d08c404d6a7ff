/**
 * The platform as a user far from it meets it: over HTTPS, with a certificate of its own, and every byte a
 * round trip's half away. A TCP proxy in front of the emulator's TLS server holds what the client sends until the
 * TCP handshake's round trip is over, then each chunk half a round trip in each direction, so a request on a new
 * connection pays the TCP handshake, the TLS handshake and its own round trip (three round trips with TLS 1.3), and
 * one on a kept connection one round trip, as across the internet. Off by default (EmulatorOptions.https,
 * distanceMs; `EMULATOR_DISTANCE_MS`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A certificate for 127.0.0.1 and localhost, made now: its key, the certificate and the file a client trusts. */
export interface Certificate {
	key: Buffer;
	cert: Buffer;
	/** The certificate's file: NODE_EXTRA_CA_CERTS for a Node process (n8n) that must trust it. */
	file: string;
}

/** Makes a self-signed certificate with openssl (Node has no way to make one), valid a week. */
export function makeCertificate(): Certificate {
	const folder = mkdtempSync(path.join(os.tmpdir(), 'mail-delivery-emulator-tls-'));
	const keyFile = path.join(folder, 'key.pem');
	const file = path.join(folder, 'cert.pem');
	try {
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'ec',
				'-pkeyopt',
				'ec_paramgen_curve:prime256v1',
				'-nodes',
				'-keyout',
				keyFile,
				'-out',
				file,
				'-days',
				'7',
				'-subj',
				'/CN=Mail Delivery platform emulator',
				'-addext',
				'subjectAltName=IP:127.0.0.1,DNS:localhost',
			],
			{ stdio: ['ignore', 'ignore', 'pipe'] },
		);
	} catch (error) {
		throw new Error(
			`The emulator needs openssl to make its HTTPS certificate (${(error as Error).message})`,
		);
	}
	return { key: readFileSync(keyFile), cert: readFileSync(file), file };
}

/** What passes through the proxy, for the control interface. */
export interface DistanceCounts {
	/** Connections opened to the platform's address (each pays a TCP and a TLS handshake). */
	connections: number;
}

const END = Symbol('end');
const CLOSE = Symbol('close');

/**
 * Copies `from` to `to`, each chunk at `dueAt(now)` (never earlier than the one before: order is kept); its end
 * and its closing (a reset included) reach `to` as late as a chunk would, after the chunks before them.
 */
function delayedPipe(from: net.Socket, to: net.Socket, dueAt: (arrived: number) => number) {
	const queue: Array<{ at: number; chunk: Buffer | typeof END | typeof CLOSE }> = [];
	let timer: NodeJS.Timeout | undefined;
	const flush = () => {
		timer = undefined;
		const now = Date.now();
		while (queue.length > 0 && queue[0].at <= now) {
			const { chunk } = queue.shift()!;
			if (to.destroyed) return;
			if (chunk === CLOSE) to.destroy();
			else if (chunk === END) to.end();
			else to.write(chunk);
		}
		if (queue.length > 0) timer = setTimeout(flush, queue[0].at - now);
	};
	const push = (chunk: Buffer | typeof END | typeof CLOSE) => {
		const previous = queue.at(-1)?.at ?? 0;
		queue.push({ at: Math.max(previous, dueAt(Date.now())), chunk });
		if (!timer) timer = setTimeout(flush, Math.max(0, queue[0].at - Date.now()));
	};
	from.on('data', (chunk: Buffer) => push(chunk));
	from.on('end', () => push(END));
	from.on('error', () => undefined);
	from.on('close', () => push(CLOSE));
}

/**
 * Listens on `port` (0: any) of `host` and passes each connection to the port `target()` as if the platform were
 * `distanceMs()` away (a round trip), read for every chunk so that the control interface can change it.
 */
export async function startDistantProxy(
	host: string,
	port: number,
	target: () => number,
	distanceMs: () => number,
	counts: () => DistanceCounts,
): Promise<{ port: number; close: () => Promise<void> }> {
	const open = new Set<net.Socket>();
	const server = net.createServer((client) => {
		counts().connections++;
		const acceptedAt = Date.now();
		const platform = net.connect(target(), host);
		client.setNoDelay(true);
		platform.setNoDelay(true);
		// Nothing reaches the platform before the TCP handshake's round trip is over, then half a round trip later.
		delayedPipe(
			client,
			platform,
			(arrived) => Math.max(arrived, acceptedAt + distanceMs()) + distanceMs() / 2,
		);
		delayedPipe(platform, client, (arrived) => arrived + distanceMs() / 2);
		for (const socket of [client, platform]) {
			open.add(socket);
			socket.once('close', () => open.delete(socket));
		}
	});
	await new Promise<void>((resolve) => server.listen(port, host, resolve));
	return {
		port: (server.address() as net.AddressInfo).port,
		close: async () => {
			for (const socket of open) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
