/**
 * What an operation module exports, and what the engine gives it. A module describes itself whole: its entry
 * in the Operation list, its fields, what an AI agent is told of it, what it changes, the records it names and
 * how it runs. The resource's list (actions/<resource>/index.ts) and the node's types derive from the modules,
 * so a module missing one of these fails to compile.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ApiResponse, PagingOptions } from '../../shared/transport';
import type { ItemParameters } from '../items/parameterReader';
import type { Entry, Run } from './engine';

/** Its entry in the Operation list (the value is its key in the resource's list). */
export interface OperationOption {
	name: string;
	description: string;
	/** The node creator's text for it ("Send transactional mail"). */
	action: string;
}

/** A platform record an operation's request names, to explain a refusal in the user's words (run/refusals.ts). */
export interface NamedRecord {
	kind: 'template' | 'list' | 'campaign' | 'sender';
	/** `new`: the request creates it, so the name must be free; `existing`: the request acts on it. */
	must: 'new' | 'existing';
	/** The names the item's request carries, read as the operation reads them. */
	names: (parameters: ItemParameters) => string[];
}

/**
 * One item of an operation run item by item: its parameters, and requests with the run's throughput. Its
 * `execute` reads and checks first, then requests: the engine runs every item's `execute` up to its first
 * request (or `sending()`) before any item's request is made (run/eachItem.ts), so a check that does not need
 * the platform belongs before it.
 */
export interface ItemRun extends ItemParameters {
	/**
	 * Waits until the engine runs this item's requests: work that is not a check and costs memory or time (an
	 * attachment read) goes after it. `request` and `pages` wait the same way.
	 */
	sending(): Promise<void>;
	/** One request, paced with the run's other requests, with its retries of "try later" and its time-out. */
	request(path: string, body?: IDataObject): Promise<ApiResponse>;
	/** A paged search, each page a request as above. */
	pages(
		path: string,
		body: IDataObject,
		listKey: string,
		paging: Omit<PagingOptions, 'itemIndex' | 'request'>,
	): Promise<IDataObject[]>;
}

interface Described {
	option: OperationOption;
	/** Its fields, without display options (the resource adds them). */
	properties: INodeProperties[];
	/** What an AI model is told when the node is a tool: what happens, what it accepts, what comes back. */
	toolDescription: string;
	/**
	 * By field name, a way to give it that n8n's expression engine does not evaluate item by item, told in the
	 * output panel when a run evaluated its expression for many items (actions/router.ts).
	 */
	fasterWays?: Record<string, string>;
}

/** An operation run item by item: one request (or a few) per input item (run/eachItem.ts). */
export interface ItemOperationModule extends Described {
	/** Reads the item and makes its request; `this` is n8n's context, for the few that need its helpers. */
	execute(this: IExecuteFunctions, item: ItemRun): Promise<IDataObject | IDataObject[]>;
	/**
	 * What a request would have done, when it changes something ("the list may have been created"): the engine
	 * then keeps what each item's request did, so n8n's retries never make it again, and says in errors
	 * whether it may have taken effect.
	 */
	effect?: string;
	/** The records its request names: after a refusal, one look-up each says which is missing or taken. */
	named?: NamedRecord[];
	/**
	 * The record an item acts on (a contact's address): items acting on the same record run in input order,
	 * whatever Requests in Parallel says, so the last item's change is the one that stays.
	 */
	recordOf?: (item: ItemParameters) => string;
	/**
	 * The wait of an operation that asks a person (Send and Wait for Response): the engine runs item 0 only (one
	 * request per execution, as n8n's own send-and-wait nodes send one message; actions/router.ts), and once its
	 * request was accepted, calls this with what `execute` gave, also when an earlier try of the run sent it and
	 * the engine does not send again (n8n's Retry On Fail), so the run waits either way (run/eachItem.ts).
	 */
	wait?(this: IExecuteFunctions, item: ItemParameters, sent: IDataObject): Promise<void>;
}

/**
 * Opens the run of an operation that combines items, typed with the operation's own entries and request data
 * (`openRun<Message, IDataObject>()`): the router makes the Run, and settles it once `execute` ends. Called once,
 * first thing.
 */
export type OpenRun = <E extends Entry, RequestData>() => Run<E, RequestData>;

/**
 * An operation that packs entries of several items into one request (Send, Import): its `execute` opens its run,
 * reads the items, packs and sends them, and returns the outputs, each step through the engine's Run
 * (run/engine.ts).
 */
interface CombinedOperationModule extends Described {
	combinesItems: true;
	/** What a request that may have reached the platform may have done ("mail may have gone out"). */
	effect: string;
	execute: (this: IExecuteFunctions, openRun: OpenRun) => Promise<INodeExecutionData[]>;
}

export type OperationModule = ItemOperationModule | CombinedOperationModule;

export const combinesItems = (module: OperationModule): module is CombinedOperationModule =>
	'combinesItems' in module;
