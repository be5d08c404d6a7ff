/**
 * A history of what n8n and its users do around one Mail Delivery node that changes something, run on an n8n
 * instance in process (test/harness/n8n/instance.cts) against the emulator, and the promise checked against what the
 * platform accepted: no recipient (contact) accepted twice, unless Options → Redo After a Crash was on in a retry of
 * its execution, and every error the node gave says why. A history is plain data, so that a failing one prints as a
 * test to paste (arbitraries.cts).
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

import type { Emulator } from '../../emulator/server.cts';
import type { Fault } from '../../emulator/types.cts';
import {
	ACTION_NODE_TYPE,
	CredentialsStore,
	type Execution,
	exploredWorkflow,
	type Hold,
	N8nInstance,
	processedData,
	requestsSettled,
	restartNodeCode,
} from '../harness/n8n.cts';
import { advanceClock, clockAtMinute } from './clock.cts';
import { laterRuns, pushOut } from './laterRuns.cts';

/** What stays the same through a history. */
export interface Setup {
	operation: 'send' | 'upsert' | 'sendAndWait';
	/** Items each new execution gets (Send and Wait runs item 0 only). */
	items: number;
	parallel: number;
	/** On Error: Stop Workflow, or Continue (using error output). */
	continueOnError: boolean;
	/** n8n's Retry On Fail, with this many tries (0: off). */
	retryOnFail: number;
	saveProgress: boolean;
	/** Minutes into the hour when the history starts (the store's markers are by ten minutes, hour and day). */
	startMinute: number;
	/** The node ran an hour before the history starts (else it is new: the store has no trace of it). */
	ranBefore: boolean;
}

/** One thing n8n or a user does; `of` names an earlier execution by its number in the history (1, 2, …). */
export type Step =
	| { do: 'start'; hold?: Hold; gateWaits?: boolean }
	| { do: 'retry'; of: number; savedWorkflow: boolean; hold?: Hold }
	| { do: 'resume'; of: number; hold?: Hold }
	| { do: 'release'; of: number }
	| { do: 'kill'; of: number }
	| { do: 'fault'; fault: Fault; skip: number }
	| { do: 'recreateNode' }
	| { do: 'renameNode' }
	| { do: 'redoAfterACrash'; on: boolean }
	| { do: 'laterRuns'; count: number }
	/** Later runs until the oldest entry the execution's lineage left in the store is pushed out. */
	| { do: 'pushOut'; of: number }
	| { do: 'clock'; minutes: number };

export interface Outcome {
	/** The steps that applied (one that did not, as a Retry n8n refuses, is left out), with `of` resolved. */
	steps: Step[];
	violations: string[];
	/** Per execution: how it ended. */
	executions: string[];
	/** The node's errors, as "<execution>: <message>". */
	errors: string[];
	/** Refusals, and lone retries whose sending was checked (liveness). */
	stats: { refusals: number; loneRetries: number };
}

const PATH = {
	send: '/v5/transactional/mail/sends_customised',
	sendAndWait: '/v5/transactional/mail/sends_customised',
	upsert: '/v5/contacts/upsert',
};

const rl = (value: string) => ({ __rl: true, mode: 'name', value });

function nodeParameters(setup: Setup, redo: boolean): IDataObject {
	const options = {
		parallelRequests: setup.parallel,
		repeatOnRetry: redo,
		timeoutSeconds: 2,
	};
	if (setup.operation === 'upsert')
		return { resource: 'contact', operation: 'upsert', email: '={{ $json.email }}', options };
	if (setup.operation === 'sendAndWait')
		return {
			resource: 'transactionalMail',
			operation: 'sendAndWait',
			senderMail: rl('sender@example.com'),
			sendTo: '={{ $json.email }}',
			subject: 'Approve?',
			message: 'Please approve',
			// As the editor sets them: Options → Sending the Mail (n8n drops a flat option this operation lacks).
			options: {
				limitWaitTime: false,
				sending: { values: { repeatOnRetry: redo, timeoutSeconds: options.timeoutSeconds } },
			},
		};
	return {
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: rl('sender@example.com'),
		to: '={{ $json.email }}',
		contentSource: 'template',
		templateName: rl('welcome'),
		options: { missingTagValues: 'send', ...options },
	};
}

export function mailDeliveryNode(setup: Setup, redo = false): INode {
	return {
		id: 'mail-delivery-node',
		name: 'Mail Delivery',
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: {
			authentication: 'signature',
			...nodeParameters(setup, redo),
		} as INode['parameters'],
		credentials: { mailDeliverySignatureApi: { id: '1', name: 'test' } },
		...(setup.continueOnError ? { onError: 'continueErrorOutput' as const } : {}),
		...(setup.retryOnFail > 1
			? { retryOnFail: true, maxTries: setup.retryOnFail, waitBetweenTries: 1 }
			: {}),
	};
}

let histories = 0;

/** Runs a history against the emulator (reset first) and checks the promise. */
export async function runHistory(
	emulator: Emulator,
	setup: Setup,
	steps: Step[],
): Promise<Outcome> {
	emulator.reset();
	// A new n8n for each history: the node's code holds nothing of another history's runs.
	restartNodeCode();
	clockAtMinute(emulator, setup.startMinute);
	const workflowId = `explored-${++histories}`;
	const credentials = () => {
		const store = new CredentialsStore();
		store.stored = {
			mailDeliverySignatureApi: {
				baseUrl: emulator.url,
				apiKey: emulator.account.apiKey,
				apiSecret: emulator.account.apiSecret,
			},
		};
		return store;
	};
	const settled = async () => await requestsSettled(() => emulator.network.underWay);
	const n8n = new N8nInstance(
		workflowId,
		exploredWorkflow(mailDeliveryNode(setup, false), setup.saveProgress),
		credentials,
		settled,
	);
	const run = new HistoryRun(emulator, setup, n8n);
	try {
		if (setup.ranBefore) {
			advanceClock(emulator, -3_600_000);
			await laterRuns(n8n, 'Mail Delivery', 1, emulator);
			advanceClock(emulator, 3_600_000);
		}
		for (const step of steps) await run.apply(step);
		for (const execution of n8n.executions) if (execution.live) await n8n.kill(execution);
		await settled();
		return run.outcome();
	} finally {
		for (const key of [...processedData.keys()])
			if (key.startsWith(`${workflowId}:`)) processedData.delete(key);
	}
}

class HistoryRun {
	readonly steps: Step[] = [];
	private starts = 0;
	/** The lineage (number of the start) each execution belongs to, and whether Redo After a Crash was on. */
	private readonly lineage = new Map<Execution, number>();
	private readonly redoIn = new Set<number>();
	private redo = false;
	private renames = 0;
	/** n8n restarts so far (kill -9), and how many there had been when each lineage began. */
	private restarts = 0;
	private readonly restartsAtStart = new Map<number, number>();
	/** Lone retries that refused an item no try ever requested (liveness: docs/reliability.md, promise 2). */
	private readonly stuck: string[] = [];
	private loneRetries = 0;

	constructor(
		private readonly emulator: Emulator,
		private readonly setup: Setup,
		private readonly n8n: N8nInstance,
	) {}

	private get nodeName() {
		return this.renames === 0 ? 'Mail Delivery' : `Mail Delivery ${this.renames}`;
	}

	private items(): INodeExecutionData[] {
		const lineage = ++this.starts;
		return Array.from({ length: this.setup.items }, (_, i) => ({
			json: { email: `l${lineage}-${i}@example.org` },
		}));
	}

	/** An earlier execution by its number, counted round the executions so far (so that any number names one). */
	private earlier(of: number) {
		const { executions } = this.n8n;
		return executions.length === 0 ? undefined : executions[(of - 1) % executions.length];
	}

	async apply(given: Step) {
		const { n8n } = this;
		const step =
			'of' in given && n8n.executions.length > 0
				? { ...given, of: ((given.of - 1) % n8n.executions.length) + 1 }
				: given;
		switch (step.do) {
			case 'start': {
				const items = this.items();
				this.restartsAtStart.set(this.starts + 1, this.restarts);
				const execution = await n8n.start(items, { hold: step.hold, gateWaits: step.gateWaits });
				this.lineage.set(execution, this.starts);
				if (step.hold?.then === 'kill') this.restarts++;
				break;
			}
			case 'retry': {
				const of = this.earlier(step.of);
				if (!of || of.status === 'success') return;
				const lone = step.hold === undefined && this.alone(this.lineage.get(of)!);
				let execution: Execution;
				try {
					execution = await n8n.retry(of, { savedWorkflow: step.savedWorkflow, hold: step.hold });
				} catch (error) {
					if (process.env.EXPLORER_DEBUG) console.log(error);
					return; // n8n refused the Retry itself (a node of the stack renamed)
				}
				const lineage = this.lineage.get(of)!;
				this.lineage.set(execution, lineage);
				if (redoOf(execution)) this.redoIn.add(lineage);
				if (step.hold?.then === 'kill') this.restarts++;
				if (lone) this.checkLiveness(execution, lineage);
				break;
			}
			case 'resume': {
				const of = this.earlier(step.of);
				if (of?.status !== 'waiting') return;
				await n8n.resume(of, step.hold);
				if (step.hold?.then === 'kill') this.restarts++;
				break;
			}
			case 'release':
			case 'kill': {
				const of = this.earlier(step.of);
				if (!of?.live) return;
				await (step.do === 'kill' ? n8n.kill(of) : n8n.release(of));
				if (step.do === 'kill') this.restarts++;
				break;
			}
			case 'fault':
				this.emulator.network.faults.push({
					path: PATH[this.setup.operation],
					fault: step.fault,
					skip: step.skip,
				});
				break;
			case 'recreateNode':
				n8n.recreateNode(this.nodeName);
				break;
			case 'renameNode': {
				const from = this.nodeName;
				this.renames++;
				n8n.renameNode(from, this.nodeName);
				break;
			}
			case 'redoAfterACrash': {
				if (step.on === this.redo) return;
				this.redo = step.on;
				const node = n8n.workflow.nodes.find((candidate) => candidate.name === this.nodeName)!;
				const options = node.parameters.options as IDataObject;
				const sending = (options.sending as { values?: IDataObject } | undefined)?.values;
				if (sending) sending.repeatOnRetry = step.on;
				else options.repeatOnRetry = step.on;
				break;
			}
			case 'pushOut': {
				const of = this.earlier(step.of);
				if (!of || !(await pushOut(n8n, this.nodeName, of, this.emulator))) return;
				break;
			}
			case 'laterRuns':
				await laterRuns(n8n, this.nodeName, step.count, this.emulator);
				break;
			case 'clock':
				advanceClock(this.emulator, step.minutes * 60_000);
				break;
		}
		this.steps.push(step);
	}

	/** No execution of the lineage runs, is held or waits: none can come back (a retry started now races none). */
	private alone(lineage: number) {
		return this.n8n.executions.every(
			(execution) =>
				this.lineage.get(execution) !== lineage ||
				(execution.live === undefined && execution.status !== 'waiting'),
		);
	}

	/**
	 * Promise 2 (a lone retry sends), where it is made: n8n's one process, the node's row whole (nothing pushed out,
	 * the node not pasted again) and, after a restart since the lineage began, the node ran before it. A lone retry
	 * that ran through must not refuse an item whose recipient no try ever requested.
	 */
	private checkLiveness(execution: Execution, lineage: number) {
		if (this.setup.operation === 'sendAndWait' || redoOf(execution)) return;
		if (this.steps.some((step) => step.do === 'pushOut' || step.do === 'recreateNode')) return;
		if (!this.setup.ranBefore && this.restarts > (this.restartsAtStart.get(lineage) ?? 0)) return;
		this.loneRetries++;
		const requested = this.emulator
			.inspect()
			.requests.filter((request) => request.path === PATH[this.setup.operation])
			.map((request) => JSON.stringify(request.body))
			.join('\n');
		const never = refusedRecipients(execution, lineage).filter(
			(email) => !requested.includes(`"${email}"`),
		);
		if (never.length > 0)
			this.stuck.push(
				`execution ${execution.id}, a lone retry, refused ${never.join(', ')}, which no try requested (${errorsOf(execution)[0]?.message})`,
			);
	}

	outcome(): Outcome {
		const violations: string[] = [...this.stuck];
		for (const [recipient, count] of acceptedCounts(this.emulator, this.setup.operation)) {
			const lineage = Number(/^l(\d+)-/.exec(recipient)?.[1]);
			if (count > 1 && !this.redoIn.has(lineage))
				violations.push(
					`${recipient} accepted ${count} times (execution of start ${lineage} and its retries; Redo After a Crash off)`,
				);
		}
		const stats = { refusals: 0, loneRetries: this.loneRetries };
		const errors: string[] = [];
		for (const execution of this.n8n.executions) {
			for (const error of errorsOf(execution)) {
				errors.push(`${execution.id}: ${error.message}`);
				if (/^Not sent: /.test(error.message)) stats.refusals++;
				if (!error.message || !error.description)
					violations.push(
						`execution ${execution.id}: an error without its reason: ${JSON.stringify(error)}`,
					);
			}
		}
		return {
			steps: this.steps,
			violations,
			executions: this.n8n.executions.map(
				(execution) =>
					`${execution.id} ${execution.mode}${execution.retryOf ? ` of ${execution.retryOf}` : ''}: ${execution.status}`,
			),
			errors,
			stats,
		};
	}
}

const nodeOf = (execution: Execution) =>
	execution.workflow.nodes.find((node) => node.type === ACTION_NODE_TYPE)!;
function redoOf(execution: Execution) {
	const options = nodeOf(execution).parameters.options as IDataObject;
	const sending = (options.sending as { values?: IDataObject } | undefined)?.values;
	return (sending ?? options).repeatOnRetry === true;
}

/** The node's errors in an execution: its run's error and each item on its error output. */
function errorsOf(execution: Execution): Array<{ message: string; description?: string }> {
	const runs = execution.result?.data.resultData.runData[nodeOf(execution).name] ?? [];
	const errors: Array<{ message: string; description?: string }> = [];
	for (const run of runs) {
		if (run.error)
			errors.push({
				message: run.error.message,
				description: (run.error as { description?: string }).description ?? undefined,
			});
		for (const item of run.data?.main?.[1] ?? []) {
			const json = item.json as { error?: string; details?: { description?: string } };
			errors.push({ message: String(json.error ?? ''), description: json.details?.description });
		}
	}
	return errors;
}

/** The recipients of the items the node refused in an execution (each carries its reason; Stop Workflow lists them). */
function refusedRecipients(execution: Execution, lineage: number): string[] {
	const runs = execution.result?.data.resultData.runData[nodeOf(execution).name] ?? [];
	const recipients = (fields: IDataObject | undefined, item: unknown) => {
		if (fields?.reason === undefined) return [];
		if (Array.isArray(fields.email)) return fields.email.map(String);
		return [`l${lineage}-${Number(item)}@example.org`];
	};
	const refused: string[] = [];
	for (const run of runs) {
		const context = (run.error as { context?: IDataObject } | undefined)?.context;
		const listed = (context?.notSent as IDataObject[] | undefined) ?? (context ? [context] : []);
		for (const one of listed) refused.push(...recipients(one, one.item ?? one.itemIndex));
		for (const item of run.data?.main?.[1] ?? []) {
			const paired = item.pairedItem as { item?: number } | undefined;
			refused.push(...recipients(item.json.details as IDataObject, paired?.item));
		}
	}
	return refused;
}

/** How many times the platform accepted each recipient (a mail) or contact (an upsert it processed). */
function acceptedCounts(emulator: Emulator, operation: Setup['operation']) {
	const counts = new Map<string, number>();
	const count = (email: string) => counts.set(email, (counts.get(email) ?? 0) + 1);
	const view = emulator.inspect();
	if (operation === 'upsert') {
		for (const request of view.requests)
			if (request.path === PATH.upsert && [200, 500].includes(request.code))
				count(String((request.body as IDataObject).email));
	} else for (const mail of view.mails) count(mail.email);
	return counts;
}
