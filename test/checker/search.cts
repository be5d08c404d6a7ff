/**
 * The exhaustive checker: every history of the model (model.cts) up to `depth` steps of the environment (starts,
 * retries, resumes, kills, push-outs, the clock), with every order of the store's reads and writes and of the
 * requests in between, played on the node's real claim and retry code. A state already reached with as many steps
 * left is not explored again (as TLC remembers visited states): histories that reach the same store, executions
 * and process memory go on alike. Each history is played again from its start (the code under test is live async
 * code, which cannot be copied), so the cost is the number of states times the depth.
 */
import { type Action, type Config, World } from './model.cts';

export interface Found {
	history: Action[];
	violations: string[];
}

export interface Coverage {
	/** Distinct states reached. */
	states: number;
	/** Transitions played (each a step of some history). */
	transitions: number;
	/** Histories that ended (no step left to take). */
	complete: number;
	ms: number;
	found?: Found;
	/** States reached by a step where a lone retry refused what nobody may have sent (World.stuck): liveness. */
	stuck: number;
	/** The first (shortest) such history. */
	firstStuck?: Found;
}

const realNow = Date.now;

/** Plays `history` from the start on a new world; the code under test reads the world's clock. */
async function replay(config: Config, history: Action[]) {
	const world = new World(config);
	Date.now = () => world.now;
	await world.prelude();
	for (const action of history) await world.apply(action);
	return world;
}

/**
 * Explores depth by depth (so that the first history found is among the shortest), stopping at the first that
 * breaks the promise unless `all`.
 */
export async function check(
	config: Config,
	{ progress }: { progress?: (coverage: Coverage) => void } = {},
): Promise<Coverage> {
	const started = realNow();
	const coverage: Coverage = { states: 0, transitions: 0, complete: 0, ms: 0, stuck: 0 };
	try {
		for (let depth = 1; depth <= config.depth; depth++) {
			const found = await explore({ ...config, depth }, coverage, progress);
			if (found) return { ...coverage, found, ms: realNow() - started };
		}
		return { ...coverage, ms: realNow() - started };
	} finally {
		Date.now = realNow;
	}
}

async function explore(
	config: Config,
	coverage: Coverage,
	progress?: (coverage: Coverage) => void,
): Promise<Found | undefined> {
	const visited = new Set<string>();
	const root = await replay(config, []);
	visited.add(root.state());
	coverage.states = Math.max(coverage.states, 0);
	const stack: Array<{ history: Action[]; world?: World }> = [{ history: [], world: root }];
	while (stack.length > 0) {
		const { history, world: given } = stack.pop()!;
		const world = given ?? (await replay(config, history));
		const actions = world.actions();
		const stuckBefore = world.stuck.length;
		if (actions.length === 0) coverage.complete++;
		for (let index = 0; index < actions.length; index++) {
			// The first action goes on with this world; the others are played again from the start.
			const next = index === 0 ? world : await replay(config, history);
			Date.now = () => next.now;
			await next.apply(actions[index]);
			coverage.transitions++;
			if (next.violations.length > 0)
				return { history: [...history, actions[index]], violations: next.violations };
			const state = next.state();
			if (visited.has(state)) continue;
			visited.add(state);
			coverage.states++;
			if (next.stuck.length > stuckBefore) {
				coverage.stuck++;
				coverage.firstStuck ??= { history: [...history, actions[index]], violations: next.stuck };
			}
			if (coverage.states % 2000 === 0) progress?.(coverage);
			stack.push({ history: [...history, actions[index]], world: index === 0 ? next : undefined });
		}
	}
	return undefined;
}

/** A history as lines a person reads: what each step did. */
export async function describe(config: Config, history: Action[]): Promise<string> {
	try {
		return (await replay(config, history)).log.join('\n');
	} finally {
		Date.now = realNow;
	}
}
