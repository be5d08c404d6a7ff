/** The Authentication field and the credentials list, the same on both nodes. */
import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { type Authentication, credentialTypeOf } from './transport/credentials';

const authenticationShow = (value: Authentication) => ({ show: { authentication: [value] } });

/** The credentials list of both nodes: the one chosen in Authentication is required. */
export const nodeCredentials: INodeCredentialDescription[] = (
	['signature', 'oAuth2ClientCredentials', 'oAuth2AuthorizationCode'] as const
).map((value) => ({
	name: credentialTypeOf(value),
	required: true,
	displayOptions: authenticationShow(value),
}));

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
