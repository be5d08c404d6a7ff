/**
 * What this n8n process saw of the node's runs since it loaded the node: which try claimed which run of an
 * execution's lineage, whether it sends, and whether its run is over. Kept in memory, so it is exact and every change
 * is atomic (JavaScript runs one thing at a time), and it is lost when the process ends: another process, or this one
 * after a restart, has a record of its own.
 *
 * In n8n's regular mode one process runs every execution, retries included, so for a lineage that began after this
 * process loaded the node the record holds every claim of it (verdicts.ts). A claim is found by the node's ID or by its
 * name: n8n keeps a node's saved data by name and its store row by ID, and a node pasted again keeps its name.
 */

/** A run of the node in an execution's lineage, as this process saw it claimed. */
export interface RunSeenHere {
	nodeId: string;
	nodeName: string;
	/** The execution of the try that claimed it. */
	executionId: string;
	/** The try is a retry (n8n's Retry), not the execution itself. */
	byRetry: boolean;
	/** The try is a retry with Redo After a Crash, which a run allows once. */
	redo: boolean;
	/** That try sends (or sent) the run's items; false: it refused. */
	sends: boolean;
	/** Its run is over (every request answered, or it threw, or the execution was stopped). */
	over: boolean;
	/** Its run ended its execution: the node threw, or the execution was stopped. */
	endsExecution: boolean;
	/** When it was claimed. */
	at: number;
}

/**
 * Runs kept at most: the oldest are forgotten first, and the record is exact only for lineages that began after the
 * newest one forgotten (exactSince). A run is a few dozen bytes: a busy n8n keeps the last day or more in a few MiB.
 */
const MAX_RUNS_SEEN = 100_000;

const runsSeen = new Map<string, RunSeenHere[]>();
let kept = 0;

/**
 * When this process loaded the node: what happened before, it did not see (n8n loads the package as it starts, and
 * again when it is updated; a later load only makes the record shorter, which is the safe side).
 */
export const SEEN_SINCE = Date.now();

/** The newest claim forgotten (pushed out of the record): the record is exact only for lineages after it. */
let forgottenUntil = 0;

const keyOf = (workflow: string, lineage: string, run: number) => `${workflow}|${lineage}|${run}`;

/** When this process first saw a run of each node claimed, by workflow and node ID. */
const firstClaims = new Map<string, number>();

/** When this process first saw a run of the node (by its ID) claimed; undefined if never. */
export const firstClaimHere = (workflow: string, nodeId: string) =>
	firstClaims.get(`${workflow}|${nodeId}`);

/** The node IDs this process saw claim runs under each node name of a workflow. */
const idsOfNames = new Map<string, Set<string>>();

/** Whether this process saw a node of this name claim runs under another ID (it was pasted again). */
export const otherIdHere = (workflow: string, node: { id: string; name: string }) =>
	[...(idsOfNames.get(`${workflow}|${node.name}`) ?? [])].some((id) => id !== node.id);

/** The time after which the record holds every claim made in this process. */
export const exactSince = () => Math.max(SEEN_SINCE, forgottenUntil);

/** Who claimed this run of the lineage for this node (by ID or name): a try that sends first, if any. */
export function seenHere(
	workflow: string,
	lineage: string,
	run: number,
	node: { id: string; name: string },
): RunSeenHere | undefined {
	const claims = runsSeen.get(keyOf(workflow, lineage, run));
	const mine = claims?.filter((seen) => seen.nodeId === node.id || seen.nodeName === node.name);
	return mine?.find((seen) => seen.sends) ?? mine?.[0];
}

/** The claim of this run of the lineage for this node by a retry with Redo After a Crash that this process saw. */
export function redoneHere(
	workflow: string,
	lineage: string,
	run: number,
	node: { id: string; name: string },
): RunSeenHere | undefined {
	return (runsSeen.get(keyOf(workflow, lineage, run)) ?? []).find(
		(seen) => seen.redo && seen.sends && (seen.nodeId === node.id || seen.nodeName === node.name),
	);
}

/** Records the claim of a run; the caller has checked that no try that sends holds it. */
export function claimHere(workflow: string, lineage: string, run: number, claim: RunSeenHere) {
	if (!firstClaims.has(`${workflow}|${claim.nodeId}`))
		firstClaims.set(`${workflow}|${claim.nodeId}`, claim.at);
	const ids = idsOfNames.get(`${workflow}|${claim.nodeName}`) ?? new Set<string>();
	idsOfNames.set(`${workflow}|${claim.nodeName}`, ids.add(claim.nodeId));
	const key = keyOf(workflow, lineage, run);
	const claims = runsSeen.get(key);
	if (claims) claims.push(claim);
	else runsSeen.set(key, [claim]);
	if (++kept <= MAX_RUNS_SEEN) return;
	const [oldestKey, oldest] = runsSeen.entries().next().value!;
	runsSeen.delete(oldestKey);
	kept -= oldest.length;
	forgottenUntil = Math.max(forgottenUntil, ...oldest.map((seen) => seen.at));
}
