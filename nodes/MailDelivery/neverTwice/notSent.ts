/**
 * Why a try of the node does not send, in the user's words: one cause per kind, said in a sentence or two, with only
 * the remedies that apply to it (verdicts.ts decides which kind applies). Each refused item also carries its
 * `reason` (the kind), the UniqueMsgID its request had in the earlier try and its recipients as fields, so that a
 * workflow can act on them; under Stop Workflow the error lists them in its context.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Why a run does not send. */
type Refusal =
	/** A retry took the run of this execution (the execution itself is refused). */
	| 'retryWentFirst'
	/** Another retry of the same execution sends the run (Retry pressed twice). */
	| 'retrySends'
	/** Another retry with Redo After a Crash redid the run, or is redoing it (a run is redone once). */
	| 'redone'
	/** The execution this one retries is sending the run itself right now. */
	| 'executionSends'
	/** A try of the same execution ran the node after the data this retry goes on from was saved. */
	| 'ranSince'
	/** n8n stopped (a crash, a restart) while an earlier try of the execution was sending. */
	| 'stoppedWhileSending'
	/** Nothing in n8n shows whether an earlier try sent the run (regular mode, the record cannot be read). */
	| 'cannotTell'
	/** The earlier try's record of the run belongs to another operation or input (the workflow changed). */
	| 'workflowChanged'
	/** Queue mode: nothing this worker knows shows that no other try sends the run. */
	| 'otherWorker'
	/** n8n 1.x, or a trigger renamed: the retry cannot name the execution's runs. */
	| 'noRecord'
	/** The execution itself waited across a restart, longer than n8n's store remembers the node's claims. */
	| 'waitedTooLong'
	/** n8n's store did not answer (its database failed). */
	| 'storeFailed'
	/** An earlier try sent the item's request and kept no answer (the run's journal: journal.ts). */
	| 'inFlight';

/** What an earlier refusal of the run was, kept in the run's history so that a retry of a refused retry says it. */
export interface RefusalCause {
	kind: Refusal;
	/** The execution that sends, or ran, the run (when known). */
	execution?: string;
}

const REDO_AFTER_A_CRASH =
	'To send them anyway, retry with Options → Redo After a Crash on: it sends every item that record does not show as sent, also to recipients who may have the mail already.';

const EVENTS =
	'To find who got the mail: the platform pushes a Delivered, Bounced or Dropped event for each mail it accepted, with the request\'s UniqueMsgID and the address (each refused item names them). An event proves a mail went out; no event proves nothing, since events pushed while n8n was down never arrive (docs/reliability.md, "Who got the mail").';

function words({ kind, execution }: RefusalCause): { message: string; description: string } {
	const that = execution === undefined ? 'that execution' : `execution ${execution}`;
	switch (kind) {
		case 'retryWentFirst':
			return {
				message: 'Not sent: a retry of this execution took this step over',
				description: `Retry was pressed on this execution while it still ran or waited, and ${execution === undefined ? 'that retry' : `the retry (execution ${execution})`} took this step over before the execution reached it: it sends these items. So that nothing goes out twice, this execution sent nothing from this node.`,
			};
		case 'redone':
			return {
				message: 'Not sent: another retry of the same execution redid this step',
				description: `Redo After a Crash sends a step's items again once per run of it, and ${execution === undefined ? 'another retry of this execution' : `execution ${execution}`} did (or is doing it now), so this retry sent nothing. See that execution for what it sent.`,
			};
		case 'retrySends':
			return {
				message: 'Not sent: another retry of the same execution sends it',
				description: `Retry was pressed more than once on the same execution: ${that} sends these items, so this retry sent nothing.`,
			};
		case 'executionSends':
			return {
				message: 'Not sent: the execution this one retries is sending it',
				description: `Retry was pressed while the execution still ran, and ${that} reached this node first and sends these items. See that execution for what it sent.`,
			};
		case 'ranSince':
			return {
				message: 'Not sent: a later try of this execution ran this step already',
				description: `${that === 'that execution' ? 'A try of the same execution' : `A try of the same execution (${that})`} ran this node after the data this retry starts from was saved, so this retry sent nothing from it. See ${that} for what it sent, and retry it if it failed.`,
			};
		case 'stoppedWhileSending':
			return {
				message: 'Not sent: n8n stopped while an earlier try was sending it',
				description: `n8n crashed or restarted while this node was sending in an earlier try of this execution, after the last record of what it sent was saved: the platform may have accepted these items. ${EVENTS} ${REDO_AFTER_A_CRASH}`,
			};
		case 'cannotTell':
			return {
				message: 'Not sent: whether an earlier try sent it cannot be told',
				description: `n8n restarted since this execution began, and n8n's store keeps no record of this node from before it began (the node is new, was pasted again since, or its record was pushed out by later runs), so what an earlier try of it may have sent cannot be told. ${EVENTS} ${REDO_AFTER_A_CRASH}`,
			};
		case 'workflowChanged':
			return {
				message: 'Not sent: the record of what an earlier try sent does not fit this node any more',
				description: `The earlier try's record of this step belongs to another operation or another number of items (the workflow was changed before this retry), so which of these items it sent cannot be told. ${EVENTS} ${REDO_AFTER_A_CRASH}`,
			};
		case 'otherWorker':
			return {
				message: 'Not sent: the execution this one retries may have sent it already',
				description: `n8n runs in queue mode, and this retry cannot show that no other try of the execution sends it: the execution did not fail in this node on this worker since the worker started (it failed elsewhere, on another worker, or is still running or waiting), and n8n's store cannot show it across workers. ${EVENTS} ${REDO_AFTER_A_CRASH}`,
			};
		case 'waitedTooLong':
			return {
				message: 'Not sent: whether a retry of this execution sent it cannot be told',
				description: `This execution waited while n8n restarted, and n8n's store no longer holds this node's record from when the execution began (later runs pushed it out), so whether a retry of this execution took over this step meanwhile cannot be told. See this execution's retries in the executions list. ${REDO_AFTER_A_CRASH}`,
			};
		case 'storeFailed':
			return {
				message: "Not sent: n8n's store did not answer",
				description:
					"The node records each run in n8n's database before its first request, so that no retry sends it twice, and the database did not answer. Nothing was sent: run the workflow again once n8n's database answers.",
			};
		case 'inFlight':
			return inFlightWords({ itemIndex: 0 });
		case 'noRecord':
			return {
				message: 'Not sent: the execution this one retries may have sent it already',
				description: `That execution's saved data shows nothing of this node, and this retry cannot name its runs as the execution would (n8n 1.x, or the trigger was renamed or deleted since), so whether it sent this item cannot be told. ${REDO_AFTER_A_CRASH}`,
			};
	}
}

/** A refused item: where its earlier request's events would say it was sent. */
export interface RefusedItem {
	itemIndex: number;
	/** The UniqueMsgID its request carried (and carries in every try). */
	uniqueMsgID?: string;
	/** Its recipients (the contact's address, for Import). */
	email?: string[];
}

/** The fields a refused item carries (in the error output's details, or the error's context). */
const refusedFields = (cause: RefusalCause, item: RefusedItem): IDataObject => ({
	reason: cause.kind,
	...(item.uniqueMsgID === undefined ? {} : { uniqueMsgID: item.uniqueMsgID }),
	...(item.email === undefined ? {} : { email: item.email }),
	...(cause.execution === undefined ? {} : { execution: cause.execution }),
});

/**
 * An item whose request an earlier try sent with no answer kept (in flight when n8n stopped, or failed after it may
 * have reached the platform): it is not sent again. Its words and fields.
 */
export function inFlightWords(item: RefusedItem) {
	return {
		message: 'Not sent again: an earlier try may have sent it',
		description: `An earlier try of this execution sent this item's request and no answer of the platform was kept (n8n stopped while it was under way, or it failed after it may have reached the platform), so it was not sent again. ${EVENTS} ${REDO_AFTER_A_CRASH}`,
		fields: refusedFields({ kind: 'inFlight' }, item),
	};
}

/** Under Stop Workflow: the refused items listed in the error's context, at most this many. */
const LISTED = 10_000;

/**
 * The error of a refused item. `all`: every item refused in the run, listed in the error's context (Stop Workflow:
 * one error for the run).
 */
export function notSentError(
	node: INode,
	cause: RefusalCause,
	item: RefusedItem,
	all?: RefusedItem[],
): NodeOperationError {
	const { message, description } = words(cause);
	const error = new NodeOperationError(node, message, {
		itemIndex: item.itemIndex,
		description:
			all && all.length > 1 ? `${description} ${all.length} items were not sent.` : description,
	});
	Object.assign(error.context, refusedFields(cause, item));
	if (all)
		error.context.notSent = all
			.slice(0, LISTED)
			.map((one) => ({ item: one.itemIndex, ...refusedFields(cause, one) }));
	return error;
}
