import type { INode, INodeProperties } from 'n8n-workflow';

import { describeValue, textOrDigits } from '../../shared/parameterKinds';
import { inputError, itemError, ItemProblem } from '../items/itemErrors';

export { inputError };

/** Section 8 of the platform API: the one place for limits. */
export const LIMITS = {
	campaignMailName: 200,
	campaignSubject: 400,
	templateName: 250,
	transactionalSenderName: 200,
	recipientName: 100,
	recipientsPerField: 20,
	messageVersionsPerRequest: 100,
	categoryBytes: 100,
	campaignBytes: 100,
	uniqueMsgIdBytes: 50,
	eventsPerPush: 1000,
} as const;

/**
 * A rule returns a problem in plain English, or undefined when the value is fine. A reading rule also gives
 * the value the request carries instead (a whole number's digits): the check puts it in the body.
 */
type Rule = ((value: unknown) => string | undefined) & {
	read?: (value: unknown) => { value: unknown } | { problem: string };
};

const reading = (read: NonNullable<Rule['read']>): Rule =>
	Object.assign(
		(value: unknown) => {
			const outcome = read(value);
			return 'problem' in outcome ? outcome.problem : undefined;
		},
		{ read },
	);

const isMissing = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const byteLength = (text: string) => new TextEncoder().encode(text).length;

const LINE_BREAK = /[\r\n]/;

// A pragmatic address check: one @, something before it, a dotted domain after it, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const rules = {
	required: ((value) => (isMissing(value) ? 'is required' : undefined)) as Rule,
	/**
	 * A phone number or a name (of a contact, recipient, sender, list, template or campaign; a report label, a
	 * message ID, a DKIM selector): text, or a whole number taken as its digits (parameterKinds.textOrDigits).
	 */
	textOrDigits: reading(textOrDigits),
	/** A number, an object or a list where the platform takes free text (a subject, HTML, an address). */
	text: ((value) =>
		value === undefined || value === null || typeof value === 'string'
			? undefined
			: `must be text (it is ${describeValue(value)})`) as Rule,
	/** CR or LF in a value that becomes a mail header would let it add headers of its own. */
	singleLine: ((value) =>
		typeof value === 'string' && LINE_BREAK.test(value)
			? 'must be on one line (a line break in it could add mail headers)'
			: undefined) as Rule,
	maxChars:
		(max: number): Rule =>
		(value) =>
			typeof value === 'string' && [...value].length > max
				? `is ${[...value].length} characters long; the limit is ${max} characters`
				: undefined,
	maxBytes:
		(max: number): Rule =>
		(value) =>
			typeof value === 'string' && byteLength(value) > max
				? `is ${byteLength(value)} bytes long (UTF-8); the limit is ${max} bytes`
				: undefined,
	lettersAndDigits: ((value) =>
		typeof value === 'string' && value !== '' && !/^[A-Za-z0-9]+$/.test(value)
			? 'may contain only letters and digits (A-Z, a-z, 0-9)'
			: undefined) as Rule,
	maxItems:
		(max: number): Rule =>
		(value) =>
			Array.isArray(value) && value.length > max
				? `has ${value.length} entries; the limit is ${max}`
				: undefined,
	nonEmptyList: ((value) =>
		!Array.isArray(value) || value.length === 0 ? 'needs at least one entry' : undefined) as Rule,
	email: ((value) =>
		typeof value === 'string' && value !== '' && !EMAIL_PATTERN.test(value)
			? `"${value}" is not a valid email address`
			: undefined) as Rule,
	httpUrl: ((value) =>
		typeof value === 'string' && value !== '' && !/^https?:\/\/\S+$/i.test(value)
			? `"${value}" must start with http:// or https://`
			: undefined) as Rule,
	oneOf:
		(allowed: readonly string[]): Rule =>
		(value) =>
			!isMissing(value) && !allowed.includes(String(value))
				? `"${String(value)}" is not one of ${allowed.join(', ')}`
				: undefined,
};

/**
 * Field paths to rules. `[]` walks every entry of an array, so `messageVersions[].to[].name`
 * checks each recipient name of each version. A path may carry the label the panel shows for it
 * ("To"): errors then name the field as the user sees it, and the API path goes to the description.
 */
export type FieldRules = Record<string, Rule[] | { label: string; rules: Rule[] }>;

/**
 * The rules with each field named as the operation's panel labels it: a path whose first key is the name of
 * one of `properties` (or of an option of one of its collections) gets that field's display name, unless
 * the rule names its field itself. Errors then say "Campaign Name", not the request's "mailName".
 */
export function labelledBy(properties: INodeProperties[], fieldRules: FieldRules): FieldRules {
	const labels = new Map<string, string>();
	for (const property of properties) {
		labels.set(property.name, property.displayName);
		for (const option of property.type === 'collection' ? (property.options ?? []) : [])
			if ('displayName' in option && !labels.has(option.name))
				labels.set(option.name, option.displayName);
	}
	return Object.fromEntries(
		Object.entries(fieldRules).map(([path, entry]) => {
			const label = labels.get(path.split('.')[0].replace(/\[\]$/, ''));
			return [path, Array.isArray(entry) && label ? { label, rules: entry } : entry];
		}),
	);
}

export interface Problem {
	/** "Field "To" "x" is not a valid email address" */
	text: string;
	/** The field in the request, e.g. messageVersions[0].to[0].email */
	apiPath: string;
}

/** One step of a path: a key, and whether it walks every entry of the array found there. */
interface Step {
	key: string;
	eachEntry: boolean;
}

interface CompiledRule {
	steps: Step[];
	label?: string;
	rules: Rule[];
	/** Checks the values the path reaches from the body (walkOf). */
	walk?: Walk;
}

/** The path to a value in a request, e.g. messageVersions[0].to[1].email, made only for a problem. */
function pathName(steps: Step[], indexes: number[]): string {
	let name = '';
	let entry = 0;
	steps.forEach((step, i) => {
		name += i === 0 ? step.key : `.${step.key}`;
		if (step.eachEntry) name += `[${indexes[entry++]}]`;
	});
	return name;
}

/** Where a value checked sits, for a reading rule to put back what it read: its holder and key. */
type Holder = Record<string | number, unknown> | undefined;

/** Checks every value a rule's path reaches from `value`; `indexes` holds the array indexes on the way. */
type Walk = (
	value: unknown,
	holder: Holder,
	key: string | number | undefined,
	indexes: number[],
	problems: Problem[],
) => void;

/** A rule's fields, checked in order; the first problem of the value is the one told. */
function checkValue(
	rule: CompiledRule,
	value: unknown,
	holder: Holder,
	key: string | number | undefined,
	indexes: number[],
	problems: Problem[],
) {
	let current = value;
	for (const fieldRule of rule.rules) {
		const read = fieldRule.read?.(current);
		const problem = read ? ('problem' in read ? read.problem : undefined) : fieldRule(current);
		if (problem) {
			const apiPath = pathName(rule.steps, indexes);
			problems.push({ text: `Field "${rule.label ?? apiPath}" ${problem}`, apiPath });
			return;
		}
		if (read && 'value' in read && read.value !== current && holder && key !== undefined) {
			current = read.value;
			holder[key] = current;
		}
	}
}

/**
 * The walk of a rule's path from its step `depth` on, made once per rule: this runs for every field of every
 * item of a batch, so each step is its own small function, and a name is made only for a problem.
 */
function walkOf(rule: CompiledRule, depth = 0): Walk {
	if (depth === rule.steps.length)
		return (value, holder, key, indexes, problems) =>
			checkValue(rule, value, holder, key, indexes, problems);
	const { key: name, eachEntry } = rule.steps[depth];
	const next = walkOf(rule, depth + 1);
	const fieldOf = (value: unknown) =>
		value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
	if (!eachEntry)
		return (value, _holder, _key, indexes, problems) => {
			const object = fieldOf(value);
			next(object?.[name], object, name, indexes, problems);
		};
	return (value, _holder, _key, indexes, problems) => {
		const entries = fieldOf(value)?.[name];
		if (!Array.isArray(entries)) return;
		for (let index = 0; index < entries.length; index++) {
			indexes.push(index);
			next(entries[index], entries as unknown as Holder, index, indexes, problems);
			indexes.pop();
		}
	};
}

/** Field rules are constants checked for every item: their paths are split once. */
const compiled = new WeakMap<FieldRules, CompiledRule[]>();

function compile(fieldRules: FieldRules): CompiledRule[] {
	let list = compiled.get(fieldRules);
	if (!list) {
		list = Object.entries(fieldRules).map(([path, entry]) => ({
			steps: path.split('.').map((segment) => ({
				key: segment.endsWith('[]') ? segment.slice(0, -2) : segment,
				eachEntry: segment.endsWith('[]'),
			})),
			...(Array.isArray(entry) ? { rules: entry } : entry),
		}));
		for (const rule of list) rule.walk = walkOf(rule);
		compiled.set(fieldRules, list);
	}
	return list;
}

/**
 * Returns every problem of `body` against `fieldRules`; a value a reading rule reads (a whole number given
 * for a phone number) is replaced in `body` by what the request carries (its digits).
 */
export function findProblems(body: object, fieldRules: FieldRules): Problem[] {
	const problems: Problem[] = [];
	// One list of indexes for every rule: check() leaves it as it found it.
	const indexes: number[] = [];
	for (const rule of compile(fieldRules)) rule.walk!(body, undefined, undefined, indexes, problems);
	return problems;
}

/**
 * Throws one clear error for the item when `body` breaks a rule; nothing is sent then. Otherwise `body` holds
 * what the request carries: values reading rules read are replaced (findProblems).
 */
export function assertValid(node: INode, body: object, fieldRules: FieldRules, itemIndex: number) {
	refuseProblems(node, findProblems(body, fieldRules), itemIndex);
}

/** One clear problem naming the first problem found and listing the others (undefined: none). */
export function problemOf(problems: Problem[]): ItemProblem | undefined {
	if (problems.length === 0) return undefined;
	const [first] = problems;
	// The API's path is for whoever reads the request; "[0]" there counts within this item, not items.
	const apiField = (problem: Problem) =>
		problem.apiPath.includes('[')
			? `API field ${problem.apiPath}, positions counted from 0 within this item`
			: `API field ${problem.apiPath}`;
	const where = first.text.includes(`"${first.apiPath}"`) ? '' : ` (${apiField(first)})`;
	return new ItemProblem(
		first.text,
		problems.length > 1
			? `Nothing was sent to the platform. All problems found before sending:\n${problems.map((problem) => `${problem.text} (${apiField(problem)})`).join('\n')}`
			: `Nothing was sent to the platform${where}.`,
	);
}

/** Throws one clear error for the item naming the first problem and listing the others; none: nothing. */
function refuseProblems(node: INode, problems: Problem[], itemIndex: number) {
	const problem = problemOf(problems);
	if (problem) throw itemError(node, problem, itemIndex);
}
