import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

/** The node's Authentication parameter values: one per credential type. */
export type Authentication = 'signature' | 'oAuth2ClientCredentials' | 'oAuth2AuthorizationCode';

/** The credential type each Authentication value uses. */
export function credentialTypeOf(authentication: Authentication): string {
	switch (authentication) {
		case 'oAuth2ClientCredentials':
			return 'mailDeliveryClientCredentialsOAuth2Api';
		case 'oAuth2AuthorizationCode':
			return 'mailDeliveryAuthCodeOAuth2Api';
		default:
			return 'mailDeliverySignatureApi';
	}
}

const authenticationShow = (value: Authentication) => ({ show: { authentication: [value] } });

/** The credentials list of both nodes: the one chosen in Authentication is required. */
export const nodeCredentials: INodeCredentialDescription[] = [
	{ name: 'mailDeliverySignatureApi', required: true, displayOptions: authenticationShow('signature') },
	{ name: 'mailDeliveryClientCredentialsOAuth2Api', required: true, displayOptions: authenticationShow('oAuth2ClientCredentials') },
	{ name: 'mailDeliveryAuthCodeOAuth2Api', required: true, displayOptions: authenticationShow('oAuth2AuthorizationCode') },
];

export const authenticationProperty: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key Signature', value: 'signature' },
		{ name: 'OAuth2 Client Credentials', value: 'oAuth2ClientCredentials' },
		{ name: 'OAuth2 Authorization Code', value: 'oAuth2AuthorizationCode' },
	],
	default: 'signature',
};
