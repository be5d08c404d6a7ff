import axios from 'axios';

import { useEmulator } from '../harness/emulator.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const getWebhook = { resource: 'webhook', operation: 'get' };
const grants = () => env.view().tokens.filter((t) => t.owner.startsWith('key:')).length;

test('signature credential: every request is signed and accepted', async () => {
	const credentials = env.credentials();
	const result = await runWorkflow({
		...actionWorkflow(getWebhook),
		credentials,
		items: [{ json: {} }, { json: {} }],
	});
	expect(result.error()).toBeUndefined();
	expect(result.output('Mail Delivery')).toHaveLength(2);
	expect(env.view().requests.map((r) => [r.path, r.auth, r.code])).toEqual([
		['/v5/webhook/get', 'signature', 200],
		['/v5/webhook/get', 'signature', 200],
	]);
});

test('client credentials: one token serves many executions, and a new one is fetched after a 401', async () => {
	const credentials = env.credentials();
	for (let run = 0; run < 5; run++) {
		const result = await runWorkflow({
			...actionWorkflow(getWebhook, { authentication: 'oAuth2ClientCredentials' }),
			credentials,
		});
		expect(result.error()).toBeUndefined();
	}
	expect(credentials.preAuthenticationCalls).toBe(1);
	expect(grants()).toBe(1);
	const firstToken = credentials.stored.mailDeliveryClientCredentialsOAuth2Api.accessToken;
	expect(env.view().requests.every((r) => r.auth === 'oauth' && r.code === 200)).toBe(true);

	await env.control('POST', 'clock', { advanceSeconds: 2 * 3600 + 1 });
	const result = await runWorkflow({
		...actionWorkflow(getWebhook, { authentication: 'oAuth2ClientCredentials' }),
		credentials,
	});
	expect(result.error()).toBeUndefined();
	expect(credentials.preAuthenticationCalls).toBe(2);
	expect(credentials.stored.mailDeliveryClientCredentialsOAuth2Api.accessToken).not.toBe(
		firstToken,
	);
	expect(
		env
			.view()
			.requests.slice(-2)
			.map((r) => r.code),
	).toEqual([401, 200]);
});

test('client credentials with a wrong secret: a clear error that does not show the secret', async () => {
	const credentials = env.credentials();
	credentials.stored.mailDeliveryClientCredentialsOAuth2Api.apiSecret = 'wrong-secret-value';
	const result = await runWorkflow({
		...actionWorkflow(getWebhook, { authentication: 'oAuth2ClientCredentials' }),
		credentials,
	});
	expect(result.error()?.message).toMatch(
		/Could not get an access token with the client credentials: code 401/,
	);
	expect(JSON.stringify(result.run)).not.toContain('wrong-secret-value');
});

test('authorization code: exchanged once, the token reused across executions', async () => {
	const credentials = env.credentials(await env.authorizationCode());
	for (let run = 0; run < 3; run++) {
		const result = await runWorkflow({
			...actionWorkflow(getWebhook, { authentication: 'oAuth2AuthorizationCode' }),
			credentials,
		});
		expect(result.error()).toBeUndefined();
	}
	expect(credentials.preAuthenticationCalls).toBe(1);
	expect(env.view().authCodes.map((c) => c.used)).toEqual([true]);
	expect(JSON.stringify(credentials.stored.mailDeliveryAuthCodeOAuth2Api)).toMatch(
		/"accessToken":"[0-9a-f]{64}"/,
	);
});

test('authorization code already used: the error says how to get a new one', async () => {
	const code = await env.authorizationCode();
	// Spent elsewhere (another n8n, a script): within one n8n process a code already exchanged gives its token again.
	const { url, account } = env.emulator;
	await axios.get(`${url}/v5/auth/oauth/token`, {
		params: {
			grant_type: 'authorization_code',
			client_id: account.clientId,
			client_secret: account.clientSecret,
			code,
		},
	});
	const result = await runWorkflow({
		...actionWorkflow(getWebhook, { authentication: 'oAuth2AuthorizationCode' }),
		credentials: env.credentials(code),
	});
	expect(result.error()?.message).toContain('The authorization code was not accepted');
	// The address to get a new code, built from the credential's own values (n8n shows no computed notice).
	const { redirectUri } = env.emulator;
	expect(result.error()?.message).toContain(
		`${url}/v5/auth/oauth/authorize?client_id=${account.clientId}&response_type=code&redirect_uri=${encodeURIComponent(redirectUri)}&scope=All`,
	);
});

test('authorization code expired after 5 minutes: the same clear error', async () => {
	const code = await env.authorizationCode();
	await env.control('POST', 'clock', { advanceSeconds: 301 });
	const result = await runWorkflow({
		...actionWorkflow(getWebhook, { authentication: 'oAuth2AuthorizationCode' }),
		credentials: env.credentials(code),
	});
	expect(result.error()?.message).toMatch(
		/not accepted .*expired or was already used.*valid for 5 minutes/,
	);
	expect(env.view().requests).toHaveLength(0);
});

test('the authorization-code credential test never spends a used code: the stored token is kept', async () => {
	const { MailDeliveryAuthCodeOAuth2Api } =
		await import('../../credentials/MailDeliveryAuthCodeOAuth2Api.credentials');
	const credential = new MailDeliveryAuthCodeOAuth2Api();
	const output = await credential.preAuthentication.call(
		{
			helpers: {
				httpRequest: async () => {
					throw new Error('no request expected');
				},
			},
		} as never,
		{ authorizationCode: 'abc', exchangedCode: 'abc', accessToken: 'tok' },
	);
	expect(output).toEqual({ accessToken: 'tok' });
});

test('authorization code not entered yet: the error (which n8n shows when the credential is saved) gives the authorize address to open', async () => {
	const { MailDeliveryAuthCodeOAuth2Api } =
		await import('../../credentials/MailDeliveryAuthCodeOAuth2Api.credentials');
	const credential = new MailDeliveryAuthCodeOAuth2Api();
	// Saved without a code, n8n tests the credential: the code must not be required for that test to run.
	expect(
		credential.properties.find((property) => property.name === 'authorizationCode')?.required,
	).not.toBe(true);
	expect(
		credential.properties
			.filter((property) => property.type === 'notice')
			.map((notice) => notice.displayName)
			.join(' '),
	).not.toMatch(/\{\{|\$self/);
	const request = credential.preAuthentication.call(
		{ helpers: { httpRequest: async () => ({}) } } as never,
		{
			baseUrl: 'https://api.platform.example/',
			clientId: 'my app',
			clientSecret: 's',
			redirectUri: 'https://me.example/cb?x=1',
			authorizationCode: '',
		},
	);
	await expect(request).rejects.toThrow(
		'https://api.platform.example/v5/auth/oauth/authorize?client_id=my%20app&response_type=code&redirect_uri=https%3A%2F%2Fme.example%2Fcb%3Fx%3D1&scope=All',
	);
});

test('authorization code: requests that start at once (the editor loads several lists) exchange the code once and all succeed', async () => {
	const credentials = env.credentials(await env.authorizationCode());
	const runs = await Promise.all(
		[0, 1, 2].map(
			async () =>
				await runWorkflow({
					...actionWorkflow(getWebhook, { authentication: 'oAuth2AuthorizationCode' }),
					credentials,
				}),
		),
	);
	expect(runs.map((run) => run.error()?.message)).toEqual([undefined, undefined, undefined]);
	expect(
		env
			.view()
			.requests.filter((request) => request.path === '/v5/webhook/get')
			.map((request) => request.code),
	).toEqual([200, 200, 200]);
});

test('authorization code: a second credential with the same code but a wrong Client Secret never uses the token the first one obtained', async () => {
	const code = await env.authorizationCode();
	const good = env.credentials(code);
	const first = await runWorkflow({
		...actionWorkflow(getWebhook, { authentication: 'oAuth2AuthorizationCode' }),
		credentials: good,
	});
	expect(first.error()).toBeUndefined();
	const requestsBefore = env.view().requests.length;
	const impostor = env.credentials(code);
	impostor.stored.mailDeliveryAuthCodeOAuth2Api.clientSecret = 'not-the-client-secret';
	const second = await runWorkflow({
		...actionWorkflow(getWebhook, { authentication: 'oAuth2AuthorizationCode' }),
		credentials: impostor,
	});
	expect(second.error()?.message).toMatch(/authorization code was not accepted/);
	// No business request went out on the first credential's token.
	expect(env.view().requests.slice(requestsBefore)).toEqual([]);
	expect(impostor.stored.mailDeliveryAuthCodeOAuth2Api.accessToken).toBe('');
	expect(JSON.stringify(second.run)).not.toContain('not-the-client-secret');
});
