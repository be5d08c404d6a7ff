/** Which credential a request uses, and the run's credential, read once. */
import type {
	IAdditionalCredentialOptions,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

export type ApiContext =
	IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

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

function credentialType(context: ApiContext): string {
	return credentialTypeOf(
		context.getNodeParameter('authentication', 0, 'signature') as Authentication,
	);
}

interface RunCredential {
	type: string;
	/** The credential, decrypted once for the run; undefined leaves it to n8n at every request. */
	options?: IAdditionalCredentialOptions;
	/** The platform and account it reaches (the credential and its address), where what runs find of it is kept. */
	platformKey?: string;
}

/**
 * A node run's credential, read once: n8n's helper would otherwise read it from its database and decrypt it at
 * every request (about half a millisecond each, a thousand times in a send of 100,000). A token n8n refreshes
 * during the run (after a 401) is written into this same object, so the run's later requests carry it.
 */
const credentialOfRun = new WeakMap<ApiContext, Promise<RunCredential>>();

export function runCredential(context: ApiContext): Promise<RunCredential> {
	let credential = credentialOfRun.get(context);
	if (!credential) {
		credential = readRunCredential(context);
		credentialOfRun.set(context, credential);
	}
	return credential;
}

async function readRunCredential(context: ApiContext): Promise<RunCredential> {
	const type = credentialType(context);
	const reference = context.getNode().credentials?.[type];
	if (!reference?.id) return { type };
	try {
		const data = await context.getCredentials(type);
		return {
			type,
			options: { credentialsDecrypted: { ...reference, id: reference.id, type, data } },
			platformKey: `${type} ${reference.id} ${String(data.baseUrl)}`,
		};
	} catch {
		// n8n's helper reads it again at each request and words the failure as it always does.
		return { type };
	}
}
