/**
 * Hosts the trigger node the way n8n does: its webhook lifecycle methods run in n8n-core's
 * HookContext, and each push is handled in a WebhookContext, behind a loopback HTTP server that
 * stands where n8n's /webhook and /webhook-test routes stand.
 */
import { HookContext, WebhookContext } from 'n8n-core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, INode, INodeExecutionData, IWebhookData, WorkflowExecuteMode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { MailDeliveryTrigger } from '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';
import { buildAdditionalData, CredentialsStore, nodeTypes, PACKAGE, registerNodeType } from './n8n';

export const TRIGGER_NODE_TYPE = `${PACKAGE}.mailDeliveryTrigger`;
const trigger = new MailDeliveryTrigger();
registerNodeType(TRIGGER_NODE_TYPE, trigger);

export interface TriggerHost {
	baseUrl: string;
	/** Executions started, each as the node's outputs. */
	executions: INodeExecutionData[][][];
	responses: Array<{ status: number; body: string }>;
	staticData: IDataObject;
	workflow: Workflow;
	checkExists(mode?: WorkflowExecuteMode): Promise<boolean>;
	create(mode?: WorkflowExecuteMode): Promise<boolean>;
	remove(mode?: WorkflowExecuteMode): Promise<boolean>;
	webhookUrl(mode?: WorkflowExecuteMode): string;
	close(): Promise<void>;
}

export async function startTriggerHost(parameters: IDataObject, credentials: CredentialsStore, staticData: IDataObject = {}): Promise<TriggerHost> {
	const node: INode = {
		id: 'trigger-1',
		name: 'Mail Delivery Trigger',
		type: TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: 'hook-id',
		parameters: { authentication: 'signature', ...parameters } as INode['parameters'],
		credentials: { mailDeliverySignatureApi: { id: '1', name: 'test' } },
	};
	const workflow = new Workflow({ id: 'wf-1', nodes: [node], connections: {}, active: true, nodeTypes, staticData, settings: { timezone: 'UTC' } });
	const host = { executions: [], responses: [], staticData, workflow } as unknown as TriggerHost;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => void handle(req, res, Buffer.concat(chunks)));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	host.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const additionalData = buildAdditionalData(credentials, undefined, host.baseUrl);
	const webhookData = (mode: WorkflowExecuteMode): IWebhookData => ({
		httpMethod: 'POST',
		node: node.name,
		path: 'hook-id/events',
		webhookDescription: trigger.description.webhooks![0],
		workflowId: 'wf-1',
		workflowExecuteAdditionalData: additionalData,
		webhookId: 'hook-id',
		isTest: mode === 'manual',
	});
	const hookContext = (mode: WorkflowExecuteMode = 'trigger') => new HookContext(workflow, node, additionalData, mode, 'activate', webhookData(mode));
	const methods = trigger.webhookMethods.default;
	host.checkExists = async (mode) => await methods.checkExists.call(hookContext(mode));
	host.create = async (mode) => await methods.create.call(hookContext(mode));
	host.remove = async (mode) => await methods.delete.call(hookContext(mode));
	host.webhookUrl = (mode = 'trigger') => `${host.baseUrl}/${mode === 'manual' ? 'webhook-test' : 'webhook'}/hook-id/events`;

	async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) {
		const url = new URL(req.url ?? '/', host.baseUrl);
		const mode: WorkflowExecuteMode = url.pathname.startsWith('/webhook-test/') ? 'manual' : 'trigger';
		const request = Object.assign(req, { rawBody: raw, query: Object.fromEntries(url.searchParams), body: safeJson(raw) });
		const response = Object.assign(res, {
			status(code: number) {
				res.statusCode = code;
				return response;
			},
			json(body: unknown) {
				res.setHeader('Content-Type', 'application/json');
				res.end(JSON.stringify(body));
				return response;
			},
		});
		const record = res.end.bind(res);
		res.end = ((chunk?: unknown) => {
			host.responses.push({ status: res.statusCode, body: String(chunk ?? '') });
			return record(chunk as string);
		}) as typeof res.end;
		try {
			const context = new WebhookContext(workflow, node, { ...additionalData, httpRequest: request, httpResponse: response } as never, mode, webhookData(mode), [], null);
			const answer = await trigger.webhook.call(context);
			if (answer.noWebhookResponse) return;
			if (answer.workflowData) host.executions.push(answer.workflowData);
			response.status(200).json(answer.workflowData ? { message: 'Workflow was started' } : (answer.webhookResponse ?? {}));
		} catch (error) {
			response.status(500).json({ message: (error as Error).message });
		}
	}

	host.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
	return host;
}

function safeJson(raw: Buffer): unknown {
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		return {};
	}
}
