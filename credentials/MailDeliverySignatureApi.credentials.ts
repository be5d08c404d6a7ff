import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import {
	apiKeyAndSecretProperties,
	baseUrlProperty,
	CREDENTIAL_TEST,
	signatureHeaders,
	withAuthentication,
} from './common';

export class MailDeliverySignatureApi implements ICredentialType {
	name = 'mailDeliverySignatureApi';

	displayName = 'Mail Delivery Signature API';

	icon = { light: 'file:mailDelivery.svg', dark: 'file:mailDelivery.dark.svg' } as const;

	documentationUrl =
		'https://github.com/n8n-nodes-mail-delivery/n8n-nodes-mail-delivery#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'Signs every request with your API key and secret; no token is fetched or stored. The simplest choice for your own account. (OAuth2 Client Credentials uses the same key and secret to fetch a token instead; choose it if your platform account requires OAuth.)',
			name: 'whenToChoose',
			type: 'notice',
			default: '',
		},
		baseUrlProperty,
		...apiKeyAndSecretProperties,
	];

	// A property, not a method: n8n sees it in its copy of the credential type and then offers Custom API
	// Call (the HTTP Request node with this credential). A function, for a signature or token per request.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		return withAuthentication(
			credentials,
			requestOptions,
			signatureHeaders(String(credentials.apiKey ?? ''), String(credentials.apiSecret ?? '')),
		);
	};

	test: ICredentialTestRequest = CREDENTIAL_TEST;
}
