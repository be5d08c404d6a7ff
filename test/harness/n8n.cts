/**
 * Runs workflows through n8n-core's own execution engine, the way n8n's NodeTestHarness does, with a
 * credentials helper that behaves like the n8n CLI's: it calls `authenticate` functions, runs
 * `preAuthentication` when the expirable field is empty or after a 401, and stores what it returns.
 */
import path from 'node:path';

import {
	DataDeduplicationService,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataDeduplicator,
	IDataObject,
	IExecuteContextData,
	IExecuteFunctions,
	IExecutionContext,
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

import { MailDeliveryAuthCodeOAuth2Api } from '../../credentials/MailDeliveryAuthCodeOAuth2Api.credentials';
import { MailDeliveryClientCredentialsOAuth2Api } from '../../credentials/MailDeliveryClientCredentialsOAuth2Api.credentials';
import { MailDeliverySignatureApi } from '../../credentials/MailDeliverySignatureApi.credentials';
import { type Authentication, credentialTypeOf } from '../../nodes/shared/transport/credentials';
import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import * as processRecordLoaded from '../../nodes/MailDelivery/neverTwice/processRecord';

export const PACKAGE = 'n8n-nodes-mail-delivery';
export const ACTION_NODE_TYPE = `${PACKAGE}.mailDelivery`;

/** Emits the items a test gives it, with binary data, as the first node of a workflow. */
class TestSource implements INodeType {
	description = {
		displayName: 'Test Source',
		name: 'testSource',
		group: ['input'],
		version: 1,
		description: 'Emits test items',
		defaults: { name: 'Test Source' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions) {
		return [this.getInputData()];
	}
}

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
	'test.source': new TestSource(),
};

const NODE_CODE = path.resolve(__dirname, '../../nodes') + path.sep;

/**
 * n8n started again: the node's code loaded anew, with none of the state its modules kept (the process's record of
 * runs, neverTwice/processRecord.ts). Executions under way keep the code they had, as a killed process's would
 * have done nothing more.
 */
export function restartNodeCode() {
	const load = () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const node = require('../../nodes/MailDelivery/MailDelivery.node') as {
			MailDelivery: new () => INodeType;
		};
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		processRecordNow =
			require('../../nodes/MailDelivery/neverTwice/processRecord') as ProcessRecord;
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
	return {
		description: {
			displayName,
			name: displayName.replace(/\s/g, '').replace(/^./, (first) => first.toLowerCase()),
			group: ['transform'],
			version: 1,
			description: 'Loops once',
			defaults: { name: displayName },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const state = this.getContext('node');
			state.rounds = ((state.rounds as number | undefined) ?? 0) + 1;
			const sent = items(this);
			return state.rounds === 1 ? [sent, []] : [[], sent];
		},
	};
}

export function registerNodeType(name: string, type: INodeType) {
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

/**
 * n8n's deduplication store as n8n's cli keeps it (`DeduplicationHelper`): one record per workflow and node (or
 * workflow), across executions; in mode "entries" an ordered list, new entries appended and, past `maxEntries`,
 * the oldest dropped; `removeProcessed` takes entries out; the count is the list's length. Entries are kept as
 * given (n8n keeps their MD5): what `checkProcessedAndRecord` writes, later executions read.
 */
export const processedData = new Map<string, string[]>();
/**
 * Each row's entries counted, kept beside it (a row of 10,000 read whole at every write is what costs); `size` is
 * the row's length when last counted, so that a test that changed the row itself has it counted again.
 */
const rowCounts = new WeakMap<string[], { counts: Map<string, number>; size: number }>();
function entriesOf(key: string) {
	const entries = processedData.get(key) ?? [];
	processedData.set(key, entries);
	let kept = rowCounts.get(entries);
	if (kept?.size !== entries.length) {
		kept = { counts: new Map(), size: entries.length };
		for (const entry of entries) kept.counts.set(entry, (kept.counts.get(entry) ?? 0) + 1);
		rowCounts.set(entries, kept);
	}
	const { counts } = kept;
	const counted = kept;
	return { entries, counts, recount: () => (counted.size = entries.length) };
}
function forget(counts: Map<string, number>, entry: string) {
	const left = (counts.get(entry) ?? 0) - 1;
	if (left > 0) counts.set(entry, left);
	else counts.delete(entry);
}
const recordKey = (scope: string, contextData: { workflow: { id?: string }; node?: INode }) =>
	`${contextData.workflow.id}:${scope === 'node' ? contextData.node?.id : ''}`;
/** n8n's store is a database: its answer comes in a later turn of the event loop, as a query's does. */
const databaseTurn = async () => await new Promise((resolve) => setImmediate(resolve));
/**
 * Around each write of the store (instance.cts): `before` may refuse it (a killed process writes nothing more),
 * `after` may stop the execution that made it (killed once the write is in the database).
 */
export const storeHooks: { before?: () => void; after?: () => Promise<void> } = {};
/**
 * Another process's first write of a row, made at the same moment as this process's (two workers, one PostgreSQL):
 * the next write that would create a row finds these entries written there by the other, and fails on the row's key
 * as n8n's INSERT does, having written nothing. Off when undefined.
 */
export const storeFaults: { rowCreatedElsewhere?: string[] } = {};
function rowKeyTaken(): Error {
	const error = Object.assign(
		new Error('duplicate key value violates unique constraint "PK_processed_data"'),
		{ name: 'QueryFailedError', code: '23505' },
	);
	return Object.assign(error, { driverError: { code: '23505' } });
}
const deduplicator: IDataDeduplicator = {
	async checkProcessedAndRecord(items, scope, contextData, options) {
		await databaseTurn();
		storeHooks.before?.();
		const elsewhere = storeFaults.rowCreatedElsewhere;
		if (elsewhere && !processedData.has(recordKey(scope, contextData))) {
			storeFaults.rowCreatedElsewhere = undefined;
			processedData.set(recordKey(scope, contextData), [...elsewhere]);
			throw rowKeyTaken();
		}
		const { entries, counts, recount } = entriesOf(recordKey(scope, contextData));
		// As n8n's helper: each item is looked up in the row as it was before this write, and each new one appended
		// (an item twice in one write is appended twice).
		const before = new Set(items.map(String).filter((item) => counts.has(item)));
		const processed: string[] = [];
		const added: string[] = [];
		for (const item of items.map(String)) {
			if (before.has(item)) processed.push(item);
			else {
				added.push(item);
				entries.push(item);
				counts.set(item, (counts.get(item) ?? 0) + 1);
			}
		}
		if (options.maxEntries)
			for (const dropped of entries.splice(0, Math.max(0, entries.length - options.maxEntries)))
				forget(counts, dropped);
		recount();
		await storeHooks.after?.();
		return { new: added, processed };
	},
	async removeProcessed(items, scope, contextData) {
		await databaseTurn();
		storeHooks.before?.();
		const { entries, counts, recount } = entriesOf(recordKey(scope, contextData));
		for (const item of items.map(String)) {
			const index = counts.has(item) ? entries.indexOf(item) : -1;
			if (index === -1) continue;
			entries.splice(index, 1);
			forget(counts, item);
		}
		recount();
		await storeHooks.after?.();
	},
	async clearAllProcessedItems(scope, contextData) {
		processedData.delete(recordKey(scope, contextData));
	},
	async getProcessedDataCount(scope, contextData) {
		await databaseTurn();
		return processedData.get(recordKey(scope, contextData))?.length ?? 0;
	},
};
void DataDeduplicationService.init(deduplicator);

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
	/** An execution's saved data to go on from (a waiting execution resumed), instead of a new run from the first node. */
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
	const action: INode = {
		id: `node-${++nodeCounter}`,
		name: 'Mail Delivery',
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: { authentication, ...parameters } as INode['parameters'],
		credentials: { [credentialName]: { id: '1', name: 'test' } },
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
	const source: INode = {
		id: `node-${++nodeCounter}`,
		name: 'Source',
		type: 'test.source',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	return {
		nodes: [source, action],
		connections: {
			Source: { main: [[{ node: 'Mail Delivery', type: 'main' as const, index: 0 }]] },
		},
	};
}

export function buildAdditionalData(
	credentials: CredentialsStore,
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
	const hooks = new ExecutionLifecycleHooks(mode, 'test-execution', {
		id: 'test',
		name: 'test',
		nodes,
		connections,
		active: false,
		settings: {},
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
	} as never);
	let finished: IRun | undefined;
	let whenFinished = () => {};
	const finishedHook = new Promise<void>((resolve) => (whenFinished = resolve));
	let savedContext: IExecuteContextData | undefined;
	hooks.addHandler('workflowExecuteAfter', (run) => {
		finished = run;
		// n8n writes the execution to its database now: later changes to the live objects are not saved.
		savedContext = structuredClone(run.data.executionData?.contextData);
		whenFinished();
	});
	const additionalData = buildAdditionalData(credentials, hooks);
	additionalData.executionId = executionId ?? `run-${++executionCounter}`;
	const start = workflow.getNode(nodes[0].name)!;
	const runData =
		resumeFrom ??
		createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: start, data: { main: [items ?? [{ json: {} }]] }, source: null },
				],
				...(executionContext
					? {
							// n8n names the node that started the execution (n8n-core execution-context.js).
							runtimeData: {
								version: 1,
								triggerNode: { name: start.name, type: start.type },
								...executionContext,
							} as IExecutionContext,
						}
					: {}),
				...(contextData ? { contextData: structuredClone(contextData) } : {}),
			},
			// n8n makes a resume token for each execution, and a retry runs with its execution's data, token included:
			// the same context here stands for the same execution.
			...(executionContext ? { resumeToken: `token-${executionContext.establishedAt}` } : {}),
		});
	const execution = new WorkflowExecute(additionalData, mode, runData);
	const running = execution.processRunExecutionData(workflow);
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

/** The workflow as n8n builds it for an execution of the test's nodes. */
export const testWorkflow = (
	nodes: INode[],
	connections: IConnections,
	settings: IWorkflowSettings = {},
) =>
	new Workflow({
		id: 'test',
		nodes,
		connections,
		active: false,
		nodeTypes,
		staticData: {},
		settings: { timezone: 'UTC', ...settings },
	});

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
