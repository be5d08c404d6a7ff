import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { type Authentication, credentialTypeOf } from '../helpers/authentication';
import { explainCode } from '../helpers/errors';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions;


export interface ApiResponse extends IDataObject {
	code?: number;
	message?: string | null;
}

function credentialType(context: ApiContext): string {
	return credentialTypeOf(context.getNodeParameter('authentication', 0, 'signature') as Authentication);
}

function asObject(value: unknown): ApiResponse | undefined {
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as ApiResponse;
	if (typeof value === 'string') {
		try {
			const parsed: unknown = JSON.parse(value);
			return asObject(parsed);
		} catch {
			return undefined;
		}
	}
	return undefined;
}

function platformError(
	context: ApiContext,
	path: string,
	code: number,
	body: ApiResponse | undefined,
	itemIndex?: number,
): NodeApiError {
	const platformMessage = body?.message ? String(body.message) : '';
	const explanation = explainCode(path, code);
	return new NodeApiError(context.getNode(), (body ?? { code }) as JsonObject, {
		message: `Mail Delivery API error ${code} on ${path.replace('/v5/', '')}`,
		description: platformMessage ? `${explanation} Platform message: ${platformMessage}` : explanation,
		httpCode: String(code),
		itemIndex,
	});
}

/**
 * The one request function: POST JSON to the Base URL + path with the chosen credential.
 * A body `code` other than 200, or an HTTP 401/403/500 answer, becomes a NodeApiError carrying the
 * code, an English explanation and the platform's own message. HTTP errors are left to throw inside
 * n8n's helper first, so that its re-authentication after a 401 (preAuthentication) still happens.
 */
export async function apiRequest(
	this: ApiContext,
	path: string,
	body: IDataObject = {},
	itemIndex?: number,
): Promise<ApiResponse> {
	const options: IHttpRequestOptions = { method: 'POST', url: path, body, json: true };
	let response: unknown;
	try {
		response = await this.helpers.httpRequestWithAuthentication.call(this, credentialType(this), options);
	} catch (error) {
		const failed = error as NodeApiError & { cause?: { response?: { status?: number; data?: unknown } } };
		const status = failed.cause?.response?.status ?? Number(failed.httpCode);
		const answer = asObject(failed.cause?.response?.data);
		const code = typeof answer?.code === 'number' && answer.code !== 200 ? answer.code : status;
		if (Number.isFinite(code) && code > 0) throw platformError(this, path, code, answer, itemIndex);
		throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex });
	}
	const answer = asObject(response);
	if (!answer) {
		throw new NodeApiError(this.getNode(), { response: String(response) } as JsonObject, {
			message: `Mail Delivery API answered ${path} with something that is not JSON`,
			itemIndex,
		});
	}
	if (answer.code !== 200) throw platformError(this, path, Number(answer.code ?? 0), answer, itemIndex);
	return answer;
}

/** The largest page the node asks for; the platform's own maximum is not documented. */
export const PAGE_SIZE = 100;

export interface PagingOptions {
	returnAll: boolean;
	limit: number;
	itemIndex?: number;
}

/**
 * Follows pageSize/pageIndex pages. Return All stops at a short page or at totalRecords; Limit stops
 * as soon as it has enough. No page is fetched twice.
 */
export async function apiRequestPages(
	this: ApiContext,
	path: string,
	body: IDataObject,
	listKey: string,
	{ returnAll, limit, itemIndex }: PagingOptions,
): Promise<IDataObject[]> {
	const wanted = returnAll ? Infinity : Math.max(0, limit);
	const pageSize = returnAll ? PAGE_SIZE : Math.min(PAGE_SIZE, Math.max(1, limit));
	const records: IDataObject[] = [];
	for (let pageIndex = 1; records.length < wanted; pageIndex++) {
		const page = await apiRequest.call(this, path, { ...body, pageSize, pageIndex }, itemIndex);
		const list = Array.isArray(page[listKey]) ? (page[listKey] as IDataObject[]) : [];
		records.push(...list);
		const total = typeof page.totalRecords === 'number' ? page.totalRecords : Infinity;
		if (list.length < pageSize || records.length >= total) break;
	}
	return returnAll ? records : records.slice(0, wanted);
}
