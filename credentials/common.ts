import { createHash } from 'node:crypto';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/** Paths and rules shared by the three credentials (platform API section 5). */
export const GRANT_ENDPOINT = '/v5/auth/oauth/authorize';
export const CODE_EXCHANGE_ENDPOINT = '/v5/auth/oauth/token';
/** The cheapest read operation; every credential tests itself with it. */
const CREDENTIAL_TEST_PATH = '/v5/verified_senders/get';

export function trimBaseUrl(baseUrl: unknown): string {
	return String(baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/** The signature Timestamp (5.1): UTC `YYYY-MM-DDThh:mm:ssZ`, for `now` unless given. */
export function formatApiTimestamp(date: Date = new Date()): string {
	return `${date.toISOString().slice(0, 19)}Z`;
}

const sha1UpperHex = (text: string) =>
	createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

/** Signature v1.0: uppercase hex SHA1( uppercase hex SHA1(secret) + timestamp ). */
export function computeSignature(apiSecret: string, timestamp: string): string {
	return sha1UpperHex(sha1UpperHex(apiSecret) + timestamp);
}

/** The four signature headers, with a timestamp made now so long runs never send a stale one. */
export function signatureHeaders(apiKey: string, apiSecret: string, now: Date = new Date()) {
	const timestamp = formatApiTimestamp(now);
	return {
		ApiKey: apiKey,
		Timestamp: timestamp,
		Authorization: computeSignature(apiSecret, timestamp),
		SignatureVersion: '1.0',
	};
}

/** The token endpoints answer `{ code, message, accessToken, expiresIn }`. */
interface TokenResponse {
	code?: number;
	message?: string | null;
	accessToken?: string;
	expiresIn?: number;
}

/** Reads a token answer, throwing an English error that never quotes a secret. */
function readTokenResponse(response: unknown, whatFailed: string, howToFix: string): string {
	const body = (typeof response === 'string' ? safeJson(response) : response) as TokenResponse;
	if (body && body.code === 200 && typeof body.accessToken === 'string' && body.accessToken) {
		return body.accessToken;
	}
	const code = body?.code ?? 'unknown';
	const platformMessage = body?.message ? ` (platform message: ${body.message})` : '';
	throw new Error(`${whatFailed}: code ${code}${platformMessage}. ${howToFix}`);
}

function safeJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return { code: 'not JSON' };
	}
}

/** Reads the platform's answer out of a failed helper request (HTTP 4xx/5xx). */
function responseOfFailedRequest(error: unknown): unknown {
	const failed = error as {
		response?: { data?: unknown; body?: unknown };
		cause?: { response?: { data?: unknown } };
	};
	return failed?.response?.data ?? failed?.response?.body ?? failed?.cause?.response?.data;
}

/**
 * GETs a token endpoint (both OAuth flows use GET) and returns the access token, or throws an English
 * error carrying the platform's code and message, never a secret.
 */
export async function fetchAccessToken(
	helpers: IHttpRequestHelper['helpers'],
	request: { url: string; qs: IDataObject; headers?: IDataObject },
	whatFailed: string,
	howToFix: string,
): Promise<string> {
	let response: unknown;
	try {
		response = await helpers.httpRequest({ method: 'GET', json: true, ...request });
	} catch (error) {
		response = responseOfFailedRequest(error) ?? {
			code: 'no answer',
			message: (error as Error).message,
		};
	}
	return readTokenResponse(response, whatFailed, howToFix);
}

const failWhenCode = (value: number, message: string) =>
	({ type: 'responseSuccessBody', properties: { key: 'code', value, message } }) as const;
const failWhenStatus = (value: number, message: string) =>
	({ type: 'responseCode', properties: { value, message } }) as const;

/**
 * One test for all three credentials: a cheap read, failed on any error code the platform sends,
 * in the body or as the HTTP status. n8n's rules match fixed values only, so each known code gets
 * its English message (the platform's own text cannot be quoted here).
 */
export const CREDENTIAL_TEST: ICredentialTestRequest = {
	request: {
		baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
		url: CREDENTIAL_TEST_PATH,
		method: 'POST',
		body: {},
		json: true,
	},
	rules: [
		failWhenStatus(
			401,
			"Authentication failed (HTTP 401): the API key or secret is wrong, the token was refused, or this machine's clock is more than 5 minutes off",
		),
		failWhenStatus(403, 'The platform refused the request (HTTP 403: forbidden)'),
		failWhenStatus(
			404,
			'No API answers at this Base URL (HTTP 404): give the address without the /v5 path',
		),
		failWhenStatus(500, 'The platform had an internal error (HTTP 500); try again later'),
		failWhenCode(400, 'The platform rejected the test request (code 400: bad request)'),
		failWhenCode(401, 'Authentication failed (code 401): check the key, secret or token'),
		failWhenCode(403, 'The platform refused the request (code 403: forbidden)'),
		failWhenCode(500, 'The platform had an internal error (code 500); try again later'),
		// n8n's tester checks each rule's type on both paths (1.x and 2.x); its typings allow one kind per list.
	] as unknown as ICredentialTestRequest['rules'],
};

/**
 * Adds the authentication headers, and the credential's Base URL where the request has none, so node
 * code sends paths only and never reads secrets.
 */
export function withAuthentication(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	headers: Record<string, string>,
): IHttpRequestOptions {
	requestOptions.baseURL = requestOptions.baseURL || trimBaseUrl(credentials.baseUrl);
	requestOptions.headers = { ...requestOptions.headers, ...headers };
	return requestOptions;
}

/** Fields the three credentials share. */
export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	placeholder: 'https://api.your-platform.example',
	required: true,
	description: "Address of your platform's API, without the /v5 path",
};

export const apiKeyAndSecretProperties: INodeProperties[] = [
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

/** The token n8n keeps between executions; empty makes n8n call preAuthentication. */
export const accessTokenProperty: INodeProperties = {
	displayName: 'Access Token',
	name: 'accessToken',
	type: 'hidden',
	typeOptions: { expirable: true, password: true },
	default: '',
};

export const oauthHeader = (credentials: ICredentialDataDecryptedObject) => ({
	OAuth: String(credentials.accessToken ?? ''),
});
