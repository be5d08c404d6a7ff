import { createHash } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import {
	accessTokenProperty,
	baseUrlProperty,
	CODE_EXCHANGE_ENDPOINT,
	CREDENTIAL_TEST,
	fetchAccessToken,
	GRANT_ENDPOINT,
	oauthHeader,
	trimBaseUrl,
	withAuthentication,
} from './common';

/** The page where the user approves access and gets a code (5.3 step 1), from the credential's own values. */
function authorizeUrl(credentials: ICredentialDataDecryptedObject): string {
	const query = [
		`client_id=${encodeURIComponent(String(credentials.clientId ?? '').trim())}`,
		'response_type=code',
		`redirect_uri=${encodeURIComponent(String(credentials.redirectUri ?? '').trim())}`,
		'scope=All',
	].join('&');
	return `${trimBaseUrl(credentials.baseUrl)}${GRANT_ENDPOINT}?${query}`;
}

/** How to get a code; n8n shows this in the credential dialog when the test after Save fails. */
const newCodeHelp = (credentials: ICredentialDataDecryptedObject) =>
	`To get a code, open ${authorizeUrl(credentials)} in your browser, approve access, copy the "code" parameter of the page you are sent to into Authorization Code and save again (a code is valid for 5 minutes and can be used once).`;

/**
 * Exchanges in progress or done, by credential and code: the editor loads several lists at once when a
 * node opens, and a code can be used only once, so requests that start together share one exchange.
 */
const exchanges = new Map<string, Promise<string>>();
const MAX_REMEMBERED_EXCHANGES = 100;

/**
 * The key of an exchange: everything that identifies the credential, the client secret included, and
 * the code, hashed (the key holds no secret; the map's values are the tokens). A credential that differs in any of them (a wrong secret)
 * never shares a token it could not have obtained itself.
 */
function exchangeKey(credentials: ICredentialDataDecryptedObject, code: string): string {
	const identity = [
		trimBaseUrl(credentials.baseUrl),
		String(credentials.clientId ?? ''),
		String(credentials.clientSecret ?? ''),
		String(credentials.redirectUri ?? '').trim(),
		code,
	];
	return createHash('sha256').update(JSON.stringify(identity)).digest('hex');
}

/**
 * OAuth 2 authorization code for third-party applications (section 5.3). The code is exchanged by a
 * GET to the token endpoint, which answers `accessToken` (expiresIn -1: it never expires). The code
 * last exchanged is remembered, so a credential test or a retry after HTTP 401 never spends a used
 * code again; a newly pasted code is exchanged once.
 */
export class MailDeliveryAuthCodeOAuth2Api implements ICredentialType {
	name = 'mailDeliveryAuthCodeOAuth2Api';

	displayName = 'Mail Delivery OAuth2 Authorization Code API';

	icon = { light: 'file:mailDelivery.svg', dark: 'file:mailDelivery.dark.svg' } as const;

	documentationUrl =
		'https://github.com/n8n-nodes-mail-delivery/n8n-nodes-mail-delivery#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'For a third-party application registered on the platform (client ID, secret and redirect URI): the account owner approves access in the browser once. For your own account, Signature API is simpler.',
			name: 'whenToChoose',
			type: 'notice',
			default: '',
		},
		baseUrlProperty,
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Redirect URI',
			name: 'redirectUri',
			type: 'string',
			default: '',
			required: true,
			description: 'The redirect URI configured for this application on the platform',
		},
		{
			// n8n shows a credential notice as plain text; the address built from these fields comes with the test.
			displayName:
				'Fill in the fields above and click Save: the connection test then shows the address to open in your browser. Approve access there, copy the "code" parameter of the page you are sent to into Authorization Code, and save again. A code is valid for 5 minutes and can be used once.',
			name: 'authorizeUrlNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Authorization Code',
			name: 'authorizationCode',
			type: 'string',
			default: '',
			// Not required: n8n tests a credential on Save only when its required fields are filled, and that test gives the address.
			description:
				'The "code" parameter of the page the platform sends you to after you approve access',
		},
		accessTokenProperty,
		{
			displayName: 'Exchanged Code Fingerprint',
			name: 'exchangedCode',
			type: 'hidden',
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const code = String(credentials.authorizationCode ?? '').trim();
		// A token from this very code already exists: a used code cannot give another one.
		if (credentials.accessToken && credentials.exchangedCode === code) {
			return { accessToken: credentials.accessToken };
		}
		if (!code) {
			throw new Error(`No authorization code yet. ${newCodeHelp(credentials)}`);
		}
		const key = exchangeKey(credentials, code);
		let exchange = exchanges.get(key);
		if (!exchange) {
			exchange = fetchAccessToken(
				this.helpers,
				{
					url: `${trimBaseUrl(credentials.baseUrl)}${CODE_EXCHANGE_ENDPOINT}`,
					qs: {
						grant_type: 'authorization_code',
						client_id: credentials.clientId,
						client_secret: credentials.clientSecret,
						code,
					},
				},
				'The authorization code was not accepted (it has expired or was already used, or the client ID or secret is wrong)',
				newCodeHelp(credentials),
			);
			if (exchanges.size >= MAX_REMEMBERED_EXCHANGES)
				exchanges.delete(exchanges.keys().next().value!);
			exchanges.set(key, exchange);
			// A refused code is not remembered: the same code is refused again, but the client secret may be corrected.
			exchange.catch(() => exchanges.delete(key));
		}
		return { accessToken: await exchange, exchangedCode: code };
	}

	// A property, not a method: n8n sees it in its copy of the credential type and then offers Custom API
	// Call (the HTTP Request node with this credential). A function, for a signature or token per request.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		return withAuthentication(credentials, requestOptions, oauthHeader(credentials));
	};

	test: ICredentialTestRequest = CREDENTIAL_TEST;
}
