/**
 * Where a try of the node runs, and the name of its execution's lineage (the execution and all its retries), which
 * the execution and any retry of it give alike before either ran the node: retries.ts claims runs in it.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/**
 * Whether this try runs in n8n's main process: n8n names each process by the command that started it (`n8n start`:
 * main; `n8n worker`, `n8n webhook`), in the settings every node's context holds. Not part of n8n's public types, so
 * read with care: anything else is taken as a worker.
 */
export function runsInMainProcess(context: IExecuteFunctions): boolean {
	try {
		const settings = (context as unknown as { instanceSettings?: { instanceType?: unknown } })
			.instanceSettings;
		return settings?.instanceType === 'main';
	} catch {
		return false;
	}
}

/**
 * The lineage the run claims in: its data's; else one its execution and any retry of it name alike before either ran
 * the node (a retry must find the runs its execution makes later): n8n's (2.x) beginning of the execution, with its
 * resume token (made for each execution and kept by its retries) or what its trigger gave it.
 */
export function lineageOf(
	context: IExecuteFunctions,
	saved: { lineage: string; since?: number } | undefined,
	retry: boolean,
): { lineage: string; since?: number } | undefined {
	if (saved) return { lineage: saved.lineage, since: saved.since ?? beganAt(saved.lineage) };
	const established = n8nLineage(context);
	const mark =
		established === undefined ? undefined : (resumeTokenMark(context) ?? triggerMark(context));
	if (established !== undefined && mark !== undefined)
		return { lineage: `n8n:${established}:${mark}`, since: established };
	// A retry that cannot name its execution's lineage as the execution did cannot find its runs.
	return retry ? undefined : { lineage: `node:${randomUUID()}`, since: Date.now() };
}

/** When a lineage named after n8n's beginning of its execution began. */
function beganAt(lineage: string) {
	const match = /^n8n:(\d+):/.exec(lineage);
	return match ? Number(match[1]) : undefined;
}

/**
 * A digest of the execution's resume token: n8n makes one for each execution (2.x) and a retry runs with the data of
 * the execution it retries, token included, so that two executions begun in the same millisecond differ.
 */
function resumeTokenMark(context: IExecuteFunctions) {
	try {
		const url = context.getWorkflowDataProxy(0).$execution?.resumeUrl as string | undefined;
		const token = url === undefined ? null : new URL(url).searchParams.get('signature');
		return token ? createHash('sha256').update(token).digest('hex').slice(0, 16) : undefined;
	} catch {
		return undefined;
	}
}

/** What the execution's trigger gave it (a retry keeps it: n8n does not run the trigger again). */
function triggerMark(context: IExecuteFunctions) {
	const trigger = context.getExecutionContext?.()?.triggerNode?.name;
	if (trigger === undefined) return undefined;
	try {
		const items = context.getWorkflowDataProxy(0).$(trigger).all() as INodeExecutionData[];
		const hash = createHash('sha256').update(trigger);
		for (const item of items) hash.update(JSON.stringify(item.json));
		return hash.digest('hex').slice(0, 16);
	} catch {
		// The trigger is not in this workflow (renamed or deleted since the execution began).
		return undefined;
	}
}

/** n8n's beginning of this execution (2.x), unless n8n made it for this very retry (it lost the one retried). */
function n8nLineage(context: IExecuteFunctions) {
	const established = context.getExecutionContext?.();
	return established?.establishedAt !== undefined && established.source !== 'retry'
		? established.establishedAt
		: undefined;
}
