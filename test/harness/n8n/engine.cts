/**
 * The stand-in's engine: n8n-core's own, as n8n's NodeTestHarness runs it. What every facet of the stand-in shares
 * lives here once: the node types, the credentials helper (it behaves like the n8n CLI's: it calls `authenticate`
 * functions, runs `preAuthentication` when the expirable field is empty or after a 401, and stores what it returns),
 * the Workflow built from nodes and connections, the additional data, the data an execution starts from, a run
 * through n8n-core's WorkflowExecute with its lifecycle hooks, and the webhook context a request is handled in.
 */
import path from 'node:path';

import {
	DataDeduplicationService,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	WebhookContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IExecuteContextData,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	IConnections,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWebhookData,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
	IWorkflowSettings,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	ICredentialsHelper,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';

import { MailDeliveryAuthCodeOAuth2Api } from '../../../credentials/MailDeliveryAuthCodeOAuth2Api.credentials';
import { MailDeliveryClientCredentialsOAuth2Api } from '../../../credentials/MailDeliveryClientCredentialsOAuth2Api.credentials';
import { MailDeliverySignatureApi } from '../../../credentials/MailDeliverySignatureApi.credentials';
import { type Authentication, credentialTypeOf } from '../../../nodes/shared/transport/credentials';
import { MailDelivery } from '../../../nodes/MailDelivery/MailDelivery.node';
import { MailDeliveryTrigger } from '../../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';
import * as processRecordLoaded from '../../../nodes/MailDelivery/neverTwice/processRecord';
import { deduplicator, executionContextOf, saveCopy } from './database.cts';

export const PACKAGE = 'n8n-nodes-mail-delivery';
export const ACTION_NODE_TYPE = `${PACKAGE}.mailDelivery`;
export const TRIGGER_NODE_TYPE = `${PACKAGE}.mailDeliveryTrigger`;
export const SOURCE_NODE_TYPE = 'test.source';

/** A node of the workflow around the node tested (a source, a node after it), with no parameters. */
export const plainNode = (id: string, name: string, type: string, x: number): INode => ({
	id,
	name,
	type,
	typeVersion: 1,
	position: [x, 0],
	parameters: {},
});

/** A connection of a node's main output 0 to `to`. */
export const link = (to: string) => ({ main: [[{ node: to, type: 'main' as const, index: 0 }]] });

/** A node type of the tests (one main input, `outputs` main outputs) that runs `execute`. */
export function testNodeType(
	displayName: string,
	description: string,
	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>,
	{ outputs = 1, group = 'transform' as INodeType['description']['group'][number] } = {},
): INodeType {
	return {
		description: {
			displayName,
			name: displayName.replace(/\s/g, '').replace(/^./, (first) => first.toLowerCase()),
			group: [group],
			version: 1,
			description,
			defaults: { name: displayName },
			inputs: [NodeConnectionTypes.Main],
			outputs: Array.from({ length: outputs }, () => NodeConnectionTypes.Main),
			properties: [],
		},
		execute,
	};
}

/** Emits the items a test gives it, with binary data, as the first node of a workflow. */
const testSource = testNodeType(
	'Test Source',
	'Emits test items',
	async function () {
		return [this.getInputData()];
	},
	{ group: 'input' },
);

const credentialTypes: Record<string, ICredentialType> = Object.fromEntries(
	[
		new MailDeliverySignatureApi(),
		new MailDeliveryClientCredentialsOAuth2Api(),
		new MailDeliveryAuthCodeOAuth2Api(),
	].map((type) => [type.name, type]),
);

export const nodeTypes: INodeTypes = {
	getByName: (type: string) => registry[type],
	getByNameAndVersion: (type: string, version?: number) =>
		NodeHelpers.getVersionedNodeType(registry[type], version),
	getKnownTypes: () => ({}),
};

const registry: Record<string, INodeType | IVersionedNodeType> = {
	[ACTION_NODE_TYPE]: new MailDelivery(),
	[TRIGGER_NODE_TYPE]: new MailDeliveryTrigger(),
	[SOURCE_NODE_TYPE]: testSource,
};

const NODE_CODE = path.resolve(__dirname, '../../../nodes') + path.sep;

/**
 * n8n started again: the node's code loaded anew, with none of the state its modules kept (the process's record of
 * runs, neverTwice/processRecord.ts). Executions under way keep the code they had, as a killed process's would
 * have done nothing more.
 */
export function restartNodeCode() {
	const load = () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const node = require('../../../nodes/MailDelivery/MailDelivery.node') as {
			MailDelivery: new () => INodeType;
		};
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		processRecordNow =
			require('../../../nodes/MailDelivery/neverTwice/processRecord') as ProcessRecord;
		return node.MailDelivery;
	};
	let fresh: new () => INodeType;
	if (typeof jest !== 'undefined') jest.isolateModules(() => (fresh = load()));
	else {
		for (const key of Object.keys(require.cache))
			if (key.startsWith(NODE_CODE)) delete require.cache[key];
		fresh = load();
	}
	registry[ACTION_NODE_TYPE] = new fresh!();
}

type ProcessRecord = typeof processRecordLoaded;
let processRecordNow: ProcessRecord = processRecordLoaded;

/** The record of runs of the node's code loaded now (restartNodeCode loads another): what "this process" saw. */
export const processRecord = () => processRecordNow;

/**
 * A node that sends `items` back into the node before it once (its output 0), then on (its output 1): a loop, or
 * an AI agent calling the same tool again, as the node meets it.
 */
export function loopOnceNode(
	displayName: string,
	items: (context: IExecuteFunctions) => INodeExecutionData[],
): INodeType {
	return testNodeType(
		displayName,
		'Loops once',
		async function () {
			const state = this.getContext('node');
			state.rounds = ((state.rounds as number | undefined) ?? 0) + 1;
			const sent = items(this);
			return state.rounds === 1 ? [sent, []] : [[], sent];
		},
		{ outputs: 2 },
	);
}

export function registerNodeType(name: string, type: INodeType | IVersionedNodeType) {
	registry[name] = type;
}

class TestCredentials {
	constructor(private readonly stored: ICredentialDataDecryptedObject) {}

	async getData() {
		return { ...this.stored };
	}
}

export class CredentialsStore extends ICredentialsHelper {
	/** Stored credential data by type; preAuthentication output is written back, as n8n does. */
	stored: Record<string, ICredentialDataDecryptedObject> = {};

	preAuthenticationCalls = 0;

	getParentTypes() {
		return [];
	}

	isCredentialUsableByNode() {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	) {
		const type = credentialTypes[typeName];
		if (typeof type.authenticate === 'function')
			return await type.authenticate(credentials, requestOptions);
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	) {
		const type = credentialTypes[typeName];
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (
			credentials[expirable.name] !== '' &&
			credentials[expirable.name] !== undefined &&
			!credentialsExpired
		)
			return undefined;
		this.preAuthenticationCalls++;
		const output = (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		this.stored[typeName] = { ...this.stored[typeName], ...output };
		return Object.assign(credentials, output);
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(_details: INodeCredentialsDetails, type: string) {
		return new TestCredentials(this.stored[type] ?? {}) as unknown as ICredentials;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_details: INodeCredentialsDetails,
		type: string,
	) {
		const type_ = credentialTypes[type];
		const defaults = Object.fromEntries(
			type_.properties.filter((p) => p.type !== 'notice').map((p) => [p.name, p.default]),
		);
		return { ...defaults, ...(this.stored[type] ?? {}) } as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		_details: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.stored[type] = { ...data };
	}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return credentialTypes[type].properties;
	}
}

void DataDeduplicationService.init(deduplicator);

/**
 * The workflow as n8n builds it for an execution (or a webhook call) of these nodes, with its static data as n8n's
 * database holds it (n8n/database.cts StaticDataRow).
 */
export const workflowOf = (
	parameters: Omit<ConstructorParameters<typeof Workflow>[0], 'nodeTypes' | 'active'> & {
		active?: boolean;
	},
) =>
	new Workflow({
		id: 'test',
		active: false,
		staticData: {},
		...parameters,
		nodeTypes,
		settings: { timezone: 'UTC', ...parameters.settings },
	});

/** The workflow as n8n builds it for an execution of the test's nodes. */
export const testWorkflow = (
	nodes: INode[],
	connections: IConnections,
	settings: IWorkflowSettings = {},
) => workflowOf({ nodes, connections, settings });

export function buildAdditionalData(
	credentials: ICredentialsHelper,
	hooks?: ExecutionLifecycleHooks,
	baseUrl = 'http://localhost:5678',
) {
	return {
		hooks,
		credentialsHelper: credentials,
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used in these tests');
		},
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: baseUrl,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'test-user',
		variables: {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('code tasks are not used in these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/**
 * The data a new execution starts from: the first node with its input (`main`, by input index), and, when given, the
 * execution's context as n8n saves it from the start, with the nodes' context data it carries, and its resume token
 * (by default a new one, as n8n makes for each execution).
 */
export function startData(
	first: INode,
	main: INodeExecutionData[][],
	{
		lineage,
		contextData,
		resumeToken,
	}: {
		lineage?: { establishedAt: number; source: string };
		contextData?: IExecuteContextData;
		resumeToken?: string;
	} = {},
): IRunExecutionData {
	return createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: first, data: { main }, source: null }],
			...(lineage ? { runtimeData: executionContextOf(first, lineage) } : {}),
			...(contextData ? { contextData: saveCopy(contextData) } : {}),
		},
		resumeToken,
	});
}

/** Handlers of n8n's execution lifecycle hooks (where n8n saves an execution and logs its nodes' events). */
type HookHandlers = ExecutionLifecycleHooks['handlers'];
export type LifecycleHandlers = { [Name in keyof HookHandlers]?: HookHandlers[Name][number] };

/**
 * An execution of `workflow` from `data`, run by n8n-core's WorkflowExecute with its lifecycle hooks (`on`). A
 * `resumed` one is the waiting execution `executionId` going on (n8n's WaitTracker and WaitingWebhooks). The run's
 * promise is n8n-core's: a cancelled run's never settles (n8n's shouldReject = false), its end is the hook's.
 */
export function execute({
	workflow,
	mode,
	executionId,
	data,
	additionalData,
	on = {},
	resumed = false,
}: {
	workflow: Workflow;
	mode: WorkflowExecuteMode;
	executionId: string;
	data: IRunExecutionData;
	additionalData: IWorkflowExecuteAdditionalData;
	on?: LifecycleHandlers;
	resumed?: boolean;
}) {
	const nodes = Object.values(workflow.nodes);
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: workflow.name ?? workflow.id,
		nodes,
		connections: workflow.connectionsBySourceNode,
		active: workflow.active,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
	} as never);
	for (const [name, handler] of Object.entries(on))
		hooks.addHandler(name as keyof LifecycleHandlers, handler as never);
	return new WorkflowExecute(
		{
			...additionalData,
			hooks,
			executionId,
			...(resumed ? { restartExecutionId: executionId } : {}),
		},
		mode,
		data,
	).processRunExecutionData(workflow);
}

/**
 * The context n8n-core hands a node's webhook() for a request (`request`, answered through `response`) to one of its
 * webhooks: a trigger's (`runExecutionData` null) or a waiting execution's (its saved data).
 */
export function webhookContext({
	workflow,
	node,
	additionalData,
	mode,
	webhook,
	request,
	response,
	runExecutionData = null,
}: {
	workflow: Workflow;
	node: INode;
	additionalData: IWorkflowExecuteAdditionalData;
	mode: WorkflowExecuteMode;
	webhook: Webhook;
	request: unknown;
	response: unknown;
	runExecutionData?: IRunExecutionData | null;
}) {
	return new WebhookContext(
		workflow,
		node,
		{ ...additionalData, httpRequest: request, httpResponse: response } as never,
		mode,
		webhookData(workflow, node, additionalData, webhook),
		[],
		runExecutionData,
	);
}

/** A webhook of a node: its method, path and description, its id, whether it is a test webhook. */
type Webhook = Omit<IWebhookData, 'node' | 'workflowId' | 'workflowExecuteAdditionalData'>;

/** The webhook as n8n registers it (IWebhookData) for a node of `workflow`. */
export const webhookData = (
	workflow: Workflow,
	node: INode,
	additionalData: IWorkflowExecuteAdditionalData,
	webhook: Webhook,
): IWebhookData => ({
	...webhook,
	node: node.name,
	workflowId: workflow.id,
	workflowExecuteAdditionalData: additionalData,
});

export interface RunResult {
	run: IRun;
	/** Output items of a node's first run, by output index. */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
	error(nodeName?: string): Error | undefined;
	/**
	 * The nodes' context data as n8n saved it with the execution: a copy made when the execution ended (for a
	 * stopped one, at the stop, while requests may still be under way), which a retry of it gets back.
	 */
	savedContext: IExecuteContextData | undefined;
}

export interface WorkflowOptions {
	nodes: INode[];
	connections: Workflow['connectionsBySourceNode'];
	items?: INodeExecutionData[];
	credentials: CredentialsStore;
	/**
	 * Stops the execution (as n8n's Stop button does) once this is true; checked every 10 ms. The run returns when
	 * n8n ends the execution, which is at once: the requests under way may still reach the platform after, so a
	 * test that counts them waits for the emulator's `settled()` first.
	 */
	cancelWhen?: () => boolean;
	/** How n8n started the execution: 'retry' for Retry in the executions list. */
	mode?: WorkflowExecuteMode;
	/** The execution's context as n8n carries it into a retry (its lineage); by default a new one. */
	executionContext?: { establishedAt: number; source: string };
	/**
	 * The nodes' context data a retried execution saved (`run.data.executionData.contextData` of the run it
	 * retries), which n8n gives back to the nodes it runs again.
	 */
	contextData?: IExecuteContextData;
	/** The execution's id (n8n's signed resume links name it); by default a new one, as n8n gives every execution. */
	executionId?: string;
	/**
	 * An execution's saved data to go on from (the waiting execution `executionId` resumed), instead of a new run
	 * from the first node.
	 */
	resumeFrom?: IRunExecutionData;
	/** The workflow's settings (Workflow Settings in the editor). */
	workflowSettings?: IWorkflowSettings;
}

let nodeCounter = 0;
let executionCounter = 0;

/** An action-node workflow: Test Source → Mail Delivery, with the given parameters. */
export function actionWorkflow(
	parameters: IDataObject,
	options: {
		authentication?: string;
		continueOnFail?: boolean;
		onError?: 'continueRegularOutput' | 'continueErrorOutput';
		/** n8n's node setting Retry On Fail: the engine runs the node again, with the same input, when it fails. */
		retryOnFail?: { maxTries: number; waitBetweenTries?: number };
	} = {},
) {
	const authentication = options.authentication ?? 'signature';
	const credentialName = credentialTypeOf(authentication as Authentication);
	const id = `node-${++nodeCounter}`;
	const action: INode = {
		id,
		name: 'Mail Delivery',
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: { authentication, ...parameters } as INode['parameters'],
		// Its own credential id: what a run finds of the platform is kept per credential (transport/concurrency.ts),
		// and each workflow built here stands for its own account, whatever ran before it in the file.
		credentials: { [credentialName]: { id: `credential-of-${id}`, name: 'test' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.onError ? { onError: options.onError } : {}),
		...(options.retryOnFail
			? {
					retryOnFail: true,
					maxTries: options.retryOnFail.maxTries,
					// n8n reads 0 as its default, 1000 ms: 1 ms keeps the tests fast.
					waitBetweenTries: options.retryOnFail.waitBetweenTries ?? 1,
				}
			: {}),
	};
	const source = plainNode(`node-${++nodeCounter}`, 'Source', SOURCE_NODE_TYPE, 0);
	return { nodes: [source, action], connections: { Source: link('Mail Delivery') } };
}

/** One execution of the test's nodes, from the first (or, `resumeFrom`, a waiting one going on), to its end. */
export async function runWorkflow({
	nodes,
	connections,
	items,
	credentials,
	cancelWhen,
	mode = 'manual',
	executionContext,
	contextData,
	executionId,
	resumeFrom,
	workflowSettings,
}: WorkflowOptions): Promise<RunResult> {
	const workflow = testWorkflow(nodes, connections, workflowSettings);
	let finished: IRun | undefined;
	let whenFinished = () => {};
	const finishedHook = new Promise<void>((resolve) => (whenFinished = resolve));
	let savedContext: IExecuteContextData | undefined;
	const running = execute({
		workflow,
		mode,
		executionId: executionId ?? `run-${++executionCounter}`,
		resumed: resumeFrom !== undefined,
		data:
			resumeFrom ??
			startData(workflow.getNode(nodes[0].name)!, [items ?? [{ json: {} }]], {
				lineage: executionContext,
				contextData,
				// n8n makes a resume token for each execution, and a retry runs with its execution's data, token
				// included: the same context here stands for the same execution.
				resumeToken: executionContext && `token-${executionContext.establishedAt}`,
			}),
		additionalData: buildAdditionalData(credentials),
		on: {
			workflowExecuteAfter: (run) => {
				finished = run;
				// n8n writes the execution to its database now: later changes to the live objects are not saved.
				savedContext = saveCopy(run.data.executionData?.contextData);
				whenFinished();
			},
		},
	});
	let run: IRun | undefined;
	if (cancelWhen) {
		// A cancelled run's promise never settles (n8n's shouldReject = false): its end is the hook's.
		const watch = setInterval(() => {
			if (cancelWhen()) running.cancel();
		}, 10);
		await Promise.race([running.then((done) => (run = done)), finishedHook]);
		clearInterval(watch);
	} else run = await running;
	const result = (finished ?? run)!;
	return {
		run: result,
		output: (nodeName, outputIndex = 0) =>
			result.data.resultData.runData[nodeName]?.[0]?.data?.main?.[outputIndex] ?? [],
		savedContext,
		error: (nodeName) =>
			(nodeName
				? result.data.resultData.runData[nodeName]?.[0]?.error
				: result.data.resultData.error) as Error | undefined,
	};
}

/** The context n8n gives list search and load options methods, for an action node with these parameters. */
export function loadOptionsContext(credentials: CredentialsStore, parameters: IDataObject = {}) {
	const { nodes, connections } = actionWorkflow(parameters);
	const workflow = testWorkflow(nodes, connections);
	const node = workflow.getNode('Mail Delivery')!;
	// The editor sends the panel's parameters with every list request; n8n hands them to the method.
	const additionalData = buildAdditionalData(credentials);
	additionalData.currentNodeParameters = node.parameters;
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters');
}
