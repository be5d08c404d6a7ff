/**
 * Booleans, numbers and options read as users mean them, for both nodes. A value given by an expression
 * arrives as whatever the expression returns (`{{ "true" }}` is the text "true"), and n8n does not
 * convert it to the field's kind. By the kind a node's description declares, "true"/"false"/"1"/"0"
 * become booleans, numeric text a number, the text of an option's value that option; anything else is a
 * problem that names the field, which each node reports in its own way (the action node before any
 * request, for the item; the trigger on activation). So a Sandbox Mode or a Require Secret that is
 * neither true nor false never falls back to sending, or to accepting every push.
 */
import type {
	IDataObject,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';

/** A value in an error, briefly: "yes", 12, empty, an object. */
export function describeValue(value: unknown): string {
	if (value === undefined || value === null || (typeof value === 'string' && !value.trim()))
		return 'empty';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string')
		return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
	return String(value);
}

/**
 * A phone number or a name as the platform takes it: text. Spreadsheets and CRMs often give such values as
 * numbers (4915112345678), so a whole number that JavaScript holds exactly is taken as its digits. A number
 * above 2^53 has already lost digits by the time the node sees it, a fraction is no phone number or name,
 * and an object or a list is not text: each is refused, with the reason.
 */
export function textOrDigits(value: unknown): { value: unknown } | { problem: string } {
	if (value === undefined || value === null || typeof value === 'string') return { value };
	if (typeof value === 'number' && Number.isSafeInteger(value)) return { value: String(value) };
	if (typeof value === 'number' && Number.isInteger(value))
		return {
			problem: `is ${value}, a number too large for JavaScript to hold every digit of (above 2^53): give it as text`,
		};
	if (typeof value === 'number' && Number.isFinite(value))
		return { problem: `is ${value}, a fraction: only a whole number is taken as its digits` };
	return { problem: `must be text or a whole number (it is ${describeValue(value)})` };
}

/** Checks and converts a value read for a field; on failure, the field, what it takes and what it got. */
type Reader = (
	value: unknown,
) => { value: unknown } | { label: string; expected: string; seen: unknown };

function asBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (value === 1 || value === 0) return value === 1;
	if (typeof value !== 'string') return undefined;
	const text = value.trim().toLowerCase();
	if (text === 'true' || text === '1') return true;
	if (text === 'false' || text === '0') return false;
	return undefined;
}

function asNumber(value: unknown): number | undefined {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim()
				? Number(value)
				: NaN;
	return Number.isFinite(number) ? number : undefined;
}

/** The option a value names: its value itself, or its value written as text ("2" for 2). */
function asOption(value: unknown, options: INodePropertyOptions[]): unknown {
	for (const option of options) if (option.value === value) return option.value;
	if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
		return undefined;
	const text = String(value).trim();
	return options.find((option) => String(option.value) === text)?.value;
}

/**
 * The value of a list's "Custom …" entry, which shows a field for any other name. A list that offers
 * it takes any other text too: its operation reads such a value as that custom name.
 */
export const CUSTOM_OPTION = '__custom';

const staticOptions = (property: INodeProperties) =>
	property.typeOptions?.loadOptionsMethod || !Array.isArray(property.options)
		? undefined
		: (property.options as INodePropertyOptions[]);

/** The reader of an object whose keys are fields (a collection, or one entry of a fixed collection's group). */
function objectReader(fields: INodeProperties[]): Reader | undefined {
	const readers = new Map<string, Reader>();
	for (const field of fields) {
		const reader = readerOf(field);
		if (reader) readers.set(field.name, reader);
	}
	if (readers.size === 0) return undefined;
	return (value) => {
		if (value === null || typeof value !== 'object' || Array.isArray(value)) return { value };
		let read: IDataObject | undefined;
		for (const [key, reader] of readers) {
			if (!(key in value)) continue;
			const outcome = reader((value as IDataObject)[key]);
			if (!('value' in outcome)) return outcome;
			if (outcome.value !== (value as IDataObject)[key]) {
				read ??= { ...(value as IDataObject) };
				read[key] = outcome.value as IDataObject[string];
			}
		}
		return { value: read ?? value };
	};
}

/** A fixed collection's group: one entry, or a list of them. */
function groupReader(group: INodePropertyCollection, multiple: boolean): Reader | undefined {
	const entry = objectReader(group.values);
	if (!entry || !multiple) return entry;
	return (value) => {
		if (!Array.isArray(value)) return entry(value);
		const read: unknown[] = [];
		for (const item of value) {
			const outcome = entry(item);
			if (!('value' in outcome)) return outcome;
			read.push(outcome.value);
		}
		return { value: read };
	};
}

/** A list of options (or of names, when the options are loaded): one name given as text is a list of one. */
function multiOptionsReader(label: string, options: INodePropertyOptions[] | undefined): Reader {
	const expected = options
		? `a list of ${options.map((option) => String(option.value)).join(', ')}`
		: 'a list of names';
	return (value) => {
		const list = typeof value === 'string' ? (value.trim() ? [value] : []) : value;
		if (!Array.isArray(list)) return { expected: 'a list', label, seen: value };
		const read: unknown[] = [];
		for (const entry of list) {
			const one = options
				? asOption(entry, options)
				: typeof entry === 'string' || typeof entry === 'number'
					? String(entry)
					: undefined;
			if (one === undefined) return { expected, label, seen: entry };
			read.push(one);
		}
		return { value: read };
	};
}

/** The reader of a field by the kind its description declares; undefined for kinds read as they come. */
function readerOf(property: INodeProperties): Reader | undefined {
	const label = property.displayName;
	switch (property.type) {
		case 'boolean':
			return (value) => {
				const read = asBoolean(value);
				return read === undefined
					? { expected: 'true or false', label, seen: value }
					: { value: read };
			};
		case 'number':
			// The kind only: operations check the range they accept, with their own words.
			return (value) => {
				const read = asNumber(value);
				return read === undefined ? { expected: 'a number', label, seen: value } : { value: read };
			};
		case 'options': {
			const options = staticOptions(property);
			if (!options) return undefined;
			if (options.some((option) => option.value === CUSTOM_OPTION))
				return (value) =>
					typeof value === 'string' && value.trim()
						? { value }
						: { expected: 'a name', label, seen: value };
			const expected = `one of ${options.map((option) => String(option.value)).join(', ')}`;
			return (value) => {
				const read = asOption(value, options);
				return read === undefined ? { expected, label, seen: value } : { value: read };
			};
		}
		case 'multiOptions':
			return multiOptionsReader(label, staticOptions(property));
		case 'collection':
			return objectReader((property.options ?? []) as INodeProperties[]);
		case 'fixedCollection': {
			const multiple = property.typeOptions?.multipleValues === true;
			const groups = new Map<string, Reader>();
			for (const group of (property.options ?? []) as INodePropertyCollection[]) {
				const reader = groupReader(group, multiple);
				if (reader) groups.set(group.name, reader);
			}
			if (groups.size === 0) return undefined;
			return (value) => {
				if (value === null || typeof value !== 'object' || Array.isArray(value)) return { value };
				let read: IDataObject | undefined;
				for (const [name, reader] of groups) {
					if (!(name in value)) continue;
					const outcome = reader((value as IDataObject)[name]);
					if (!('value' in outcome)) return outcome;
					read ??= { ...(value as IDataObject) };
					read[name] = outcome.value as IDataObject[string];
				}
				return { value: read ?? value };
			};
		}
		default:
			return undefined;
	}
}

/**
 * The reader for a parameter path as operations read it: "sandboxMode", "additionalFields",
 * "options.combineItems", "contactDataMapping.fields" (a fixed collection's group).
 */
function readerAt(properties: INodeProperties[], path: string): Reader | undefined {
	const [first, ...rest] = path.split('.');
	let property = properties.find((candidate) => candidate.name === first);
	if (!property) return undefined;
	for (const name of rest) {
		if (property.type === 'collection') {
			property = (property.options as INodeProperties[] | undefined)?.find(
				(option) => option.name === name,
			);
			if (!property) return undefined;
		} else if (property.type === 'fixedCollection') {
			const group = (property.options as INodePropertyCollection[] | undefined)?.find(
				(option) => option.name === name,
			);
			return group && rest[rest.length - 1] === name
				? groupReader(group, property.typeOptions?.multipleValues === true)
				: undefined;
		} else return undefined;
	}
	return readerOf(property);
}

/** Readers by description and path, built once: they are asked for every parameter of every item. */
const readers = new WeakMap<INodeProperties[], Map<string, Reader | undefined>>();

/** The value a node holds at a parameter path ("options.retry", "versions[0].to"), as n8n stores it. */
export function storedValue(parameters: object, path: string): unknown {
	let value: unknown = parameters;
	for (const key of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

/** What reading a value as its field's kind gives: the value, or the sentence that says why it cannot be. */
type Meaning = (value: unknown) => { value: unknown } | { problem: string };

/** The meaning of a field of a kind read as it comes (text, JSON...): what a reader may skip. */
export const asIs: Meaning = (value) => ({ value });

/**
 * How the values of a parameter path are read as its field's kind (`properties`: the node's, or the
 * operation's, fields), worked out once for a node's stored parameters: every item's value of that path is
 * then read with it. Only values the node holds are read so: a fallback given where it has none is the caller's.
 */
export function meaningAt(
	properties: INodeProperties[],
	parameters: object,
	name: string,
): Meaning {
	let byPath = readers.get(properties);
	if (!byPath) {
		byPath = new Map();
		readers.set(properties, byPath);
	}
	if (!byPath.has(name)) byPath.set(name, readerAt(properties, name));
	const reader = byPath.get(name);
	if (!reader || storedValue(parameters, name) === undefined) return asIs;
	return (value) => {
		const outcome = reader(value);
		if ('value' in outcome) return outcome;
		return {
			problem: `Field "${outcome.label}" must be ${outcome.expected} (it is ${describeValue(outcome.seen)})`,
		};
	};
}

/**
 * A parameter's value read as its field's kind, or the sentence that says why it cannot be: `Field "Sandbox
 * Mode" must be true or false (it is "yes")`.
 */
export function readAsMeant(
	properties: INodeProperties[],
	parameters: object,
	name: string,
	value: unknown,
): { value: unknown } | { problem: string } {
	return meaningAt(properties, parameters, name)(value);
}

/** Whether an object has a key of its own, without listing them all (an item's JSON may have many). */
export function hasKeys(object: object): boolean {
	for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return true;
	return false;
}
