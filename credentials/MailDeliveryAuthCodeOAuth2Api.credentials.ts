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
	oauthHeader,
	trimBaseUrl,
	withAuthentication,
} from './common';

const NEW_CODE_HELP =
	'Authorization codes are valid for 5 minutes and can be used once. Open the authorize URL shown in this credential, approve access, copy the "code" parameter of the page you are sent to, paste it into Authorization Code and save.';

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

	documentationUrl = 'https://github.com/n8n-nodes-mail-delivery/n8n-nodes-mail-delivery#credentials';

	properties: INodeProperties[] = [
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
			displayName:
				'To get a code, open this URL in your browser, approve access, and copy the "code" parameter of the page you are sent to (valid 5 minutes, usable once): {{$self.baseUrl.replace(/\\/+$/, "")}}/v5/auth/oauth/authorize?client_id={{encodeURIComponent($self.clientId)}}&response_type=code&redirect_uri={{encodeURIComponent($self.redirectUri)}}&scope=All',
			name: 'authorizeUrlNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Authorization Code',
			name: 'authorizationCode',
			type: 'string',
			default: '',
			required: true,
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
			throw new Error(`No authorization code is set. ${NEW_CODE_HELP}`);
		}
		const accessToken = await fetchAccessToken(
			this.helpers,
			{
				url: `${trimBaseUrl(credentials.baseUrl)}${CODE_EXCHANGE_ENDPOINT}`,
				qs: { grant_type: 'authorization_code', client_id: credentials.clientId, client_secret: credentials.clientSecret, code },
			},
			'The authorization code was not accepted (it has expired or was already used, or the client ID or secret is wrong)',
			NEW_CODE_HELP,
		);
		return { accessToken, exchangedCode: code };
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return withAuthentication(credentials, requestOptions, oauthHeader(credentials));
	}

	test: ICredentialTestRequest = CREDENTIAL_TEST;
}
