import axios from 'axios';

import { computeSignature, signatureHeaders } from '../../credentials/common';
import { useEmulator } from '../harness/emulator.cts';
import { call } from '../harness/client.cts';

const env = useEmulator();
const path = '/v5/webhook/get';

const clientCredentialsToken = async () => {
	const { url, account } = env.emulator;
	const answer = await axios.get(`${url}/v5/auth/oauth/authorize`, {
		params: { grantType: 'client_credentials' },
		headers: {
			Authorization: Buffer.from(`${account.apiKey}:${account.apiSecret}`).toString('base64'),
		},
		validateStatus: () => true,
	});
	return answer;
};

describe('signature headers', () => {
	test('a correct signature is accepted', async () => {
		expect((await call(env.emulator, path)).body.code).toBe(200);
	});

	test.each([
		['wrong key', () => signatureHeaders('other-key', env.emulator.account.apiSecret)],
		['bad signature', () => signatureHeaders(env.emulator.account.apiKey, 'wrong-secret')],
		[
			'timestamp in another format',
			() => {
				const timestamp = new Date().toISOString();
				return {
					ApiKey: env.emulator.account.apiKey,
					Timestamp: timestamp,
					Authorization: computeSignature(env.emulator.account.apiSecret, timestamp),
				};
			},
		],
		[
			'timestamp older than 5 minutes',
			() =>
				signatureHeaders(
					env.emulator.account.apiKey,
					env.emulator.account.apiSecret,
					new Date(Date.now() - 301_000),
				),
		],
		[
			'unsupported SignatureVersion',
			() => ({
				...signatureHeaders(env.emulator.account.apiKey, env.emulator.account.apiSecret),
				SignatureVersion: '2.0',
			}),
		],
	])('%s gives HTTP 401', async (_name, headers) => {
		const answer = await call(
			env.emulator,
			path,
			{},
			{ headers: headers() as Record<string, string> },
		);
		expect(answer.status).toBe(401);
		expect(answer.body.code).toBe(401);
	});

	test('a timestamp 4 minutes old is still valid', async () => {
		const headers = signatureHeaders(
			env.emulator.account.apiKey,
			env.emulator.account.apiSecret,
			new Date(Date.now() - 240_000),
		);
		expect((await call(env.emulator, path, {}, { headers })).status).toBe(200);
	});

	test('neither scheme, or an unknown token, is refused', async () => {
		expect((await call(env.emulator, path, {}, { none: true })).status).toBe(401);
		expect((await call(env.emulator, path, {}, { token: 'not-a-token' })).status).toBe(401);
	});

	test('secrets never appear in answers', async () => {
		const answer = await call(env.emulator, path, {}, { headers: signatureHeaders('x', 'y') });
		expect(JSON.stringify(answer.body)).not.toContain(env.emulator.account.apiSecret);
	});
});

describe('client-credentials tokens', () => {
	test('a token lasts 2 hours and the same key gets the same token meanwhile', async () => {
		const first = await clientCredentialsToken();
		expect(first.data).toMatchObject({ code: 200, message: null, expiresIn: 7200 });
		expect(typeof first.data.requestId).toBe('string');
		await env.control('POST', 'clock', { advanceSeconds: 3600 });
		const second = await clientCredentialsToken();
		expect(second.data.accessToken).toBe(first.data.accessToken);
		expect(second.data.expiresIn).toBeGreaterThanOrEqual(3598);
		expect(second.data.expiresIn).toBeLessThanOrEqual(3600);
		expect((await call(env.emulator, path, {}, { token: first.data.accessToken })).body.code).toBe(
			200,
		);
	});

	test('in the last 5 minutes a new token is given and both are valid until the old one expires', async () => {
		const first = (await clientCredentialsToken()).data.accessToken;
		await env.control('POST', 'clock', { advanceSeconds: 7200 - 240 });
		const second = (await clientCredentialsToken()).data.accessToken;
		expect(second).not.toBe(first);
		expect((await call(env.emulator, path, {}, { token: first })).status).toBe(200);
		expect((await call(env.emulator, path, {}, { token: second })).status).toBe(200);
		await env.control('POST', 'clock', { advanceSeconds: 241 });
		expect((await call(env.emulator, path, {}, { token: first })).status).toBe(401);
		expect((await call(env.emulator, path, {}, { token: second })).status).toBe(200);
	});

	test('a wrong secret gets no token', async () => {
		const answer = await axios.get(`${env.emulator.url}/v5/auth/oauth/authorize`, {
			params: { grantType: 'client_credentials' },
			headers: {
				Authorization: Buffer.from(`${env.emulator.account.apiKey}:nope`).toString('base64'),
			},
			validateStatus: () => true,
		});
		expect(answer.status).toBe(401);
		expect(answer.data.accessToken).toBeUndefined();
	});
});

describe('authorization-code flow', () => {
	const exchange = (code: string, secret = env.emulator.account.clientSecret) =>
		axios.get(`${env.emulator.url}/v5/auth/oauth/token`, {
			params: {
				grant_type: 'authorization_code',
				client_id: env.emulator.account.clientId,
				client_secret: secret,
				code,
			},
			validateStatus: () => true,
		});

	test('authorize redirects with a code that is exchanged once for a never-expiring token', async () => {
		const code = await env.authorizationCode();
		expect(code).toMatch(/^[0-9a-f]{24}$/);
		const answer = await exchange(code);
		expect(answer.data).toMatchObject({ code: 200, expiresIn: -1 });
		await env.control('POST', 'clock', { advanceSeconds: 365 * 86400 });
		expect((await call(env.emulator, path, {}, { token: answer.data.accessToken })).status).toBe(
			200,
		);
		const again = await exchange(code);
		expect(again.status).toBe(400);
		expect(again.data.accessToken).toBeUndefined();
	});

	test('a code is valid 5 minutes', async () => {
		const code = await env.authorizationCode();
		await env.control('POST', 'clock', { advanceSeconds: 301 });
		expect((await exchange(code)).status).toBe(400);
	});

	test('a wrong client secret, unknown client or unregistered redirect is refused', async () => {
		expect((await exchange(await env.authorizationCode(), 'wrong')).status).toBe(401);
		const bad = await axios.get(`${env.emulator.url}/v5/auth/oauth/authorize`, {
			params: {
				client_id: env.emulator.account.clientId,
				response_type: 'code',
				redirect_uri: 'https://evil.example/cb',
				scope: 'All',
			},
			maxRedirects: 0,
			validateStatus: () => true,
		});
		expect(bad.status).toBe(400);
	});
});
