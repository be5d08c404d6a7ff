/**
 * The scopes the checker covers: small worlds where every history up to a depth is played. One process (n8n's
 * regular mode: its main process) with kills and restarts; two workers sharing the store (queue mode), whose writes
 * can lose each other's.
 */
import type { Config } from './model.cts';

export interface Scope {
	name: string;
	title: string;
	config: Config;
	/**
	 * Whether a lone retry sends there (liveness: docs/reliability.md's table): not for a node that never ran before
	 * its execution began, after a restart (the store cannot tell it from one pasted again since).
	 */
	liveness: boolean;
	/** The depth `npm test` covers (a quick part); the scope's own depth is the full run's. */
	quickDepth: number;
}

const base: Config = {
	processes: 1,
	items: 1,
	bound: 64,
	saveProgress: true,
	faults: false,
	redo: false,
	maxExecutions: 4,
	depth: 6,
	ranBefore: true,
};

export const SCOPES: Scope[] = [
	{
		name: 'one-process',
		title: "n8n's one process (regular mode): waits, retries, kills, push-outs",
		config: { ...base, maxExecutions: 3, depth: 7 },
		quickDepth: 4,
		liveness: true,
	},
	{
		name: 'one-process-new-node',
		title:
			"n8n's one process, a node that never ran before the history: kills before it first claims",
		config: { ...base, ranBefore: false, maxExecutions: 3, depth: 6 },
		quickDepth: 3,
		liveness: false,
	},
	{
		name: 'one-process-faults',
		title: "n8n's one process, two items, platform faults, Redo After a Crash",
		config: { ...base, items: 2, faults: true, redo: true, maxExecutions: 3, depth: 4 },
		quickDepth: 2,
		liveness: true,
	},
	{
		name: 'queue-mode',
		title: 'two workers sharing the store (queue mode)',
		config: { ...base, processes: 2, maxExecutions: 3, depth: 5 },
		quickDepth: 3,
		liveness: false,
	},
	{
		name: 'queue-mode-faults',
		title: 'two workers, two items, platform faults, Redo After a Crash',
		config: {
			...base,
			processes: 2,
			items: 2,
			faults: true,
			redo: true,
			maxExecutions: 3,
			depth: 3,
		},
		quickDepth: 2,
		liveness: false,
	},
];
