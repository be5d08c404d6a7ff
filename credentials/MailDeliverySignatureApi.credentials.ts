import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { apiKeyAndSecretProperties, baseUrlProperty, CREDENTIAL_TEST, signatureHeaders, withAuthentication } from './common';

export class MailDeliverySignatureApi implements ICredentialType {
	name = 'mailDeliverySignatureApi';

	displayName = 'Mail Delivery Signature API';

	icon = { light: 'file:mailDelivery.svg', dark: 'file:mailDelivery.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-mail-delivery/n8n-nodes-mail-delivery#credentials';

	properties: INodeProperties[] = [baseUrlProperty, ...apiKeyAndSecretProperties];

	// A function, not a generic object: the timestamp and signature must be made for each request.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return withAuthentication(credentials, requestOptions, signatureHeaders(String(credentials.apiKey ?? ''), String(credentials.apiSecret ?? '')));
	}

	test: ICredentialTestRequest = CREDENTIAL_TEST;
}

