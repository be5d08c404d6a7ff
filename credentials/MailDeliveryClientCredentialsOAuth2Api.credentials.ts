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
	apiKeyAndSecretProperties,
	baseUrlProperty,
	CREDENTIAL_TEST,
	fetchAccessToken,
	GRANT_ENDPOINT,
	oauthHeader,
	trimBaseUrl,
	withAuthentication,
} from './common';

/**
 * OAuth 2 client credentials (section 5.2). The platform's token endpoint is a GET with a base64
 * `Authorization` header and answers `accessToken`, so n8n's built-in OAuth2 credential cannot serve it.
 * n8n calls preAuthentication when the hidden token is empty, on a credential test, and after an
 * HTTP 401 (then it retries the request once); it stores what is returned, so one token serves
 * every execution until the platform rejects it.
 */
export class MailDeliveryClientCredentialsOAuth2Api implements ICredentialType {
	name = 'mailDeliveryClientCredentialsOAuth2Api';

	displayName = 'Mail Delivery OAuth2 Client Credentials API';

	icon = { light: 'file:mailDelivery.svg', dark: 'file:mailDelivery.dark.svg' } as const;

	documentationUrl =
		'https://github.com/n8n-nodes-mail-delivery/n8n-nodes-mail-delivery#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'Fetches an access token with your API key and secret and reuses it until the platform refuses it (tokens last 2 hours). Choose it if your platform account requires OAuth; otherwise Signature API is simpler and needs no token.',
			name: 'whenToChoose',
			type: 'notice',
			default: '',
		},
		baseUrlProperty,
		...apiKeyAndSecretProperties,
		accessTokenProperty,
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const basic = Buffer.from(`${credentials.apiKey}:${credentials.apiSecret}`).toString('base64');
		const accessToken = await fetchAccessToken(
			this.helpers,
			{
				url: `${trimBaseUrl(credentials.baseUrl)}${GRANT_ENDPOINT}`,
				qs: { grantType: 'client_credentials' },
				headers: { Authorization: basic },
			},
			'Could not get an access token with the client credentials',
			'Check the Base URL, API Key and API Secret of this credential.',
		);
		return { accessToken };
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
