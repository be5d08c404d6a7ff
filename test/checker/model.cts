/**
 * A small model of n8n around the node's real claim and retry code (nodes/MailDelivery/neverTwice/retries.ts and what it
 * imports, verdicts.ts among them, loaded once per n8n process so that each process has its own module state), for
 * the exhaustive checker (search.cts).
 *
 * What it models, as n8n 2.41 does it (read in .n8n-local, tried in real n8n by the end-to-end suites):
 * - executions of one workflow: a trigger, an optional wait before the node, the node (one run, `items` items, one
 *   request per item, Stop Workflow); n8n saves an execution at a wait, at its end, and with Save Execution Progress
 *   also as it reaches the node;
 * - Retry of any execution that saved data and did not succeed, in any state (running, waiting, crashed, failed),
 *   with that data, the wait before the node skipped (n8n disables the node it waited in);
 * - n8n processes sharing one deduplication store: each process's calls are read, then written whole (n8n's
 *   helper reads the row, changes it in memory and writes it back), so with two processes a write can lose the
 *   other's; a process killed (kill -9) loses what it had not written, and comes back with new module state;
 * - the store's bound (oldest entries pushed out), small here, so that pushing out is one step;
 * - the platform: which recipient it accepted how many times; a request that fails after it may have reached the
 *   platform (accepted or not: both are explored).
 *
 * The promise checked after every step: no recipient accepted twice unless Redo After a Crash was on in a retry of
 * its execution; an execution that is not a retry refuses only with "a retry of this execution took this step over", and only
 * when a retry of it took that run and sends it.
 */
import type { INode } from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import ts from 'typescript';

import { MAX_ENTRIES } from '../../nodes/MailDelivery/neverTwice/storeClaims';
import {
	executionContextOf,
	recordInRow,
	removeFromRow,
	retryRefusal,
	type Status,
} from '../harness/n8n/database.cts';

/** What the real code exports that the model calls. */
export interface Protocol {
	checkRetry(
		context: unknown,
		node: INode,
		options: { recordFits: boolean; repeatOnRetry: boolean },
	): Promise<
		| { send: true; journal?: (fingerprint: string) => Journal; takeOver?: boolean }
		| { send: false; refusal: (item: { itemIndex: number }) => Error }
	>;
	/** The node's run ended (new code): whether it threw, so that the process knows its execution went no further. */
	runEnded?: (context: unknown, ended: { threw: boolean }) => void;
}

/** The run's journal in n8n's store (nodes/MailDelivery/neverTwice/journal.ts), as the engine uses it. */
export interface Journal {
	readEarlier(
		origins: number[],
	): Promise<{ accepted: Set<number>; inDoubt: Set<number> } | 'otherPacking' | 'forgotten'>;
	announce(origin: number): Promise<void>;
	answered(origin: number, outcome: 'accepted' | 'unprocessed'): void;
	close(): Promise<void>;
}

/** The code checked: the node's, or (NEVER_TWICE_CODE) another version's retries.ts under nodes/, to compare. */
const RETRIES =
	process.env.NEVER_TWICE_CODE ??
	path.resolve(__dirname, '../../nodes/MailDelivery/neverTwice/retries.ts');
const NODES = path.resolve(__dirname, '../../nodes') + path.sep;

/** The node's files compiled once, by path (TypeScript's own transpiler: the same under jest and ts-node). */
const compiled = new Map<string, string>();

function compiledCode(file: string) {
	let code = compiled.get(file);
	if (code === undefined) {
		code = ts.transpileModule(readFileSync(file, 'utf8'), {
			fileName: file,
			compilerOptions: {
				module: ts.ModuleKind.CommonJS,
				target: ts.ScriptTarget.ES2022,
				esModuleInterop: true,
			},
		}).outputText;
		compiled.set(file, code);
	}
	return code;
}

/**
 * Each file's code as a function of the realm this runs in: under jest the tests run in a context of their own, whose
 * clock (Date) the model sets, and the node's code must read that clock.
 */
const functions = new Map<string, (...args: unknown[]) => void>();
const functionOf = (file: string) => {
	let made = functions.get(file);
	if (!made) {
		made = new Function(
			'exports',
			'require',
			'module',
			'__filename',
			'__dirname',
			`${compiledCode(file)}\n//# sourceURL=${file}`,
		) as (...args: unknown[]) => void;
		functions.set(file, made);
	}
	return made;
};

/**
 * The node's code as a new n8n process loads it: module state of its own (the node's files evaluated again from
 * their compiled code; n8n-workflow and Node's modules shared, as they hold no state of the node's).
 */
export function loadProtocol(): Protocol {
	const modules = new Map<string, Module>();
	const load = (file: string): unknown => {
		const loaded = modules.get(file);
		if (loaded) return loaded.exports;
		const module = new Module(file);
		module.filename = file;
		modules.set(file, module);
		const requireOutside = Module.createRequire(file);
		const requireHere = (request: string) => {
			const resolved = requireOutside.resolve(request);
			return resolved.startsWith(NODES) ? load(resolved) : requireOutside(resolved);
		};
		const wrapper = functionOf(file);
		wrapper.call(module.exports, module.exports, requireHere, module, file, path.dirname(file));
		return module.exports;
	};
	return load(RETRIES) as Protocol;
}

export interface Config {
	/** n8n processes sharing the store: 1, n8n's main process (regular mode); 2, two workers (queue mode). */
	processes: 1 | 2;
	items: number;
	/** Entries each row of the store keeps (n8n: 10,000). */
	bound: number;
	saveProgress: boolean;
	/** Platform faults explored on each request. */
	faults: boolean;
	/** Redo After a Crash may be turned on for a retry. */
	redo: boolean;
	/** The most executions (starts and retries) in a history. */
	maxExecutions: number;
	/** Steps the environment takes (starts, retries, resumes, kills, push-outs, clock). */
	depth: number;
	/** Also push the workflow's row out (its bound is the documented limit of the marks). */
	pushMarks?: boolean;
	/** The node ran an hour before the history (else it is new: the store has no trace of it). */
	ranBefore?: boolean;
	/** Executions start a millisecond apart (else in the same one, as a burst of webhooks may). */
	distinctStarts?: boolean;
	/** Check only that nobody is accepted twice (not that refusals are true): to look past a false refusal. */
	onlyTwice?: boolean;
}

type Phase =
	| 'waiting' // waits before the node
	| 'claiming' // the real check runs; it may be waiting for the store
	| 'sending'
	| 'ending' // the node's last store writes (its journal) before it ends
	| 'succeeded'
	| 'failed'
	| 'crashed';

interface Ledger {
	/** Per item: sent (accepted), maybe (failed after it may have reached the platform). */
	[item: string]: 'sent' | 'maybe';
}

interface Execution {
	id: number;
	/** The execution this one retries (0: none). */
	retryOf: number;
	/** The first execution of its chain of retries. */
	root: number;
	process: number;
	/** The process's life (a kill starts a new one). */
	life: number;
	lineageStart: number;
	redo: boolean;
	/** The node's ID as this execution's workflow has it. */
	phase: Phase;
	/** The node's context data, live (n8n keeps it with the execution). */
	context: Record<string, unknown>;
	saved?: { context: string; nodeStarted: boolean };
	/** The node started in this execution (n8n's record of it, by the node's name). */
	nodeStarted: boolean;
	/** What the data it runs with shows of that (a retry's: the execution it retries, as saved). */
	startedInData: boolean;
	/** Items this try refused, and why. */
	refused?: string;
	verdict?: 'send' | 'refuse';
	/** Items left to request, in order. */
	toSend: number[];
	/** It wrote a claim of a run into the store (a retry that then refuses takes it back). */
	recordedClaim?: boolean;
	/**
	 * The store calls its code issued, in order: where that code stands (two histories whose pending calls look alike
	 * may have reached them by different paths, and go on differently).
	 */
	calls: string[];
	/** The run's journal (regular mode), and whether a request waits for its intent to be written. */
	journal?: Journal;
	announcing?: boolean;
}

type StoreCall =
	| { kind: 'record'; scope: string; items: string[] }
	| { kind: 'remove'; scope: string; items: string[] }
	| { kind: 'count'; scope: string };

interface Pending {
	execution: number;
	call: StoreCall;
	/** Read, not yet written (two processes only). */
	read?: string[];
	resolve: (value: unknown) => void;
	reject: (error: unknown) => void;
}

export type Action =
	| { do: 'start'; process: number; wait: boolean }
	| { do: 'resume'; of: number; process: number }
	| { do: 'retry'; of: number; process: number; redo: boolean }
	| { do: 'kill'; process: number }
	| { do: 'pushOut'; marks?: boolean }
	| { do: 'clock' }
	| { do: 'store'; execution: number }
	| { do: 'request'; execution: number; fault: 'none' | 'refused' | 'lost' | 'maybeAccepted' };

const MINUTE = 60_000;
const START = Date.UTC(2026, 10, 28, 10, 1);

/** One history being played. */
export class World {
	readonly executions: Execution[] = [];
	readonly rows = new Map<string, string[]>();
	readonly accepted = new Map<string, number>();
	readonly violations: string[] = [];
	/**
	 * Lone retries that did not send what nobody may have sent (regular mode, no push-out): a retry of an execution
	 * that cannot come back, that no other try of it races, refused while an item of it was never accepted, nor may
	 * have been (never requested, or refused unprocessed). Kept apart from the promise: counted, not a stop.
	 */
	readonly stuck: string[] = [];
	/** Per first execution of a chain, per item: what the platform did with its requests (the truth, not a record). */
	private readonly truth = new Map<number, Map<number, 'accepted' | 'maybe'>>();
	readonly steps: Action[] = [];
	/** What each step did, in words (for a history that breaks the promise). */
	readonly log: string[] = [];
	now = START;
	private readonly lives: number[];
	private readonly protocols: Protocol[];
	private pending: Pending[] = [];
	/** What each process life saw: its module state depends on nothing else. */
	private readonly seen: string[][];
	private pushes = 0;
	private lifeCount = 0;

	constructor(readonly config: Config) {
		// The code under test reads this world's clock (also as a process loads it, before the node's earlier run).
		Date.now = () => this.now;
		this.now = START - 60 * MINUTE - 1000;
		this.lives = Array.from({ length: config.processes }, () => ++this.lifeCount);
		this.protocols = this.lives.map(() => loadProtocol());
		this.now = START;
		this.seen = this.lives.map(() => []);
	}

	/** Before the history: the node ran once an hour earlier, to its end (not a step of the history). */
	async prelude() {
		if (!this.config.ranBefore) return;
		this.now = START - 60 * MINUTE;
		await this.start(0, false);
		const first = this.executions[0];
		while (this.pending.length > 0 || ['claiming', 'sending', 'ending'].includes(first.phase)) {
			if (this.pending.length > 0) await this.storeStep(this.pending[0].execution);
			else if (first.phase === 'sending' && !first.announcing) await this.request(first, 'none');
		}
		this.now = START;
		this.log.push('(the node ran once an hour before)');
	}

	/** Executions of the history (not the prelude's). */
	private get started() {
		return this.executions.length - (this.config.ranBefore ? 1 : 0);
	}

	/** The actions possible now. */
	actions(): Action[] {
		const { config } = this;
		const actions: Action[] = [];
		for (const pending of this.pending) actions.push({ do: 'store', execution: pending.execution });
		for (const execution of this.executions)
			if (execution.phase === 'sending' && execution.toSend.length > 0 && !execution.announcing) {
				const faults = config.faults
					? (['none', 'refused', 'lost', 'maybeAccepted'] as const)
					: (['none'] as const);
				for (const fault of faults) actions.push({ do: 'request', execution: execution.id, fault });
			}
		if (this.environmentSteps() >= config.depth) return actions;
		const processes = this.lives.map((_, index) => index);
		if (this.started < config.maxExecutions) {
			for (const process of processes)
				for (const wait of [false, true]) actions.push({ do: 'start', process, wait });
			for (const execution of this.executions)
				if (this.retryable(execution))
					for (const process of processes)
						for (const redo of config.redo ? [false, true] : [false])
							actions.push({ do: 'retry', of: execution.id, process, redo });
		}
		for (const execution of this.executions)
			if (execution.phase === 'waiting' && execution.saved)
				for (const process of processes) actions.push({ do: 'resume', of: execution.id, process });
		for (const process of processes) if (this.live(process)) actions.push({ do: 'kill', process });
		// Later runs in n8n's one process write the row in turn with the node's own calls (one at a time per row).
		if (config.processes > 1 || this.pending.length === 0) {
			actions.push({ do: 'pushOut' });
			if (config.pushMarks) actions.push({ do: 'pushOut', marks: true });
		}
		actions.push({ do: 'clock' });
		return actions;
	}

	environmentSteps() {
		return this.steps.filter((step) => step.do !== 'store' && step.do !== 'request').length;
	}

	private live(process: number) {
		return this.executions.some(
			(execution) =>
				execution.process === process &&
				['waiting', 'claiming', 'sending', 'ending'].includes(execution.phase),
		);
	}

	/** n8n retries an execution that saved data and did not succeed, in any state (as the in-process n8n does). */
	private retryable(execution: Execution) {
		return execution.saved !== undefined && retryRefusal(statusOf(execution.phase)) === undefined;
	}

	async apply(action: Action) {
		await this.step(action);
		this.confirmRefusals();
	}

	private async step(action: Action) {
		this.steps.push(action);
		if (action.do !== 'store') this.log.push(words(action, this.executions.length));
		switch (action.do) {
			case 'start':
				return await this.start(action.process, action.wait);
			case 'resume': {
				// n8n resumes a waiting execution in any of its processes.
				const execution = this.execution(action.of);
				execution.process = action.process;
				execution.life = this.lives[action.process];
				return await this.reachNode(execution);
			}
			case 'retry':
				return await this.retry(this.execution(action.of), action.process, action.redo);
			case 'kill':
				return await this.kill(action.process);
			case 'pushOut':
				return this.pushOut(action.marks ? 'workflow' : 'node');
			case 'clock':
				this.now += 10 * MINUTE;
				return;
			case 'store':
				return await this.storeStep(action.execution);
			case 'request':
				return await this.request(this.execution(action.execution), action.fault);
		}
	}

	private execution(id: number) {
		return this.executions[id - 1];
	}

	private async start(process: number, wait: boolean) {
		if (this.config.distinctStarts) this.now += 1;
		const id = this.executions.length + 1;
		const execution: Execution = {
			id,
			retryOf: 0,
			root: id,
			process,
			life: this.lives[process],
			lineageStart: this.now,
			redo: false,
			phase: 'waiting',
			context: {},
			nodeStarted: false,
			startedInData: false,
			calls: [],
			toSend: [],
		};
		this.executions.push(execution);
		if (wait) execution.saved = { context: JSON.stringify(execution.context), nodeStarted: false };
		else await this.reachNode(execution);
	}

	private async retry(of: Execution, process: number, redo: boolean) {
		const id = this.executions.length + 1;
		const execution: Execution = {
			id,
			retryOf: of.id,
			root: of.root,
			process,
			life: this.lives[process],
			lineageStart: of.lineageStart,
			redo,
			phase: 'waiting',
			context: JSON.parse(of.saved!.context) as Record<string, unknown>,
			nodeStarted: of.saved!.nodeStarted,
			startedInData: of.saved!.nodeStarted,
			calls: [],
			toSend: [],
		};
		this.executions.push(execution);
		await this.reachNode(execution);
	}

	/** The execution reaches the node: with Save Execution Progress n8n saved it after the node before. */
	private async reachNode(execution: Execution) {
		if (this.config.saveProgress)
			execution.saved = {
				context: JSON.stringify(execution.context),
				nodeStarted: execution.nodeStarted,
			};
		execution.nodeStarted = true;
		execution.phase = 'claiming';
		const protocol = this.protocols[execution.process];
		const ledger = (execution.context.ledger ?? {}) as Ledger;
		execution.context.ledger = ledger;
		const unaccounted = Array.from({ length: this.config.items }, (_, item) => item).filter(
			(item) => ledger[item] === undefined,
		);
		if (unaccounted.length === 0) {
			await this.end(execution, false);
			return;
		}
		const checked = protocol.checkRetry(this.contextOf(execution), NODE, {
			recordFits: true,
			repeatOnRetry: execution.redo,
		});
		checked.then(
			async (check) => {
				if (execution.phase !== 'claiming') return; // killed meanwhile
				this.seen[execution.process].push(
					`${execution.id}:${check.send ? 'send' : 'refuse'}:${JSON.stringify(execution.context.runHistory)}`,
				);
				this.log.push(
					`  execution ${execution.id}: the node's check says ${check.send ? 'send' : `refuse: ${check.refusal({ itemIndex: 0 }).message}`} (its record: ${JSON.stringify(execution.context.runHistory)})`,
				);
				if (check.send) {
					execution.journal = check.journal?.(JSON.stringify(unaccounted));
					let toSend = unaccounted;
					if (check.takeOver && execution.journal) {
						// The engine reads what the earlier try of the run left in its journal (nodes/MailDelivery/neverTwice/runClaim.ts).
						const earlier = await execution.journal.readEarlier(unaccounted).catch(() => undefined);
						if (execution.phase !== 'claiming' || earlier === undefined) return; // killed meanwhile
						this.log.push(
							`  execution ${execution.id} reads the run's journal: ${JSON.stringify(typeof earlier === 'string' ? earlier : { accepted: [...earlier.accepted], inDoubt: [...earlier.inDoubt] })}`,
						);
						if (earlier === 'otherPacking' || earlier === 'forgotten') {
							execution.verdict = 'refuse';
							execution.refused = 'Not sent: the record of what an earlier try sent does not fit';
							await this.end(execution, true);
							return;
						}
						for (const item of earlier.accepted) ledger[item] = 'sent';
						for (const item of earlier.inDoubt) ledger[item] = 'maybe';
						toSend = unaccounted.filter((item) => ledger[item] === undefined);
						if (earlier.inDoubt.size > 0) execution.refused = 'in doubt';
					}
					execution.verdict = 'send';
					execution.phase = 'sending';
					execution.toSend = toSend;
					if (toSend.length === 0) await this.end(execution, execution.refused !== undefined);
				} else {
					execution.verdict = 'refuse';
					execution.refused = check.refusal({ itemIndex: unaccounted[0] }).message;
					this.checkRefusal(execution);
					await this.end(execution, true);
				}
			},
			(error: unknown) => {
				if (execution.phase !== 'crashed')
					this.violations.push(`execution ${execution.id}: the check threw ${String(error)}`);
			},
		);
		await settle();
	}

	private contextOf(execution: Execution) {
		const world = this;
		const call = async (call: StoreCall) => {
			// The node's code may write after its run ended (queue mode: its entry written again), not after a kill.
			if (execution.phase === 'crashed' || execution.life !== world.lives[execution.process])
				throw new Error('process killed');
			execution.calls.push(`${call.kind} ${'items' in call ? call.items.join(' ') : ''}`);
			return await new Promise((resolve, reject) => {
				world.pending.push({
					execution: execution.id,
					call,
					resolve,
					reject,
				});
			});
		};
		const options = (scope: string) => scope;
		return {
			// n8n names its process by the command that started it: one process is n8n's main (regular mode).
			instanceSettings: { instanceType: this.config.processes === 1 ? 'main' : 'worker' },
			getMode: () => (execution.retryOf ? 'retry' : 'webhook'),
			getContext: () => execution.context,
			getExecutionContext: () =>
				executionContextOf(TRIGGER, { establishedAt: execution.lineageStart, source: 'webhook' }),
			// What the trigger gave the execution, and its resume token (a retry keeps both).
			getWorkflowDataProxy: () => ({
				$: () => ({
					all: () => [{ json: { execution: execution.root } }],
					isExecuted: execution.startedInData,
				}),
				$execution: {
					resumeUrl: `http://n8n/webhook-waiting/${execution.id}?signature=token-${execution.root}`,
				},
			}),
			getExecutionId: () => String(execution.id),
			getWorkflow: () => ({ id: 'workflow' }),
			getNode: () => NODE,
			getExecutionCancelSignal: () => undefined,
			helpers: {
				checkProcessedAndRecord: async (items: string[], scope: string) => {
					const processed = (await call({
						kind: 'record',
						scope: options(scope),
						items: items.map(String),
					})) as string[];
					return { new: items.filter((item) => !processed.includes(item)), processed };
				},
				removeProcessed: async (items: string[], scope: string) => {
					await call({ kind: 'remove', scope, items: items.map(String) });
				},
				getProcessedDataCount: async (scope: string) =>
					(await call({ kind: 'count', scope })) as number,
			},
		};
	}

	private row(scope: string) {
		const key = scope === 'node' ? `node:${NODE.id}` : 'workflow';
		let row = this.rows.get(key);
		if (!row) this.rows.set(key, (row = []));
		return { key, row };
	}

	/**
	 * A store call's next part: with one process, read and written at once; with two, read first and written as a
	 * later step, whole, as n8n writes the row.
	 */
	private async storeStep(executionId: number) {
		const index = this.pending.findIndex((pending) => pending.execution === executionId);
		const pending = this.pending[index];
		const { key, row } = this.row(pending.call.scope);
		const split = this.config.processes > 1;
		const call = pending.call;
		const what = `${call.kind} ${call.kind === 'count' ? '' : call.items.join(', ')} (${call.scope} row)`;
		if (split && pending.read === undefined && call.kind !== 'count') {
			pending.read = [...row];
			this.log.push(
				`  execution ${executionId} reads the ${call.scope} row to ${what}: [${row.join(', ')}]`,
			);
			await settle();
			return;
		}
		this.log.push(
			`  execution ${executionId} ${pending.read ? 'writes' : 'does'} ${what}${pending.read ? ` over what it read` : ''}`,
		);
		this.pending.splice(index, 1);
		// The row as written: over what was read (two processes), by n8n's helper as the in-process n8n's store writes it.
		const written = [...(pending.read ?? row)];
		// The row holds `bound` entries where n8n holds MAX_ENTRIES: its count is told at n8n's scale.
		if (call.kind === 'count') pending.resolve((written.length * MAX_ENTRIES) / this.config.bound);
		else if (call.kind === 'remove') {
			removeFromRow(written, call.items);
			this.rows.set(key, written);
			pending.resolve(undefined);
		} else {
			const claimer = this.execution(pending.execution);
			if (claimer.retryOf !== 0 && call.items.some((item) => item.startsWith('c:')))
				claimer.recordedClaim = true;
			const { processed } = recordInRow(written, call.items, this.config.bound);
			this.rows.set(key, written);
			pending.resolve(processed);
		}
		await settle();
	}

	private async request(
		execution: Execution,
		fault: 'none' | 'refused' | 'lost' | 'maybeAccepted',
	) {
		const item = execution.toSend.shift()!;
		const go = async () => {
			execution.announcing = false;
			if (execution.phase !== 'sending') return; // killed meanwhile
			await this.requested(execution, item, fault);
		};
		if (!execution.journal) return await go();
		// The request leaves once the store holds its intent (the journal's write is a store step of its own).
		execution.announcing = true;
		execution.journal.announce(item).then(go, () => undefined);
		await settle();
	}

	private async requested(
		execution: Execution,
		item: number,
		fault: 'none' | 'refused' | 'lost' | 'maybeAccepted',
	) {
		const ledger = execution.context.ledger as Ledger;
		const truth = this.truth.get(execution.root) ?? new Map<number, 'accepted' | 'maybe'>();
		this.truth.set(execution.root, truth);
		if (fault === 'none' || fault === 'maybeAccepted') truth.set(item, 'accepted');
		else if (fault === 'lost' && truth.get(item) !== 'accepted') truth.set(item, 'maybe');
		if (fault === 'none' || fault === 'maybeAccepted') {
			const recipient = `${execution.root}-${item}`;
			const times = (this.accepted.get(recipient) ?? 0) + 1;
			this.accepted.set(recipient, times);
			if (times > 1 && !this.redoIn(execution.root))
				this.violations.push(`recipient ${recipient} accepted ${times} times`);
		}
		if (fault === 'none') ledger[item] = 'sent';
		else if (fault !== 'refused') ledger[item] = 'maybe';
		if (fault === 'none') execution.journal?.answered(item, 'accepted');
		if (fault === 'refused') execution.journal?.answered(item, 'unprocessed');
		if (fault !== 'none') {
			// Stop Workflow: the node throws; the items after it are not sent.
			execution.toSend = [];
			await this.end(execution, true);
		} else if (execution.toSend.length === 0) await this.end(execution, false);
	}

	private redoIn(root: number) {
		return this.executions.some((execution) => execution.root === root && execution.redo);
	}

	/** The node's run ends (its journal's writes done first): n8n saves the execution (nothing follows the node). */
	private async end(execution: Execution, threw: boolean) {
		const finish = () => {
			if (execution.phase === 'crashed') return;
			this.protocols[execution.process].runEnded?.(this.contextOf(execution), { threw });
			execution.phase = threw ? 'failed' : 'succeeded';
			execution.saved = { context: JSON.stringify(execution.context), nodeStarted: true };
		};
		if (!execution.journal) finish();
		else {
			execution.phase = 'ending';
			execution.journal.close().then(finish, () => undefined);
		}
		await settle();
	}

	/** kill -9: what the process had not written is lost; its executions crash; it starts again, new. */
	private async kill(process: number) {
		for (const execution of this.executions)
			if (
				execution.process === process &&
				['waiting', 'claiming', 'sending', 'ending'].includes(execution.phase)
			) {
				// A waiting execution is in the database, not in a process: it waits on. As n8n starts again, its event
				// log marks a node that had started as started (a crashed run) in the execution's saved data.
				if (execution.phase !== 'waiting') {
					execution.phase = 'crashed';
					if (execution.saved && execution.nodeStarted) execution.saved.nodeStarted = true;
				}
			}
		const dropped = this.pending.filter(
			(pending) => this.execution(pending.execution).process === process,
		);
		this.pending = this.pending.filter((pending) => !dropped.includes(pending));
		for (const pending of dropped) pending.reject(new Error('process killed'));
		// n8n takes a while to start again.
		this.now += 1000;
		this.lives[process] = ++this.lifeCount;
		this.protocols[process] = loadProtocol();
		this.seen[process] = [];
		for (const execution of this.executions)
			if (execution.process === process && execution.phase === 'waiting')
				execution.life = this.lives[process];
		await settle();
	}

	/** Later runs of the node in other executions fill its row (or the workflow's) past its bound. */
	private pushOut(scope: 'node' | 'workflow') {
		const { key, row } = this.row(scope);
		const later = Array.from(
			{ length: this.config.bound },
			(_, index) => `later:${++this.pushes}:${index}`,
		);
		this.rows.set(key, [...row, ...later].slice(-this.config.bound));
	}

	private checkRefusal(execution: Execution) {
		this.checkLiveness(execution);
		if (execution.retryOf !== 0 || this.config.onlyTwice) return;
		const refused = execution.refused ?? '';
		// An execution resumed after a restart, once later runs pushed its lineage's record out of the store: allowed.
		if (/whether a retry of this execution sent it cannot be told/.test(refused)) {
			if (!this.steps.some((step) => step.do === 'pushOut'))
				this.violations.push(
					`execution ${execution.id} (not a retry) refused with no push-out: ${refused}`,
				);
			return;
		}
		if (!/a retry of this execution took this step over/.test(refused)) {
			this.violations.push(`execution ${execution.id} (not a retry) refused: ${refused}`);
			return;
		}
		// A retry may still be settling its claim (queue mode): the refusal is checked once none is.
		this.toConfirm.push(execution);
		this.confirmRefusals();
	}

	/**
	 * Executions refused "a retry of this execution took this step over": true once a retry of it recorded its claim in
	 * the store (it sends, or n8n died as it did), false once none can.
	 */
	private toConfirm: Execution[] = [];

	private confirmRefusals() {
		this.toConfirm = this.toConfirm.filter((execution) => {
			const retries = this.executions.filter(
				(other) => other.root === execution.root && other.retryOf !== 0,
			);
			if (retries.some((other) => other.verdict === 'send' || other.recordedClaim)) return false;
			if (retries.some((other) => other.phase === 'claiming')) return true;
			this.violations.push(
				`execution ${execution.id} refused "${execution.refused}" but no retry of it sends`,
			);
			return false;
		});
	}

	/**
	 * A refusing retry in regular mode that is alone (no other try of its chain runs, waits or may come back), with no
	 * push-out in the history, while an item of its chain was never accepted nor may have been: it should have sent.
	 */
	private checkLiveness(execution: Execution) {
		if (this.config.processes !== 1 || execution.retryOf === 0 || execution.redo) return;
		if (this.steps.some((step) => step.do === 'pushOut')) return;
		const others = this.executions.filter(
			(other) =>
				other !== execution &&
				other.root === execution.root &&
				['waiting', 'claiming', 'sending', 'ending'].includes(other.phase),
		);
		if (others.length > 0) return;
		const truth = this.truth.get(execution.root);
		// An item whose request's intent is in the store may have left (its journal: it was about to when n8n died).
		const lineage = (execution.context.runHistory as { lineage?: string } | undefined)?.lineage;
		const row = this.rows.get(`node:${NODE.id}`) ?? [];
		const inFlight = (item: number) =>
			lineage !== undefined &&
			row.some((entry) => entry.startsWith(`p:${lineage}:`) && entry.endsWith(`:${item}`));
		const free = Array.from({ length: this.config.items }, (_, item) => item).filter(
			(item) => truth?.get(item) === undefined && !inFlight(item),
		);
		if (free.length > 0)
			this.stuck.push(
				`execution ${execution.id}, a lone retry, refused (${execution.refused}) though item${free.length === 1 ? '' : 's'} ${free.join(', ')} of its execution ${free.length === 1 ? 'was' : 'were'} never sent`,
			);
	}

	/** The state, with one-time names numbered by first appearance: histories that reach it go on alike. */
	state(): string {
		const names = new Map<string, string>();
		const canonical = (text: string) =>
			text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (uuid) => {
				if (!names.has(uuid)) names.set(uuid, `u${names.size}`);
				return names.get(uuid)!;
			});
		return canonical(
			JSON.stringify({
				now: this.now - START,
				rows: [...this.rows.entries()].sort(),
				accepted: [...this.accepted.entries()].sort(),
				executions: this.executions.map((execution) => [
					execution.retryOf,
					execution.root,
					execution.process,
					execution.lineageStart - START,
					execution.redo,
					execution.phase,
					execution.context,
					execution.saved?.context,
					execution.toSend,
					execution.verdict,
					execution.announcing,
					execution.refused,
					execution.calls,
				]),
				pending: this.pending.map((pending) => [pending.execution, pending.call, pending.read]),
				seen: this.seen,
				violations: this.violations.length > 0,
				stuck: this.stuck.length,
				steps: this.environmentSteps(),
			}),
		);
	}
}

/** An action in words; `executions` is how many there were before it. */
function words(action: Action, executions: number): string {
	switch (action.do) {
		case 'start':
			return `execution ${executions + 1} starts in process ${action.process + 1}${action.wait ? ' and waits before the node' : ''}`;
		case 'retry':
			return `execution ${executions + 1}: Retry of ${action.of} in process ${action.process + 1}${action.redo ? ' with Redo After a Crash' : ''}`;
		case 'resume':
			return `execution ${action.of} resumes in process ${action.process + 1}`;
		case 'kill':
			return `process ${action.process + 1} killed (kill -9), started again`;
		case 'pushOut':
			return action.marks
				? "later entries push the workflow's row out"
				: "later runs push the node's row out";
		case 'clock':
			return 'ten minutes pass';
		case 'store':
			return `  execution ${action.execution}: a store call`;
		case 'request':
			return `  execution ${action.execution}: a request${action.fault === 'none' ? ', accepted' : ` (${action.fault})`}`;
	}
}

/** The node that starts the workflow's executions: a webhook. */
const TRIGGER = { name: 'Trigger', type: 'n8n-nodes-base.webhook' };

/** The execution's status as n8n gives it (in-process n8n: statusOf), for a phase of it. */
function statusOf(phase: Phase): Status {
	if (phase === 'succeeded') return 'success';
	if (phase === 'failed') return 'error';
	if (phase === 'crashed' || phase === 'waiting') return phase;
	return 'running';
}

const NODE: INode = {
	id: 'node-1',
	name: 'Mail Delivery',
	type: 'n8n-nodes-mail-delivery.mailDelivery',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Lets the code under test run until it waits for the store again (or ends). */
async function settle() {
	await new Promise((resolve) => setImmediate(resolve));
}
