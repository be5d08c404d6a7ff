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
