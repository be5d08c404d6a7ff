/**
 * The scopes the checker covers: small worlds where every history up to a depth is played. One process (n8n's
 * regular mode) with kills and restarts, with and without the user's "one process" option; two processes sharing
 * the store (queue mode), whose writes can lose each other's.
 */
import type { Config } from './model.cts';

export interface Scope {
	name: string;
	title: string;
	config: Config;
	/** The depth `npm test` covers (a quick part); the scope's own depth is the full run's. */
	quickDepth: number;
}

const base: Config = {
	processes: 1,
	oneProcess: false,
	items: 1,
	bound: 4,
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
		title: 'one n8n process, the option "one process" on: waits, retries, kills, push-outs',
		config: { ...base, oneProcess: true, maxExecutions: 3, depth: 7 },
		quickDepth: 4,
	},
	{
		name: 'one-process-faults',
		title: 'one n8n process, option on, two items, platform faults, Redo After a Crash',
		config: {
			...base,
			oneProcess: true,
			items: 2,
			faults: true,
			redo: true,
			maxExecutions: 3,
			depth: 4,
		},
		quickDepth: 2,
	},
	{
		name: 'default-one-process',
		title: 'one n8n process, the option off (the default)',
		config: { ...base, maxExecutions: 3, depth: 7 },
		quickDepth: 4,
	},
	{
		name: 'queue-mode',
		title: 'two n8n processes sharing the store (queue mode), the option off',
		config: { ...base, processes: 2, maxExecutions: 3, depth: 5 },
		quickDepth: 3,
	},
	{
		name: 'queue-mode-faults',
		title: 'two n8n processes, two items, platform faults, Redo After a Crash',
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
	},
];
