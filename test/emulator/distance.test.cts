/**
 * The platform far away over HTTPS (emulator/distance.cts; EMULATOR_DISTANCE_MS): its own certificate, which a
 * client trusts by its file, and every connection and answer delayed as a platform that many ms away delays them.
 * Only lower bounds on times are checked (a delay cannot be shorter on any machine), and the connections counted.
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';

import { signatureHeaders } from '../../credentials/common';
import { Emulator } from '../../emulator/server.cts';

const DISTANCE_MS = 120;
/** Timers may fire a millisecond before the time asked, by rounding. */
const SLACK_MS = 5;

let emulator: Emulator;
beforeAll(async () => {
	emulator = new Emulator({ messages: 'en', https: true, distanceMs: DISTANCE_MS });
	await emulator.start();
});
afterAll(async () => await emulator.stop());

/** A signed request to the platform's HTTPS address through `agent`; resolves with its status and time taken. */
function post(agent: https.Agent, path: string, body: object) {
	const text = JSON.stringify(body);
	const { apiKey, apiSecret } = emulator.account;
	const startedAt = Date.now();
	return new Promise<{ status: number; ms: number }>((resolve, reject) => {
		const request = https.request(
			`${emulator.url}${path}`,
			{
				method: 'POST',
				agent,
				headers: {
					'Content-Type': 'application/json',
					'Content-Length': Buffer.byteLength(text),
					...signatureHeaders(apiKey, apiSecret),
				},
			},
			(response) =>
				response
					.resume()
					.on('end', () => resolve({ status: response.statusCode!, ms: Date.now() - startedAt })),
		);
		request.on('error', reject);
		request.end(text);
	});
}

const connections = async () =>
	(
		(await (await fetch(`${emulator.controlUrl}/__control/requests`)).json()) as {
			connections: number;
		}
	).connections;

test('off by default: the emulator answers plain HTTP on one address', async () => {
	const plain = new Emulator();
	await plain.start();
	try {
		expect(plain.url).toMatch(/^http:\/\//);
		expect(plain.controlUrl).toBe(plain.url);
		expect(plain.certificateFile).toBeUndefined();
	} finally {
		await plain.stop();
	}
});

test('HTTPS with a certificate a client trusts by its file; the control interface stays plain HTTP', async () => {
	expect(emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
	expect(emulator.controlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	const ca = readFileSync(emulator.certificateFile!);
	const agent = new https.Agent({ ca });
	try {
		const { status } = await post(agent, '/v5/contacts/get', { email: 'ada@example.org' });
		expect(status).toBe(200);
		// Without the certificate, the connection is refused as untrusted.
		await expect(
			post(new https.Agent(), '/v5/contacts/get', { email: 'ada@example.org' }),
		).rejects.toThrow(/self.signed|certificate/i);
	} finally {
		agent.destroy();
	}
});

test('a request on a new connection pays the TCP handshake, the TLS handshake and its own round trip; one on a kept connection its round trip', async () => {
	const ca = readFileSync(emulator.certificateFile!);
	const kept = new https.Agent({ ca, keepAlive: true, maxSockets: 1 });
	try {
		const before = await connections();
		const first = await post(kept, '/v5/contacts/get', { email: 'ada@example.org' });
		const second = await post(kept, '/v5/contacts/get', { email: 'ada@example.org' });
		expect(first.ms).toBeGreaterThanOrEqual(3 * DISTANCE_MS - SLACK_MS);
		expect(second.ms).toBeGreaterThanOrEqual(DISTANCE_MS - SLACK_MS);
		expect((await connections()) - before).toBe(1);
		// A new connection for each request (as n8n's request helper makes them): three round trips each.
		const fresh = new https.Agent({ ca, keepAlive: false });
		const third = await post(fresh, '/v5/contacts/get', { email: 'ada@example.org' });
		expect(third.ms).toBeGreaterThanOrEqual(3 * DISTANCE_MS - SLACK_MS);
		expect((await connections()) - before).toBe(2);
		fresh.destroy();
	} finally {
		kept.destroy();
	}
});
