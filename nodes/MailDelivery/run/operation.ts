/**
 * What an operation module exports, and what the engine gives it. A module describes itself whole: its entry
 * in the Operation list, its fields, what an AI agent is told of it, what it changes, the records it names and
 * how it runs. The resource's list (actions/<resource>/index.ts) and the node's types derive from the modules,
 * so a module missing one of these fails to compile.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
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

/** What an item run item by item gives: its output item, or several (a search). */
export type ItemOutput = IDataObject | IDataObject[];

/**
 * What an item of the simplest operations will ask: one request, to `path` with `body`, and how the platform's
 * answer becomes the item's output. An operation whose step 1 returns this needs no step 2 of its own: the
 * engine makes the request (run/eachItem.ts, sendPlan).
 */
export interface RequestPlan {
	path: string;
	body: IDataObject;
	/** The item's output from the platform's answer (`writeResult` for a write). */
	output: (answer: ApiResponse) => ItemOutput;
}

/**
 * What step 2 of an item gets: its requests, the run's request options already applied (Requests in Parallel,
 * pacing after a 429, retries of "try later", the time-out, the item's index in errors), and the item's index
 * and the node, for the errors step 2 finds in an answer.
 */
export interface ItemPlatform {
	readonly index: number;
	readonly node: INode;
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

/** Step 1 of an item: reads and checks it, and returns its plan (ItemSteps). */
type PrepareStep<Plan> = (this: IExecuteFunctions, item: ItemParameters) => Plan | Promise<Plan>;

/** Step 2 of an item: makes its plan's request (or a few) and returns its output (ItemSteps). */
type SendStep<Plan> = (
	this: IExecuteFunctions,
	plan: Plan,
	platform: ItemPlatform,
) => Promise<ItemOutput>;

/**
 * The two steps of an operation run item by item (run/eachItem.ts). Step 1, `prepare`, reads and checks the
 * item (items/parameterReader.ts reads each value as its field's kind; helpers/validation.ts holds the field
 * rules) and returns its plan: what it will ask of the platform. It makes no request: the engine calls it for
 * every item while the run reads its items, so an error it throws refuses that item before the run's first
 * request (under Stop Workflow, nothing is sent). Step 2, `send`, makes the plan's request (or a few) when the
 * item's turn comes and returns the item's output; work that is not a check and costs memory or time (an
 * attachment read) belongs there. An operation whose plan is a RequestPlan leaves step 2 to the engine.
 * `this` is n8n's context, for the few that need its helpers (an input item's binary data, a credential).
 *
 * `Plan` is the operation's own plan type: what step 1 returns is what step 2 takes. The steps are function-typed
 * properties, not methods, so that TypeScript compares step 2's parameter strictly: a module whose `send` takes
 * another type than its `prepare` returns does not compile in its resource's list (CheckedModules).
 */
type ItemSteps<Plan> =
	| { prepare: PrepareStep<RequestPlan>; send?: undefined }
	| { prepare: PrepareStep<Plan>; send: SendStep<Plan> };

/**
 * An item operation as the router holds it, beside others of other plans: once its resource's list checked it
 * (CheckedModules), its plan type is no longer known, and step 2 takes the plan step 1 returned, whatever its type.
 * Methods, so that a module of any plan fits here; only the router's list and run/eachItem.ts see this.
 */
type HeldItemSteps =
	| {
			prepare(this: IExecuteFunctions, item: ItemParameters): RequestPlan | Promise<RequestPlan>;
			send?: undefined;
	  }
	| {
			prepare(this: IExecuteFunctions, item: ItemParameters): unknown;
			send(this: IExecuteFunctions, plan: unknown, platform: ItemPlatform): Promise<ItemOutput>;
	  };

/** What every operation module says of itself: its entry in the Operation list, its fields, its tool text. */
interface OperationDescription {
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

/** An operation run item by item, with its own plan type: one request (or a few) per input item, in two steps (ItemSteps). */
export type ItemOperationModule<Plan> = OperationDescription & ItemSteps<Plan> & ItemOptions;

/** An operation run item by item as the router holds it (HeldItemSteps). */
type HeldItemOperationModule = OperationDescription & HeldItemSteps & ItemOptions;

interface ItemOptions {
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
	 * request was accepted, calls this with the item's output (step 2's), also when an earlier try of the run
	 * sent it and the engine does not send again (n8n's Retry On Fail), so the run waits either way
	 * (run/eachItem.ts).
	 */
	wait?(this: IExecuteFunctions, item: ItemParameters, sent: IDataObject): Promise<void>;
}

/**
 * Opens the run of an operation that combines items, typed with the operation's own entries and request data:
 * the router makes the Run, and settles it once the run ends. Called once, first thing (run/combined.ts).
 */
export type OpenRun = <E extends Entry, RequestData>() => Run<E, RequestData>;

/** An operation's steps bound to the one driver that takes them (run/combined.ts, combinedSteps). */
export type CombinedRun = (
	this: IExecuteFunctions,
	openRun: OpenRun,
) => Promise<INodeExecutionData[]>;

/**
 * An operation that packs entries of several items into one request (Send, Import): it states its steps for a
 * run (how an item is read, how entries pack, how a request is made and its failure explained, how outputs are
 * described), and the engine's driver takes them in order (run/combined.ts).
 */
interface CombinedOperationModule extends OperationDescription {
	combinesItems: true;
	/** What a request that may have reached the platform may have done ("mail may have gone out"). */
	effect: string;
	/** Its steps, made with combinedSteps (run/combined.ts). */
	steps: CombinedRun;
}

/** Any operation module, as the router holds it. */
export type OperationModule = HeldItemOperationModule | CombinedOperationModule;

/** The plan type a module's step 1 returns. */
type PlanOf<Module> = Module extends { prepare: (...args: never[]) => infer Plan }
	? Awaited<Plan>
	: never;

/**
 * A resource's list of modules, each checked with its own plan type: what an item operation's step 1 returns is
 * what its step 2 takes (actions/resource.ts).
 */
export type CheckedModules<Modules> = {
	[Name in keyof Modules]: Modules[Name] extends CombinedOperationModule
		? Modules[Name]
		: ItemOperationModule<PlanOf<Modules[Name]>>;
};

export const combinesItems = (module: OperationModule): module is CombinedOperationModule =>
	'combinesItems' in module;
