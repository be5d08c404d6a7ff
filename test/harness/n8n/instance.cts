/**
 * The stand-in as an n8n instance that keeps its executions, for histories of what n8n and its users do around the
 * node (test/explorer). Each run goes through the engine (n8n-core's own WorkflowExecute); what n8n 2.41's database
 * keeps of an execution is kept as it keeps it (read in the installed n8n's source, and tried in a real n8n):
 * - at creation, the data it starts from, with its execution context (a Retry of a running execution gets that);
 * - after each node with Save Execution Progress (save-execution-progress.js), at a wait, at the end and at a Stop;
 * - a Retry (execution.service.js retry) starts a new execution in mode "retry" from the saved data: its error
 *   removed, the last run of its last node popped when that run failed, with the saved workflow the stack's nodes
 *   replaced by name (refused when one is missing), refused for a finished execution;
 * - a wait is resumed as n8n's WaitTracker resumes it (the same execution, from the saved data: n8n-core disables
 *   the waiting node), and a Retry of a waiting execution goes on past that node the same way;
 * - kill -9: only what was saved survives (n8n 2.x then marks the nodes its event log says started as crashed,
 *   execution-recovery.service.js amend), and the killed process sends and writes nothing more.
 * A run can be held at a point (the Gate node before the Mail Delivery node, the node's n-th request, its n-th write
 * to n8n's deduplication store) to be killed, stopped or paused there while other executions run.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	IRun,
	IRunExecutionData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import {
	retryData,
	retryRefusal,
	saveCopy,
	type Status,
	statusOf,
	storeHooks,
} from './database.cts';
import {
	buildAdditionalData,
	CredentialsStore,
	execute,
	link,
	plainNode,
	registerNodeType,
	restartNodeCode,
	SOURCE_NODE_TYPE,
	startData,
	testNodeType,
	workflowOf,
} from './engine.cts';

export type { Status } from './database.cts';

/** A workflow as saved: its nodes, connections, and whether it saves each node's progress. */
export interface WorkflowVersion {
	nodes: INode[];
	connections: IConnections;
	saveProgress: boolean;
}

/** Where a run is held: the Gate node, the Mail Delivery node's n-th request (sent or not), its n-th store write. */
export type Point =
	| { at: 'gate' }
	| { at: 'request'; index: number; reached: boolean }
	| { at: 'write'; index: number };

/** What happens there: n8n killed (kill -9), the execution stopped (Stop), or held until released. */
export type Hold = { point: Point; then: 'kill' | 'stop' | 'pause' };

export interface Execution {
	id: string;
	mode: WorkflowExecuteMode;
	retryOf?: string;
	workflow: WorkflowVersion;
	/** What n8n's database holds of it. */
	saved: IRunExecutionData;
	status: Status;
	/** Its last run's end as n8n-core gave it (none when it was killed). */
	result?: IRun;
	/** The Gate node puts this execution to wait (as n8n's Wait node), until it is resumed. */
	gateWaits: boolean;
	/** Nodes its runs started and ended (n8n's event log, read when it crashed). */
	started: Set<string>;
	ended: Set<string>;
	live?: LiveRun;
}

interface LiveRun {
	control: RunControl;
	cancel: () => void;
	end: Promise<void>;
}

const deferred = <T = void,>() => {
	let resolve!: (value: T) => void;
	const promise = new Promise<T>((done) => (resolve = done));
	return { promise, resolve };
};

/** The run an async call belongs to (n8n's store and the platform's requests are shared by every run). */
const currentRun = new AsyncLocalStorage<RunControl>();

class KilledError extends Error {
	constructor() {
		super('n8n was killed: this process does nothing more');
	}
}

/**
 * The requests to the platform still open on n8n's side (sent, not yet answered or abandoned), seen where every
 * request leaves (node:http, watched from the first instance on); each run's requests carry a header naming them.
 */
const REQUEST_HEADER = 'x-explored-request';
const openRequests = new Set<http.ClientRequest>();
const answered = new Map<string, () => void>();
let watching = false;
function watchRequests() {
	if (watching) return;
	watching = true;
	const request = http.request;
	(http as { request: typeof http.request }).request = function (
		this: unknown,
		...args: Parameters<typeof http.request>
	) {
		const sent = request.apply(this, args);
		const tag = sent.getHeader(REQUEST_HEADER);
		if (typeof tag === 'string') {
			openRequests.add(sent);
			sent.once('close', () => openRequests.delete(sent));
			sent.once('response', () => answered.get(tag)?.());
		}
		return sent;
	} as typeof http.request;
	storeHooks.before = () => {
		if (currentRun.getStore()?.killed) throw new KilledError();
	};
	storeHooks.after = async () => {
		const run = currentRun.getStore();
		if (!run) return;
		await run.pass({ at: 'write', index: ++run.writes });
	};
	registerNodeType(GATE_TYPE, gate);
}

/** Until every request that left has been answered or abandoned, and the platform has none under way. */
export async function requestsSettled(underWay: () => number) {
	const deadline = performance.now() + 120_000;
	for (let quiet = 0; quiet < 3;) {
		if (performance.now() > deadline)
			throw new Error(`requests still open after 120 s: ${openRequests.size}, ${underWay()}`);
		quiet = openRequests.size === 0 && underWay() === 0 ? quiet + 1 : 0;
		await new Promise((resolve) => setTimeout(resolve, 2));
	}
}

/** One live run: where it is held, and whether its process was killed. */
class RunControl {
	killed = false;
	requests = 0;
	writes = 0;
	readonly reached = deferred();
	private released = deferred();

	constructor(
		readonly id: string,
		readonly hold: Hold | undefined,
	) {}

	release() {
		this.released.resolve();
	}

	private at(point: Point) {
		const hold = this.hold?.point;
		if (hold?.at !== point.at) return false;
		return (
			hold.at === 'gate' || (hold as { index: number }).index === (point as { index: number }).index
		);
	}

	/**
	 * A point the run passes. At its hold: killed, it goes no further; stopped or paused, it waits there until
	 * released (after the stop, or when a step releases it).
	 */
	async pass(point: Point): Promise<void> {
		if (this.killed) throw new KilledError();
		if (!this.at(point)) return;
		if (this.hold!.then === 'kill') this.killed = true;
		this.reached.resolve();
		if (this.hold!.then !== 'kill') await this.released.promise;
		if (this.killed) throw new KilledError();
	}

	/** The hold is on a request that leaves: reached once the platform answers it. */
	heldAfterLeaving(index: number) {
		const hold = this.hold?.point;
		return hold?.at === 'request' && hold.index === index && hold.reached;
	}
}

/** The node before the Mail Delivery node: passes its items on, waits as n8n's Wait node when told to. */
const GATE_TYPE = 'test.gate';
const gates = new Map<string, { control: RunControl; waits: boolean }>();
const gate = testNodeType('Gate', 'Holds or waits', async function () {
	const gate = gates.get(this.getExecutionId());
	await gate?.control.pass({ at: 'gate' });
	if (gate?.waits) await this.putExecutionToWait(new Date(Date.now() + 24 * 3_600_000));
	return [this.getInputData()];
});

/** Each request of a run passes its point first, and carries its name; a killed run's requests never leave. */
class RunCredentials extends CredentialsStore {
	constructor(
		base: CredentialsStore,
		private readonly control: RunControl,
	) {
		super();
		this.stored = base.stored;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	) {
		const { control } = this;
		const index = ++control.requests;
		const tag = `${control.id}:${index}`;
		if (control.heldAfterLeaving(index)) {
			if (control.killed) throw new KilledError();
			// It leaves; n8n is killed or stopped once the platform has answered it, before the node reads the answer.
			answered.set(tag, () => {
				answered.delete(tag);
				if (control.hold!.then === 'kill') control.killed = true;
				control.reached.resolve();
			});
		} else await control.pass({ at: 'request', index, reached: false });
		const signed = await super.authenticate(credentials, typeName, requestOptions);
		signed.headers = { ...signed.headers, [REQUEST_HEADER]: tag };
		return signed;
	}
}

export class N8nInstance {
	readonly executions: Execution[] = [];

	constructor(
		readonly workflowId: string,
		public workflow: WorkflowVersion,
		private readonly credentials: () => CredentialsStore,
		/** Waits until every request that left has been answered (the platform's side of a kill). */
		private readonly settled: () => Promise<void>,
	) {
		watchRequests();
	}

	/** A new execution of the saved workflow, as a webhook starts one, with these items. */
	async start(items: INodeExecutionData[], options: { hold?: Hold; gateWaits?: boolean } = {}) {
		const workflow = saveCopy(this.workflow);
		// n8n 2.41 saves a webhook's execution with its context from the start (tried in a real n8n).
		const data = startData(workflow.nodes[0], [items], {
			lineage: { establishedAt: Date.now(), source: 'webhook' },
		});
		const execution = this.add('webhook', workflow, data, options.gateWaits ?? false);
		await this.launch(execution, data, options.hold);
		return execution;
	}

	/** POST /rest/executions/<id>/retry, with the workflow the execution ran or the saved one. */
	async retry(of: Execution, options: { savedWorkflow: boolean; hold?: Hold }) {
		const refusal = retryRefusal(of.status);
		if (refusal) throw new Error(refusal);
		const data = retryData(of.saved);
		let workflow = of.workflow;
		if (options.savedWorkflow) {
			workflow = saveCopy(this.workflow);
			for (const entry of data.executionData!.nodeExecutionStack) {
				const node = workflow.nodes.find((candidate) => candidate.name === entry.node.name);
				if (!node)
					throw new Error(
						`Could not find the node "${entry.node.name}" in workflow. It probably got deleted or renamed. Without it the workflow can sadly not be retried.`,
					);
				entry.node = saveCopy(node);
			}
		}
		const execution = this.add('retry', workflow, data, false);
		execution.retryOf = of.id;
		await this.launch(execution, data, options.hold);
		return execution;
	}

	/** The wait ends (its time limit): n8n's WaitTracker resumes the same execution from its saved data. */
	async resume(execution: Execution, hold?: Hold) {
		if (execution.status !== 'waiting') throw new Error(`execution ${execution.id} is not waiting`);
		await this.launch(execution, saveCopy(execution.saved), hold, true);
	}

	/** A paused run goes on, to its end. */
	async release(execution: Execution) {
		const live = execution.live!;
		live.control.release();
		await live.end;
	}

	/** n8n killed while this run is paused. */
	async kill(execution: Execution) {
		const { control } = execution.live!;
		this.crash(execution);
		control.release();
		await this.settled();
	}

	/** The Mail Delivery node pasted again (same name, a new node ID), in the saved workflow. */
	recreateNode(name: string) {
		const node = this.workflow.nodes.find((candidate) => candidate.name === name)!;
		node.id = `${node.id.split('~')[0]}~${this.executions.length}-${Math.random().toString(36).slice(2, 8)}`;
	}

	/** A node renamed in the saved workflow (its connections follow, as the editor renames them). */
	renameNode(from: string, to: string) {
		this.workflow.nodes.find((candidate) => candidate.name === from)!.name = to;
		const renamed: IConnections = {};
		for (const [source, outputs] of Object.entries(this.workflow.connections)) {
			for (const list of outputs.main ?? [])
				for (const target of list ?? []) if (target.node === from) target.node = to;
			renamed[source === from ? to : source] = outputs;
		}
		this.workflow.connections = renamed;
	}

	private add(
		mode: WorkflowExecuteMode,
		workflow: WorkflowVersion,
		data: IRunExecutionData,
		gateWaits: boolean,
	): Execution {
		const execution: Execution = {
			id: String(this.executions.length + 1),
			mode,
			workflow,
			saved: saveCopy(data),
			status: 'running',
			gateWaits,
			started: new Set(),
			ended: new Set(),
		};
		this.executions.push(execution);
		return execution;
	}

	/** Runs the execution from `data` until it ends or reaches its hold, then kills, stops or pauses it there. */
	private async launch(
		execution: Execution,
		data: IRunExecutionData,
		hold?: Hold,
		resumed = false,
	) {
		const control = new RunControl(execution.id, hold);
		const { workflow } = execution;
		execution.status = 'running';
		gates.set(execution.id, { control, waits: execution.gateWaits });
		const ended = deferred();
		let saved = false;
		const running = currentRun.run(control, () =>
			execute({
				workflow: workflowOf({
					id: this.workflowId,
					nodes: workflow.nodes,
					connections: workflow.connections,
				}),
				mode: execution.mode,
				executionId: execution.id,
				data,
				additionalData: buildAdditionalData(new RunCredentials(this.credentials(), control)),
				resumed,
				on: {
					nodeExecuteBefore: (name) => {
						if (!control.killed) execution.started.add(name);
					},
					nodeExecuteAfter: (name, _task, runData) => {
						if (control.killed || saved) return;
						execution.ended.add(name);
						if (workflow.saveProgress)
							execution.saved = saveCopy({
								...runData,
								resultData: { ...runData.resultData, lastNodeExecuted: name },
							});
					},
					workflowExecuteAfter: (run) => {
						// n8n saves a run's end once (a stopped execution's later saves are refused).
						if (control.killed || saved) return;
						saved = true;
						// n8n writes the execution now: later changes to the live objects are not saved.
						execution.saved = saveCopy(run.data);
						execution.result = run;
						execution.status = statusOf(run);
						execution.live = undefined;
						ended.resolve();
					},
				},
			}),
		);
		// A cancelled run's promise never settles (n8n's shouldReject = false): its end is the hook's.
		running.then(
			() => undefined,
			() => undefined,
		);
		execution.live = { control, cancel: () => running.cancel(), end: ended.promise };
		await Promise.race([ended.promise, control.reached.promise]);
		if (execution.status !== 'running' || !hold) return;
		if (hold.then === 'kill') {
			this.crash(execution);
			control.release();
			await this.settled();
		} else if (hold.then === 'stop') {
			running.cancel();
			// n8n saves the stopped execution first; the run held at the point goes on after (and saves nothing more).
			await ended.promise;
			control.release();
			await this.settled();
		}
	}

	/** kill -9: the run does nothing more; n8n, started again, marks what its event log says started as crashed. */
	private crash(execution: Execution) {
		// n8n starts again with the node's code loaded anew.
		restartNodeCode();
		// The process is gone: its requests under way are left to the platform (each may have been processed).
		execution.live!.control.killed = true;
		execution.live = undefined;
		execution.status = 'crashed';
		const data = execution.saved;
		data.resultData.runData ??= {};
		for (const node of execution.workflow.nodes) {
			if (!execution.started.has(node.name) || data.resultData.runData[node.name]) continue;
			const ended = execution.ended.has(node.name);
			data.resultData.runData[node.name] = [
				{
					startTime: Date.now(),
					executionIndex: 0,
					executionTime: ended ? 0 : -1,
					source: [null],
					executionStatus: ended ? 'success' : 'crashed',
					...(ended
						? { data: { main: [[{ json: { isArtificialRecoveredEventItem: true } }]] } }
						: { error: { message: 'Node crashed', name: 'NodeCrashedError' } as never }),
				},
			];
			data.resultData.lastNodeExecuted = node.name;
			if (!ended)
				data.resultData.error = {
					message: 'Workflow did not finish, possible out-of-memory issue',
					name: 'WorkflowCrashedError',
				} as never;
		}
	}
}

/** Source → Gate → the node (`parameters`, `settings`) → After: the workflow the histories run. */
export function exploredWorkflow(node: INode, saveProgress: boolean): WorkflowVersion {
	const at = (name: string, type: string, x: number) =>
		plainNode(`${name.toLowerCase()}-node`, name, type, x);
	return {
		nodes: [
			at('Source', SOURCE_NODE_TYPE, 0),
			at('Gate', GATE_TYPE, 100),
			node,
			at('After', SOURCE_NODE_TYPE, 300),
		],
		connections: { Source: link('Gate'), Gate: link(node.name), [node.name]: link('After') },
		saveProgress,
	};
}
