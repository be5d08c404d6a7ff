/** Field descriptions that several operations share. The helpers that read them are in helpers/requestValues.ts. */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ADAPTIVE_START, DEFAULT_CEILING } from '../../shared/transport/concurrencyTuning';
import {
	FOLLOW_THE_PLATFORM,
	MAX_PARALLEL_REQUESTS,
	MAX_RETRY_WAIT_SECONDS,
	MAX_TIMEOUT_SECONDS,
} from '../run/throughput';

export const replyToField: INodeProperties = {
	displayName: 'Reply To',
	name: 'replyTo',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
};

/** When a send or a campaign goes out; read by sendDateOf (helpers/requestValues.ts, shared/dates.ts). */
export const sendDateField: INodeProperties = {
	displayName: 'Send Date',
	name: 'sendDate',
	type: 'dateTime',
	default: '',
	description:
		"When to send; empty sends at once. Read in the workflow's time zone and sent in UTC; a number is seconds (or milliseconds) since 1970. Up to 10 minutes in the past sends at once; earlier is refused.",
};

/** The sandbox toggle, placed only on the operations whose table lists `sandboxMode`. */
export const sandboxModeField: INodeProperties = {
	displayName: 'Sandbox Mode',
	name: 'sandboxMode',
	type: 'boolean',
	default: false,
	description:
		'Whether the platform should only check the request and answer success, without sending mail or changing any data',
};

/**
 * Said in every field the platform reads tags in (items/taggedValues.ts keeps them): typing or pasting
 * {{name}} makes n8n turn the field into an expression, which marks the tag in red and previews it as nothing
 * under the field ([undefined] in the Result shown while the field is focused). The person must read that this
 * is expected, that the tag still reaches the platform, and where to see the mail with its tags filled.
 */
export const PLATFORM_TAGS_HINT =
	"Write the platform's tags as {{name}}. Typing {{ turns the field into an n8n expression: n8n then shows such a tag in red and leaves it out of its preview (Result: [undefined] while the field is focused), because n8n does not know the platform's tags. That is expected: the tag reaches the platform as written, and the platform fills it in; Transactional Mail → Send with Sandbox Mode on shows each mail with its tags filled. n8n's own expressions, such as {{ $json.name }}, are filled in by n8n as usual.";

/** A body written as plain text, which the node turns into safe HTML (helpers/textBody.ts). */
export const textContentField: INodeProperties = {
	displayName: 'Text Content',
	name: 'textContent',
	type: 'string',
	typeOptions: { rows: 6 },
	default: '',
	placeholder: 'Hi {{name}},\n\nYour order has shipped: https://example.com/track',
	description: `Plain text. The node turns it into HTML for you: &lt;, &gt; and &amp; show as typed (a value from the input cannot add markup), each line break is kept, a blank line starts a new paragraph, and web addresses (https://…) become links. ${PLATFORM_TAGS_HINT}`,
};

export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false], '@tool': [false] } },
	},
	{
		// As an AI tool every record goes to the model, which reads (and pays for) each one: fewer by default.
		displayName: 'Limit',
		name: 'toolLimit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 10,
		description: 'Max number of results to give the AI model',
		displayOptions: { show: { returnAll: [false], '@tool': [true] } },
	},
];

/**
 * Simplify, on by default: n8n's guideline for records of more than 10 fields. Shown in the AI tool too,
 * where it keeps HTML bodies out of the model's context.
 */
export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

/** The records as they are, or each reduced to its compact shape when Simplify is on. */
export function simplified(
	records: IDataObject[],
	simplify: unknown,
	compact: (record: IDataObject) => IDataObject,
): IDataObject[] {
	return simplify === false ? records : records.map(compact);
}

/** A resource locator over a named platform object: pick from a searchable list, or type the name. */
export function nameLocator(options: {
	displayName: string;
	name: string;
	searchMethod: string;
	placeholder: string;
	description?: string;
	required?: boolean;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: options.searchMethod, searchable: true },
			},
			{
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: options.placeholder,
			},
		],
	};
}

export const senderLocator = (
	name = 'senderMail',
	displayName = 'Sender Email',
	description = 'A verified sender of the account',
) =>
	nameLocator({
		displayName,
		name,
		searchMethod: 'searchSenders',
		placeholder: 'sender@example.com',
		description,
	});

export const templateLocator = (required = true) =>
	nameLocator({
		displayName: 'Template',
		name: 'templateName',
		searchMethod: 'searchTemplates',
		placeholder: 'welcome',
		required,
	});

export const listLocator = (displayName = 'Contact List', required = true) =>
	nameLocator({
		displayName,
		name: 'listName',
		searchMethod: 'searchLists',
		placeholder: 'newsletter',
		required,
	});

/**
 * Several contact lists, each picked from a searchable list or typed (or a list of names from an
 * expression). Searchable lists load when opened, so they work on a panel that has just been added (see
 * test/unit/editor-panel.test.cts); one empty entry is shown at first, ready to pick.
 */
export const listsField = (options: {
	displayName: string;
	name: string;
	description: string;
}): INodeProperties => ({
	displayName: options.displayName,
	name: options.name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add List',
	default: { list: [{ listName: { __rl: true, mode: 'list', value: '' } }] },
	description: options.description,
	options: [{ displayName: 'List', name: 'list', values: [listLocator('List', false)] }],
});

export const attachmentField: INodeProperties = {
	displayName: 'Attachment Field',
	name: 'attachmentBinaryProperty',
	type: 'string',
	default: '',
	placeholder: 'data',
	description:
		"The Input Data Field Name of the file to attach: the input item's binary field, often data (one file; the platform allows one attachment per mail)",
};

export const LANGUAGE_OPTIONS: INodePropertyOptions[] = [
	['Arabic', 'ar'],
	['Chinese (Simplified)', 'zh-cn'],
	['Chinese (Traditional)', 'zh-tw'],
	['English', 'en'],
	['French', 'fr'],
	['German', 'de'],
	['Indonesian', 'id'],
	['Japanese', 'ja'],
	['Korean', 'ko'],
	['Portuguese (Brazil)', 'pt-br'],
	['Spanish', 'es'],
	['Tatar', 'tt'],
	['Thai', 'th'],
	['Vietnamese', 'vi'],
].map(([name, value]) => ({ name, value }));

export const EDITOR_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Classic', value: 'CLASSIC' },
	{ name: 'Drag and Drop', value: 'DRAG' },
];

const TASK_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'A/B Test', value: 'ABTest' },
	{ name: 'Ordinary (Mail List)', value: 'MailList' },
];

/** A campaign filter by its kind (the API's task type). */
export const taskTypeFilter: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	options: TASK_TYPE_OPTIONS,
	default: 'MailList',
};

/** Start and end day of a report, days included, sent as YYYY-MM-DD; by default the last 7 (today included) in the workflow's time zone. */
export const dayRangeFields: INodeProperties[] = [
	{
		displayName: 'Start Day',
		name: 'startDate',
		type: 'string',
		required: true,
		default: '={{ $today.minus({ days: 6 }).toFormat("yyyy-MM-dd") }}',
		placeholder: 'YYYY-MM-DD',
		description:
			'First day of the report (included), as YYYY-MM-DD. By default 6 days before today.',
	},
	{
		displayName: 'End Day',
		name: 'endDate',
		type: 'string',
		required: true,
		default: '={{ $today.toFormat("yyyy-MM-dd") }}',
		placeholder: 'YYYY-MM-DD',
		description: 'Last day of the report (included), as YYYY-MM-DD. By default today.',
	},
];

/** What following the platform does, in Requests in Parallel's description. */
const FOLLOWING = `the node finds how many requests to send at once from the platform's answers: it starts with ${ADAPTIVE_START} (or, within the hour, where the run before to the same platform and account ended), sends more at once while answers come back as fast as the first ones and none is refused, and fewer on "too many requests" (429), "unavailable" (503), no answer in time or slower answers, up to ${DEFAULT_CEILING}; the output panel says what it chose`;

/**
 * How a run sends its requests (run/throughput.ts reads them): how many at once, how "try later" is waited
 * out, how long an answer may take. In the Options of every operation. Requests in Parallel is one number: 0
 * follows the platform (transport/concurrency.ts), 1 to 128 fixes it. Its default is 0, so that adding the
 * option to look at it changes nothing, unless the operation gives its own (`parallel`: campaigns are created
 * one after another).
 */
export const throughputOptions = (parallel?: number): INodeProperties[] => [
	parallel === undefined
		? {
				displayName: 'Requests in Parallel',
				name: 'parallelRequests',
				type: 'number',
				typeOptions: { minValue: FOLLOW_THE_PLATFORM, maxValue: MAX_PARALLEL_REQUESTS },
				default: 0, // FOLLOW_THE_PLATFORM; n8n's lint wants a literal
				hint: `0, the default: follows the platform (${ADAPTIVE_START} at once at first, up to ${DEFAULT_CEILING})`,
				description: `How many requests to send at once. 0 (the default) follows the platform: ${FOLLOWING}. 1 to ${MAX_PARALLEL_REQUESTS} sends exactly that many at once. Output order and pairing stay the same; after a "too many requests" answer the run is paced to the rate the platform accepts.`,
			}
		: {
				displayName: 'Requests in Parallel',
				name: 'parallelRequests',
				type: 'number',
				typeOptions: { minValue: FOLLOW_THE_PLATFORM, maxValue: MAX_PARALLEL_REQUESTS },
				default: parallel,
				hint: `0: follows the platform (${ADAPTIVE_START} at once at first, up to ${DEFAULT_CEILING})`,
				description: `How many requests to send at once: ${parallel} by default; 1 to ${MAX_PARALLEL_REQUESTS} sends exactly that many at once, and 0 follows the platform: ${FOLLOWING}. Output order and pairing stay the same; after a "too many requests" answer the run is paced to the rate the platform accepts.`,
			},
	{
		displayName: 'Retry Attempts',
		name: 'retryAttempts',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 20 },
		default: 6, // DEFAULT_RETRY.maxAttempts; n8n's lint wants a literal, a test keeps the two equal
		description:
			'How many times in all to try a request the platform answers "too many requests" (429) or "unavailable, retry after…" (503): answers that mean nothing was done. Other failures are never retried, so nothing is sent twice.',
	},
	{
		displayName: 'Max Wait (Seconds)',
		name: 'retryMaxWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_RETRY_WAIT_SECONDS },
		default: 60, // DEFAULT_RETRY.maxWaitMs in seconds; a test keeps the two equal
		description:
			'The longest the node waits in all for one request while retrying it, following the wait the platform asks for (Retry-After)',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_SECONDS },
		default: 60, // DEFAULT_TIMEOUT_MS in seconds; a test keeps the two equal
		description:
			'How long each request waits for the platform to answer. A request not answered in time fails; the platform may still process it, so it is never sent again.',
	},
];

/**
 * The Options of an operation run item by item: its own options, then how its requests are sent. Items that
 * act on the same record (run/operation.ts, recordOf) run one after another whatever the parallelism.
 */
export const itemOptions = (own: INodeProperties[] = [], parallel?: number): INodeProperties =>
	optionsCollection([...own, ...throughputOptions(parallel)]);

/** Options: how the node itself behaves (nothing here goes to the platform as such). */
export const optionsCollection = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options,
});

/** Additional Fields: what else the request may carry to the platform. */
export const additionalFieldsCollection = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	options,
});

/**
 * In the Options of every operation that changes something, Send and Import included (neverTwice/retries.ts).
 * Named by when it matters and what it does: the stored name stays repeatOnRetry.
 */
const repeatOnRetryOption: INodeProperties = {
	displayName: 'Redo After a Crash',
	name: 'repeatOnRetry',
	type: 'boolean',
	default: false,
	description:
		'Whether a retry sends (or changes) again what an earlier try may have done: a request under way when n8n crashed or restarted, or what a retry cannot tell apart (in queue mode, on another worker). Every item the record of that execution does not show as done goes out again, also to recipients who may have it already; once per run of the node, however many retries follow. Off: those items fail with an error saying why, and nothing is sent twice. A crashed execution can be retried only with Workflow Settings → Save Execution Progress on.',
};

/** What a retry of the execution may send (neverTwice/retries.ts): on every operation that changes something. */
export const retryOptions: INodeProperties[] = [repeatOnRetryOption];

/** The Filters of a Get Many: what the platform's search narrows by. */
export const filtersCollection = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options,
});
