/**
 * Hosts the trigger node the way n8n does: its webhook lifecycle methods run in n8n-core's
 * HookContext, and each push is handled in a WebhookContext, behind a loopback HTTP server that
 * stands where n8n's /webhook and /webhook-test routes stand.
 */
import { HookContext, WebhookContext } from 'n8n-core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IWebhookData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { MailDeliveryTrigger } from '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';
import { buildAdditionalData, CredentialsStore, nodeTypes, PACKAGE, registerNodeType } from './n8n';

export const TRIGGER_NODE_TYPE = `${PACKAGE}.mailDeliveryTrigger`;
const trigger = new MailDeliveryTrigger();
registerNodeType(TRIGGER_NODE_TYPE, trigger);

export interface TriggerHost {
	baseUrl: string;
	port: number;
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

/**
 * One trigger workflow. Several hosts may share an emulator account: give each its own webhookId
 * (n8n gives each workflow's trigger its own). Pass the staticData of an earlier host to play an n8n
 * restart: n8n keeps a workflow's static data in its database.
 */
export async function startTriggerHost(
	parameters: IDataObject,
	credentials: CredentialsStore,
	staticData: IDataObject = {},
	{ webhookId = 'hook-id', port = 0 }: { webhookId?: string; port?: number } = {},
): Promise<TriggerHost> {
	const node: INode = {
		id: `trigger-${webhookId}`,
		name: 'Mail Delivery Trigger',
		type: TRIGGER_NODE_TYPE,
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { authentication: 'signature', ...parameters } as INode['parameters'],
		credentials: { mailDeliverySignatureApi: { id: '1', name: 'test' } },
	};
	const workflowId = `wf-${webhookId}`;
	const workflow = new Workflow({
		id: workflowId,
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData,
		settings: { timezone: 'UTC' },
	});
	const host = { executions: [], responses: [], staticData, workflow } as unknown as TriggerHost;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => void handle(req, res, Buffer.concat(chunks)));
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	host.port = (server.address() as AddressInfo).port;
	host.baseUrl = `http://127.0.0.1:${host.port}`;
	const additionalData = buildAdditionalData(credentials, undefined, host.baseUrl);
	const webhookData = (mode: WorkflowExecuteMode): IWebhookData => ({
		httpMethod: 'POST',
		node: node.name,
		path: `${webhookId}/events`,
		webhookDescription: trigger.description.webhooks![0],
		workflowId,
		workflowExecuteAdditionalData: additionalData,
		webhookId,
		isTest: mode === 'manual',
	});
	const hookContext = (mode: WorkflowExecuteMode = 'trigger') =>
		new HookContext(workflow, node, additionalData, mode, 'activate', webhookData(mode));
	const methods = trigger.webhookMethods.default;
	host.checkExists = async (mode) => await methods.checkExists.call(hookContext(mode));
	host.create = async (mode) => await methods.create.call(hookContext(mode));
	host.remove = async (mode) => await methods.delete.call(hookContext(mode));
	host.webhookUrl = (mode = 'trigger') =>
		`${host.baseUrl}/${mode === 'manual' ? 'webhook-test' : 'webhook'}/${webhookId}/events`;

	async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) {
		const url = new URL(req.url ?? '/', host.baseUrl);
		const mode: WorkflowExecuteMode = url.pathname.startsWith('/webhook-test/')
			? 'manual'
			: 'trigger';
		const request = Object.assign(req, {
			rawBody: raw,
			query: Object.fromEntries(url.searchParams),
			body: safeJson(raw),
		});
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
			const context = new WebhookContext(
				workflow,
				node,
				{ ...additionalData, httpRequest: request, httpResponse: response } as never,
				mode,
				webhookData(mode),
				[],
				null,
			);
			const answer = await trigger.webhook.call(context);
			if (answer.noWebhookResponse) return;
			if (answer.workflowData) host.executions.push(answer.workflowData);
			// As n8n's onReceived mode with an empty responseData: the node's webhookResponse, else its default text.
			response.status(200).json(answer.webhookResponse ?? { message: 'Workflow was started' });
		} catch (error) {
			response.status(500).json({ message: (error as Error).message });
		}
	}

	let closed = false;
	host.close = () => {
		if (closed) return Promise.resolve();
		closed = true;
		server.closeAllConnections();
		return new Promise<void>((resolve) => server.close(() => resolve()));
	};
	return host;
}

function safeJson(raw: Buffer): unknown {
	try {
		return JSON.parse(raw.toString('utf8'));
	} catch {
		return {};
	}
}
