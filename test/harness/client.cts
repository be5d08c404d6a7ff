/** A plain HTTP client for the emulator, signing like the platform's documentation says. */
import axios from 'axios';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { signatureHeaders } from '../../credentials/common';
import type { Emulator } from '../../emulator/server.cts';

export interface Answer {
	status: number;
	body: { code: number; message: string; [key: string]: any };
}

export async function call(
	emulator: Emulator,
	path: string,
	body: unknown = {},
	auth: { token?: string; headers?: Record<string, string>; none?: boolean } = {},
): Promise<Answer> {
	const headers = auth.none
		? {}
		: auth.token
			? { OAuth: auth.token }
			: (auth.headers ??
				signatureHeaders(
					emulator.account.apiKey,
					emulator.account.apiSecret,
					new Date(emulator.now()),
				));
	const response = await axios.post(`${emulator.url}${path}`, body, {
		headers,
		validateStatus: () => true,
	});
	return { status: response.status, body: response.data };
}

/** Expects a business answer with this code (HTTP 200, code in the body). */
export async function expectCode(emulator: Emulator, path: string, body: unknown, code: number) {
	const answer = await call(emulator, path, body);
	expect({ path, code: answer.body.code, message: answer.body.message }).toMatchObject({
		path,
		code,
	});
	return answer.body;
}

export interface Receiver {
	url: string;
	pushes: Array<{ raw: string; events: unknown[]; path: string }>;
	failNext: number;
	/** How long the receiver takes to answer a push it took. */
	answerDelayMs: number;
	close: () => Promise<void>;
}

/** A webhook receiver on loopback that records the raw bodies of pushes. */
export async function startReceiver(): Promise<Receiver> {
	const receiver = { pushes: [], failNext: 0, answerDelayMs: 0 } as unknown as Receiver;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			if (receiver.failNext > 0) {
				receiver.failNext--;
				res.writeHead(503).end();
				return;
			}
			const raw = Buffer.concat(chunks).toString('utf8');
			receiver.pushes.push({ raw, events: JSON.parse(raw) as unknown[], path: req.url ?? '' });
			setTimeout(() => res.writeHead(200).end('ok'), receiver.answerDelayMs);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
	return receiver;
}
