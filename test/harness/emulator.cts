/** Starts one emulator per test file and gives tests its address, account, control interface and a read-only view. */
import axios from 'axios';

import {
	Emulator,
	startEmulator,
	type EmulatorOptions,
	type EmulatorView,
} from '../../emulator/server.cts';
import { CredentialsStore } from './n8n.cts';

export interface EmulatorFixture {
	emulator: Emulator;
	control: <T = any>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;
	/** A detached copy of the emulator's state, mails, requests, events, tokens and codes (its public snapshot). */
	view: () => EmulatorView;
	/** All three credentials on this emulator; the workflow's Authentication picks one. `authorizationCode` fills the code credential. */
	credentials: (authorizationCode?: string) => CredentialsStore;
	authorizationCode: () => Promise<string>;
	/**
	 * Resolves once every request that was sent has been answered: none under way, and none arriving for 100 ms.
	 * A request the client gave up on (a stopped execution aborts the ones under way) may still arrive after the
	 * client moved on, as it may reach a real platform.
	 */
	settled: () => Promise<void>;
}

export function useEmulator(options: EmulatorOptions = {}): EmulatorFixture {
	const fixture = {} as EmulatorFixture;
	beforeAll(async () => {
		fixture.emulator = await startEmulator(options);
	});
	afterAll(async () => {
		await fixture.emulator.stop();
	});
	beforeEach(() => {
		fixture.emulator.reset();
	});
	fixture.control = async (method, path, body) =>
		(await axios.request({ method, url: `${fixture.emulator.url}/__control/${path}`, data: body }))
			.data;
	fixture.authorizationCode = async () => {
		const { url, account, redirectUri } = {
			url: fixture.emulator.url,
			account: fixture.emulator.account,
			redirectUri: fixture.emulator.redirectUri,
		};
		const answer = await axios.get(`${url}/v5/auth/oauth/authorize`, {
			params: {
				client_id: account.clientId,
				response_type: 'code',
				redirect_uri: redirectUri,
				scope: 'All',
			},
			maxRedirects: 0,
			validateStatus: (status) => status === 302,
		});
		return new URL(answer.headers.location as string).searchParams.get('code')!;
	};
	fixture.view = () => fixture.emulator.inspect();
	fixture.settled = async () => {
		const { network } = fixture.emulator;
		const deadline = Date.now() + 30_000;
		for (let seen = -1; seen !== network.received || network.underWay > 0;) {
			if (Date.now() > deadline)
				throw new Error(`the emulator did not settle in 30 s: ${network.underWay} under way`);
			seen = network.received;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	};
	fixture.credentials = (code) => {
		const store = new CredentialsStore();
		const { url, account } = fixture.emulator;
		store.stored = {
			mailDeliverySignatureApi: {
				baseUrl: url,
				apiKey: account.apiKey,
				apiSecret: account.apiSecret,
			},
			mailDeliveryClientCredentialsOAuth2Api: {
				baseUrl: url,
				apiKey: account.apiKey,
				apiSecret: account.apiSecret,
				accessToken: '',
			},
			mailDeliveryAuthCodeOAuth2Api: {
				baseUrl: url,
				clientId: account.clientId,
				clientSecret: account.clientSecret,
				redirectUri: fixture.emulator.redirectUri,
				authorizationCode: code ?? '',
				accessToken: '',
				exchangedCode: '',
			},
		};
		return store;
	};
	return fixture;
}
