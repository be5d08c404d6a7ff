/**
 * The stand-in keeping a waiting execution and resuming it as n8n does: the workflow runs through the engine
 * (n8n-core's) until the node puts it to wait; its data is then kept as n8n's database keeps it (a JSON copy,
 * n8n/database.cts), its status as n8n gives it (statusOf), and a request to one
 * of its links is served as n8n 2.41's WaitingWebhooks serves it (webhooks/waiting-webhooks.js): n8n's signature
 * checked (401), a finished execution answered "No action required", the node disabled and its webhook() run in
 * n8n-core's WebhookContext with the saved data, and the run resumed with what the webhook returned (webhook-
 * helpers.js prepareExecutionData). The time limit resumes it as n8n's WaitTracker does (the data as saved).
 */
import { Container } from '@n8n/di';
import {
	generateUrlSignature,
	InstanceSettings,
	prepareUrlForSigning,
	validateUrlSignature,
	type WebhookContext,
} from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	IRunExecutionData,
	IWebhookResponseData,
} from 'n8n-workflow';

import { MailDelivery } from '../../../nodes/MailDelivery/MailDelivery.node';
import { rl } from '../fixtures.cts';
import { saveCopy, type Status, statusOf } from './database.cts';
import {
	actionWorkflow,
	buildAdditionalData,
	type CredentialsStore,
	link,
	plainNode,
	type RunResult,
	runWorkflow,
	SOURCE_NODE_TYPE,
	testWorkflow,
	webhookContext,
	type WorkflowOptions,
} from './engine.cts';

/** Send and Wait for Response as the suites ask: Ada, about a refund (a message of two lines), with `extra`. */
export const askParameters = (extra: IDataObject = {}) => ({
	resource: 'transactionalMail',
	operation: 'sendAndWait',
	senderMail: rl('sender@example.com'),
	sendTo: 'Ada <ada@example.org>',
	subject: 'Refund of order 1042',
	message: 'Refund 120 EUR to Grace?\nShe returned both items.',
	...extra,
});
/** Approve and Disapprove. */
export const DOUBLE_APPROVAL = { approvalOptions: { values: { approvalType: 'double' } } };

/** A person's browser. */
export const BROWSER =
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** What a request to a link got. */
export interface Answered {
	status: number;
	headers: Record<string, string>;
	body: string;
	/** n8n's view the webhook rendered (its form page), with its data. */
	rendered?: { view: string; data: IDataObject };
	/** The run after the answer resumed it. */
	resumed?: RunResult;
}

class Response {
	status_ = 200;
	headers: Record<string, string> = {};
	body = '';
	sent = false;
	rendered?: { view: string; data: IDataObject };

	status(code: number) {
		this.status_ = code;
		return this;
	}

	setHeader(name: string, value: string) {
		this.headers[name.toLowerCase()] = value;
	}

	send(body: unknown) {
		this.body = String(body);
		this.sent = true;
	}

	render(view: string, data: IDataObject) {
		this.rendered = { view, data };
		this.sent = true;
	}
}

let executions = 0;

/** Source → Mail Delivery (or the name `node` gives it) → After: After's input is what the node gave the run. */
function waitingWorkflow(parameters: IDataObject, node: Partial<INode>) {
	const { nodes, connections } = actionWorkflow(parameters);
	Object.assign(nodes[1], node);
	const name = nodes[1].name;
	const after = plainNode(`after-${nodes[1].id}`, 'After', SOURCE_NODE_TYPE, 400);
	return {
		nodes: [...nodes, after],
		connections: { Source: link(name), [name]: link('After') } as typeof connections,
	};
}

export interface WaitingRun {
	first: RunResult;
	executionId: string;
	/** Whether the execution waits now, as n8n's database says. */
	readonly waiting: boolean;
	/** The execution's data as n8n's database holds it now: what anyone who may read the execution reads. */
	readonly saved: IRunExecutionData;
	/** The node's output of its last run (what the next node got). */
	readonly last: RunResult;
	/** A request to a link, as a person's browser (or the given user agent) makes it. */
	open(
		url: string,
		init?: {
			method?: 'GET' | 'POST';
			userAgent?: string;
			body?: IDataObject;
			/** The webhook context without n8n-core's `runExecutionData` (an n8n that would not hold it there). */
			withoutExecutionData?: boolean;
		},
	): Promise<Answered>;
	/** The time limit passed: n8n's WaitTracker resumes the run. */
	timeOut(): Promise<RunResult>;
}

/** Runs Source → Mail Delivery (the given parameters) → After until the execution waits or ends. */
export async function runToWait(
	parameters: IDataObject,
	credentials: CredentialsStore,
	{
		items,
		node = {},
		graph = (workflow) => workflow,
		mode,
		executionContext,
	}: {
		items?: INodeExecutionData[];
		/** Settings of the Mail Delivery node (Retry On Fail, On Error). */
		node?: Partial<INode>;
		/** How n8n started the execution ('retry' for Retry in the executions list), and its lineage. */
		mode?: WorkflowOptions['mode'];
		executionContext?: WorkflowOptions['executionContext'];
		/** Changes the workflow (another node, a loop) before it runs. */
		graph?: (workflow: ReturnType<typeof waitingWorkflow>) => ReturnType<typeof waitingWorkflow>;
	} = {},
): Promise<WaitingRun> {
	const executionId = `${++executions}`;
	const { nodes, connections } = graph(waitingWorkflow(parameters, node));
	const first = await runWorkflow({
		nodes,
		connections,
		items,
		credentials,
		executionId,
		mode,
		executionContext,
	});
	// n8n writes the execution to its database as the run ends (at the wait, or its end).
	let saved = saveCopy(first.run.data);
	let last = first;
	let status: Status = statusOf(first.run);
	const resume = async (data: IRunExecutionData) => {
		status = 'running';
		last = await runWorkflow({ nodes, connections, credentials, executionId, resumeFrom: data });
		saved = saveCopy(last.run.data);
		status = statusOf(last.run);
		return last;
	};
	const run: WaitingRun = {
		first,
		executionId,
		get waiting() {
			return status === 'waiting';
		},
		get saved() {
			return saveCopy(saved);
		},
		get last() {
			return last;
		},
		timeOut: async () => await resume(saveCopy(saved)),
		open: async (
			url,
			{ method = 'GET', userAgent = BROWSER, body = {}, withoutExecutionData = false } = {},
		) => {
			const parsed = new URL(url);
			const [, base, execution, nodeId] = parsed.pathname.split('/');
			const response = new Response();
			const answered = (): Answered => ({
				status: response.status_,
				headers: response.headers,
				body: response.body,
				rendered: response.rendered,
			});
			if (base !== 'webhook-waiting' || execution !== executionId) return answered();
			const signature = parsed.searchParams.get('signature') ?? '';
			const secret = Container.get(InstanceSettings).hmacSignatureSecret;
			if (!validateUrlSignature(signature, parsed, secret)) {
				response.status(401).send('Invalid token');
				return answered();
			}
			if (status === 'running') return { ...answered(), status: 409 };
			if (status !== 'waiting') {
				response.send('No action required');
				return answered();
			}
			const data = saveCopy(saved);
			const stackEntry = data.executionData!.nodeExecutionStack[0];
			stackEntry.node.disabled = true;
			data.waitTill = undefined;
			// preserveInputOverride: the waiting run's entry goes before the webhook runs (its input override stays).
			const runs = data.resultData.runData[data.resultData.lastNodeExecuted!];
			const popped = runs.pop();
			if (popped?.inputOverride)
				runs.push({
					startTime: 0,
					executionTime: 0,
					executionIndex: 0,
					source: popped.source,
					inputOverride: popped.inputOverride,
				} as never);
			const workflow = testWorkflow(nodes, connections);
			const waitingNode = workflow.getNode(data.resultData.lastNodeExecuted!)!;
			const type = new MailDelivery();
			const description = type.description.webhooks!.find((hook) => hook.httpMethod === method)!;
			const request = {
				method,
				headers: { 'user-agent': userAgent },
				query: Object.fromEntries(parsed.searchParams),
				body,
				contentType: 'multipart/form-data',
			};
			const context = webhookContext({
				workflow,
				node: waitingNode,
				additionalData: { ...buildAdditionalData(credentials), executionId },
				mode: 'manual',
				webhook: {
					httpMethod: method,
					path: nodeId,
					webhookDescription: description,
					isTest: false,
				},
				request,
				response,
				runExecutionData: data,
			});
			const result: IWebhookResponseData = await type.webhook.call(
				withoutExecutionData ? hidingExecutionData(context) : context,
			);
			if (!result.noWebhookResponse && result.webhookResponse !== undefined)
				response.send(result.webhookResponse);
			if (!result.workflowData) return answered();
			stackEntry.data.main = result.workflowData;
			stackEntry.metadata = { ...stackEntry.metadata, forwardAllOutputs: true } as never;
			return { ...answered(), resumed: await resume(data) };
		},
	};
	return run;
}

/** The context as the node sees it, but without its `runExecutionData` (n8n's own methods still use theirs). */
function hidingExecutionData(context: WebhookContext): WebhookContext {
	return new Proxy(context, {
		get(target, property) {
			if (property === 'runExecutionData') return undefined;
			const value = Reflect.get(target, property, target) as unknown;
			return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
		},
	});
}

/** The links of a mail's HTML, as a mail client opens them (entities decoded), in order. */
export function linksOf(html: string): string[] {
	return [...html.matchAll(/<a\b[^>]*\shref="([^"]*)"/g)].map((match) =>
		match[1].replace(/&amp;/g, '&'),
	);
}

/** A link signed again as n8n signs it: what passes n8n's own check, whatever its parameters say. */
export function resign(link: string): string {
	const url = new URL(link);
	url.searchParams.delete('signature');
	const secret = Container.get(InstanceSettings).hmacSignatureSecret;
	url.searchParams.set('signature', generateUrlSignature(prepareUrlForSigning(url), secret));
	return url.toString();
}
