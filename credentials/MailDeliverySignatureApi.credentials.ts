import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL_TEST, DEFAULT_BASE_URL, signatureHeaders, withAuthentication } from './common';

export class MailDeliverySignatureApi implements ICredentialType {
	name = 'mailDeliverySignatureApi';

	displayName = 'Mail Delivery Signature API';

	icon = { light: 'file:mailDelivery.svg', dark: 'file:mailDelivery.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-mail-delivery/n8n-nodes-mail-delivery#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			required: true,
			description:
				'Address of the API, without the /v5 path. The default is the local emulator started by this package.',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
	];

	// A function, not a generic object: the timestamp and signature must be made for each request.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return withAuthentication(credentials, requestOptions, signatureHeaders(String(credentials.apiKey ?? ''), String(credentials.apiSecret ?? '')));
	}

	test: ICredentialTestRequest = CREDENTIAL_TEST;
}

