/**
 * The stand-in hosting the trigger node the way n8n does: its webhook lifecycle methods run in n8n-core's
 * HookContext, and each push is handled in a WebhookContext (the engine's), behind a loopback HTTP server that
 * stands where n8n's /webhook and /webhook-test routes stand.
 *
 * Static data lives as n8n keeps it (n8n/database.cts StaticDataRow): a database copy (JSON), read into a new
 * `Workflow` (which wraps it in n8n-workflow's observable object) and written back only where n8n writes it, and only
 * when a change was flagged. So a record the node keeps where n8n does not see it is lost here as in n8n.
 * A production push saves its static data after the answer, as n8n's live webhooks do.
 * The lifecycles follow n8n's code: publication in n8n 2.41 (workflow-trigger-activator.js: one Workflow
 * for up to five attempts, the delete hook and a save after each failed one, no retry of a
 * WebhookPathTakenError; deactivation on a new Workflow from the database, three tries), activation in
 * n8n 1.123 (active-workflow-manager.js: one attempt; after a failure the delete hook on a new Workflow
 * from the database), and test listening (test-webhooks.js: a Workflow with empty static data, the delete
 * hook in mode "internal" at the end).
 */
import { HookContext } from 'n8n-core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { WebhookPathTakenError, type Workflow } from 'n8n-workflow';

import type { Emulator } from '../../../emulator/server.cts';
import { call } from '../client.cts';
import type { MailDeliveryTrigger } from '../../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';
import { StaticDataRow } from './database.cts';
import {
	buildAdditionalData,
	CredentialsStore,
	execute,
	nodeTypes,
	startData,
	TRIGGER_NODE_TYPE,
	webhookContext,
	webhookData,
	workflowOf,
} from './engine.cts';

const trigger = nodeTypes.getByName(TRIGGER_NODE_TYPE) as MailDeliveryTrigger;

/** The account's webhook configuration as the platform holds it: Webhook → Get's answer without code and message. */
export async function webhookConfiguration(emulator: Emulator): Promise<IDataObject> {
	const {
		code: _code,
		message: _message,
		...rest
	} = (await call(emulator, '/v5/webhook/get')).body;
	return rest as IDataObject;
}

/** What n8n does for an active workflow at start-up (1.x) or activation: checkExists, then create if needed. */
export async function activate(host: TriggerHost, mode: 'trigger' | 'manual' = 'trigger') {
	if (!(await host.checkExists(mode))) await host.create(mode);
}

/** n8n 2.41: TRIGGER_ACTIVATION_MAX_ATTEMPTS and TRIGGER_TEARDOWN_MAX_ATTEMPTS (their waits are left out here). */
const ACTIVATION_ATTEMPTS = 5;
const TEARDOWN_ATTEMPTS = 3;

export interface TriggerHost {
	baseUrl: string;
	port: number;
	/** Executions started (saved by n8n), each as the node's outputs. */
	executions: INodeExecutionData[][][];
	/** The trigger's outputs in each execution n8n ran (its execute() passes the events on). */
	runOutputs: INodeExecutionData[][][];
	responses: Array<{ status: number; body: string }>;
	/** Every request's target as it came (method and path with query): what an access log records. */
	requestLines: string[];
	/** The workflow's static data as n8n's database holds it (a copy). */
	readonly staticData: IDataObject;
	/** Errors the delete hook threw where n8n cannot take them (the end of test listening), and errors of executions it ran. */
	unhandled: Error[];
	/** Single hook calls, as n8n makes them: production ones on a Workflow read from the database, saved after. */
	checkExists(mode?: WorkflowExecuteMode): Promise<boolean>;
	create(mode?: WorkflowExecuteMode): Promise<boolean>;
	remove(mode?: WorkflowExecuteMode): Promise<boolean>;
	/** Publication as n8n 2.41 (line 2) or activation as n8n 1.123 (line 1) runs it; rejects as n8n reports. */
	activate(options?: { line?: 1 | 2; activation?: WorkflowActivateMode }): Promise<void>;
	/** Unpublication as n8n 2.41 runs it; resolves with the errors n8n would report as teardown failures. */
	deactivate(): Promise<Error[]>;
	/** "Listen for test event": rejects with the error the editor would show. */
	listen(): Promise<void>;
	/** The end of test listening (stopped, timed out or an event came). */
	stopListening(): Promise<void>;
	webhookUrl(mode?: WorkflowExecuteMode): string;
	close(): Promise<void>;
}

export interface TriggerHostOptions {
	webhookId?: string;
	port?: number;
	/** The workflow as n8n names it (shown in refusals). */
	workflowName?: string;
	workflowId?: string;
	/** Plays another n8n installation (its own instance id) on the same account. */
	instanceId?: string;
	/**
	 * How n8n handles a production push the trigger passes events on from (n8n 2.41's executeWebhook):
	 * it saves the execution (taking `savingMs`, or until `savedWhen` settles; `savingFails` answers 500
	 * and saves nothing), saves the push's static data, answers, then runs the execution through
	 * n8n-core's engine, the trigger's execute() included, and saves the static data the run changed.
	 * `crashesBeforeRunning` plays n8n killed after answering, before the execution ran.
	 */
	execution?: {
		/** The execution runs as on a queue worker of n8n 2.41: with empty static data (saved if it changes). */
		onWorker?: boolean;
		savingMs?: number;
		/** Holds every save until it settles: a save as slow as the test needs, whatever the machine's speed. */
		savedWhen?: Promise<unknown>;
		savingFails?: () => boolean;
		crashesBeforeRunning?: () => boolean;
	};
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
	{
		webhookId = 'hook-id',
		port = 0,
		workflowName,
		workflowId = `wf-${webhookId}`,
		instanceId,
		execution: executionOptions = {},
	}: TriggerHostOptions = {},
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
	const database = new StaticDataRow(staticData);
	const triggerWorkflow = (data: IDataObject) =>
		workflowOf({
			id: workflowId,
			name: workflowName ?? `Workflow ${webhookId}`,
			nodes: [node],
			connections: {},
			active: true,
			staticData: data,
		});
	const fromDatabase = () => triggerWorkflow(database.read());
	const saveStaticData = (workflow: Workflow) => database.save(workflow.staticData);
	let testWorkflow: Workflow | undefined;

	const host = {
		executions: [],
		runOutputs: [],
		responses: [],
		requestLines: [],
		unhandled: [],
	} as unknown as TriggerHost;
	Object.defineProperty(host, 'staticData', { get: () => database.read() });
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => void handle(req, res, Buffer.concat(chunks)));
	});
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	host.port = (server.address() as AddressInfo).port;
	host.baseUrl = `http://127.0.0.1:${host.port}`;
	const additionalData = buildAdditionalData(credentials, undefined, host.baseUrl);
	const webhook = (isTest: boolean) => ({
		httpMethod: 'POST' as const,
		path: `${webhookId}/events`,
		webhookDescription: trigger.description.webhooks![0],
		webhookId,
		isTest,
	});
	const hookContext = (
		workflow: Workflow,
		mode: WorkflowExecuteMode,
		isTest: boolean,
		activation: WorkflowActivateMode = 'activate',
	) => {
		const context = new HookContext(
			workflow,
			node,
			additionalData,
			mode,
			activation,
			webhookData(workflow, node, additionalData, webhook(isTest)),
		);
		if (instanceId !== undefined) {
			// Another installation: n8n-core reads the instance id from its InstanceSettings.
			const settings = (context as unknown as { instanceSettings: object }).instanceSettings;
			(context as unknown as { instanceSettings: object }).instanceSettings = Object.create(
				settings,
				{ instanceId: { value: instanceId } },
			);
		}
		return context;
	};
	const methods = trigger.webhookMethods.default;
	const hooks = (
		workflow: Workflow,
		mode: WorkflowExecuteMode,
		isTest: boolean,
		activation?: WorkflowActivateMode,
	) => ({
		checkExists: async () =>
			await methods.checkExists.call(hookContext(workflow, mode, isTest, activation)),
		create: async () => await methods.create.call(hookContext(workflow, mode, isTest, activation)),
		// n8n deletes in mode "internal", production and test alike.
		remove: async () => await methods.delete.call(hookContext(workflow, 'internal', isTest)),
	});
	/** WebhookService.createWebhookIfNotExists. */
	const createIfNotExists = async (
		workflow: Workflow,
		mode: WorkflowExecuteMode,
		activation?: WorkflowActivateMode,
	) => {
		const { checkExists, create } = hooks(workflow, mode, mode === 'manual', activation);
		if (!(await checkExists())) await create();
	};

	const single =
		(name: 'checkExists' | 'create' | 'remove') =>
		async (mode: WorkflowExecuteMode = 'trigger') => {
			if (mode === 'manual') {
				testWorkflow ??= triggerWorkflow({});
				const workflow = testWorkflow;
				if (name === 'remove') testWorkflow = undefined;
				return await hooks(workflow, mode, true)[name]();
			}
			const workflow = fromDatabase();
			try {
				return await hooks(workflow, mode, false)[name]();
			} finally {
				saveStaticData(workflow);
			}
		};
	host.checkExists = single('checkExists');
	host.create = single('create');
	host.remove = single('remove');

	host.activate = async ({ line = 2, activation = 'activate' } = {}) => {
		const workflow = fromDatabase();
		const attempts = line === 2 ? ACTIVATION_ATTEMPTS : 1;
		for (let attempt = 0; ; attempt++) {
			try {
				await createIfNotExists(workflow, 'trigger', activation);
				break;
			} catch (error) {
				// 2.41 clears the webhook on the same Workflow; 1.123 on a new one from the database.
				const cleared = line === 2 ? workflow : fromDatabase();
				await hooks(cleared, 'internal', false)
					.remove()
					.catch(() => undefined);
				saveStaticData(cleared);
				const transient = !(error instanceof WebhookPathTakenError);
				if (!transient || attempt >= attempts - 1) {
					if (line === 2) saveStaticData(workflow);
					throw error;
				}
			}
		}
		saveStaticData(workflow);
	};

	host.deactivate = async () => {
		const workflow = fromDatabase();
		const failures: Error[] = [];
		for (let attempt = 0; attempt < TEARDOWN_ATTEMPTS; attempt++) {
			try {
				await hooks(workflow, 'internal', false).remove();
				failures.length = 0;
				break;
			} catch (error) {
				failures.splice(0, 1, error as Error);
			}
		}
		saveStaticData(workflow);
		return failures;
	};

	host.listen = async () => {
		const workflow = triggerWorkflow({});
		try {
			await createIfNotExists(workflow, 'manual');
			testWorkflow = workflow;
		} catch (error) {
			await stopTest(workflow);
			throw error;
		}
	};
	/** TestWebhooks.deactivateWebhooks: a throw here is not handled by n8n. */
	const stopTest = async (workflow: Workflow) => {
		try {
			await hooks(workflow, 'internal', true).remove();
		} catch (error) {
			host.unhandled.push(error as Error);
			throw new Error(
				`The delete hook threw at the end of test listening, where n8n cannot handle it: ${(error as Error).message}`,
			);
		}
	};
	host.stopListening = async () => {
		const workflow = testWorkflow;
		testWorkflow = undefined;
		if (workflow) await stopTest(workflow);
	};

	host.webhookUrl = (mode = 'trigger') =>
		`${host.baseUrl}/${mode === 'manual' ? 'webhook-test' : 'webhook'}/${webhookId}/events`;

	async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) {
		host.requestLines.push(`${req.method} ${req.url}`);
		const url = new URL(req.url ?? '/', host.baseUrl);
		const mode: WorkflowExecuteMode = url.pathname.startsWith('/webhook-test/')
			? 'manual'
			: 'trigger';
		const request = Object.assign(req, {
			rawBody: raw,
			query: Object.fromEntries(url.searchParams),
			body: {} as unknown,
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
			request.body = parseBody(req.headers['content-type'], raw);
		} catch {
			response.status(422).json({ message: 'Failed to parse request body' });
			return;
		}
		// A test push runs on the listening Workflow; a production push on one read from the database.
		const workflow = mode === 'manual' ? testWorkflow : fromDatabase();
		if (!workflow) {
			response.status(404).json({ message: 'This webhook is not registered for test' });
			return;
		}
		try {
			const context = webhookContext({
				workflow,
				node,
				additionalData,
				mode,
				webhook: webhook(mode === 'manual'),
				request,
				response,
			});
			const answer = await trigger.webhook.call(context);
			if (answer.workflowData && mode !== 'manual') {
				if (executionOptions.savingMs)
					await new Promise((resolve) => setTimeout(resolve, executionOptions.savingMs));
				await executionOptions.savedWhen;
				if (executionOptions.savingFails?.()) {
					response.status(500).json({ message: 'There was a problem saving the execution' });
					return;
				}
			}
			if (answer.workflowData) host.executions.push(answer.workflowData);
			// LiveWebhooks.executeWebhook saves a production push's static data once it is answered.
			if (mode !== 'manual') saveStaticData(workflow);
			if (answer.noWebhookResponse) return;
			// As n8n's onReceived mode with an empty responseData: the node's webhookResponse, else its default text.
			response.status(200).json(answer.webhookResponse ?? { message: 'Workflow was started' });
			if (answer.workflowData && mode !== 'manual' && !executionOptions.crashesBeforeRunning?.())
				await runExecution(answer.workflowData).catch((error: Error) => host.unhandled.push(error));
		} catch (error) {
			response.status(500).json({ message: (error as Error).message });
		}
	}

	/**
	 * A saved execution of a push, run by n8n-core's engine as n8n runs it (mode "webhook"): the static data
	 * read as it starts, saved when it ends if the run changed it (the workflowExecuteAfter hook).
	 */
	let executionCount = 0;
	async function runExecution(outputs: INodeExecutionData[][]) {
		const workflow = executionOptions.onWorker ? triggerWorkflow({}) : fromDatabase();
		const run = await execute({
			workflow,
			mode: 'webhook',
			executionId: `execution-${++executionCount}`,
			data: startData(workflow.getNode(node.name)!, outputs),
			additionalData,
		});
		const error = run.data.resultData.error;
		if (error) throw error;
		host.runOutputs.push(run.data.resultData.runData[node.name][0].data!.main as never);
		saveStaticData(workflow);
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

/**
 * The body as n8n's parseBody (middlewares/body-parser.js) gives it to a webhook: JSON and text decoded
 * with the charset of the Content-Type (a Buffer encoding; another one fails there, before the node),
 * other types not parsed. A JSON body that does not parse never reaches the node (422).
 */
function parseBody(header: string | undefined, raw: Buffer): unknown {
	if (!header || raw.length === 0) return {};
	const [type, ...parameters] = header.split(';');
	const charset = parameters
		.map((parameter) => parameter.trim().split('='))
		.find(([key]) => key.toLowerCase() === 'charset')?.[1]
		?.toLowerCase();
	const text = () => raw.toString((charset ?? 'utf-8') as BufferEncoding);
	const contentType = type.trim().toLowerCase();
	if (contentType === 'application/json') return JSON.parse(text().replace(/^\uFEFF/, ''));
	if (contentType === 'text/plain') return text();
	return {};
}
