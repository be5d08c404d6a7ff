import { textOrDigits } from '../../shared/parameterKinds';
import { ItemProblem } from '../items/itemErrors';

/** A recipient as the API takes it in to, cc and bcc. */
interface Recipient {
	email: string;
	name?: string;
}

/** A problem with one entry of an address list, in plain English. */
export class AddressListError extends ItemProblem {}

/**
 * Reads one entry: `addr`, `<addr>`, `Name <addr>` or `"Name, with \"quotes\"" <addr>`.
 * `entry` is the text as the user wrote it (for errors), `position` its 1-based place in the list.
 */
function readEntry(entry: string, position: number, field: string): Recipient {
	const fail = (why: string) =>
		new AddressListError(`Field "${field}" entry ${position} (${JSON.stringify(entry)}) ${why}`);
	const text = entry.trim();
	let name = '';
	let rest = text;
	if (rest.startsWith('"')) {
		let i = 1;
		for (; i < rest.length && rest[i] !== '"'; i++) {
			if (rest[i] === '\\') i++;
			name += rest[i] ?? '';
		}
		if (i >= rest.length) throw fail('has a quote that is never closed');
		rest = rest.slice(i + 1).trim();
		if (!rest.startsWith('<')) throw fail('has a quoted name but no <address> after it');
	}
	const open = rest.indexOf('<');
	if (open === -1) {
		if (rest.includes('>')) throw fail('has a ">" without "<"');
		return { email: rest };
	}
	const close = rest.indexOf('>', open);
	if (close === -1) throw fail('has a "<" that is never closed');
	if (rest.slice(close + 1).trim()) throw fail('has text after the closing ">"');
	if (!name) name = rest.slice(0, open).trim();
	const email = rest.slice(open + 1, close).trim();
	if (!email) throw fail('has no address between "<" and ">"');
	return name ? { email, name } : { email };
}

const SEPARATOR = /[,;\n]/;

/** Splits on commas, semicolons and line breaks that are outside quotes and angle brackets. */
function splitList(text: string): string[] {
	// Without a separator there is one entry, whatever its quotes and brackets (most lists are one address).
	if (!SEPARATOR.test(text)) return [text];
	const entries: string[] = [];
	let current = '';
	let inQuotes = false;
	let inBrackets = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (inQuotes && char === '\\') {
			current += char + (text[i + 1] ?? '');
			i++;
			continue;
		}
		if (char === '"' && !inBrackets) inQuotes = !inQuotes;
		else if (char === '<' && !inQuotes) inBrackets = true;
		else if (char === '>' && !inQuotes) inBrackets = false;
		if (!inQuotes && !inBrackets && (char === ',' || char === ';' || char === '\n')) {
			entries.push(current);
			current = '';
		} else current += char;
	}
	entries.push(current);
	return entries;
}

/**
 * Reads an address list as users write it (RFC 5322 style): `a@x.com, "Müller, Jürgen" <j@y.org>`,
 * or an array of such strings and `{email, name}` objects from an expression. Empty entries are
 * skipped; a malformed one throws an AddressListError naming the field and the entry.
 */
export function parseRecipients(value: unknown, field = 'To'): Recipient[] {
	if (value === undefined || value === null || value === '') return [];
	// One address, as most sends give: a list of one (kept until the request; one grown by push keeps room for 16).
	if (typeof value === 'string' && !SEPARATOR.test(value))
		return value.trim() ? [readEntry(value, 1, field)] : [];
	const values = Array.isArray(value) ? value : [value];
	const recipients: Recipient[] = [];
	let position = 0;
	for (const entry of values) {
		if (entry && typeof entry === 'object') {
			position++;
			const { email, name } = entry as { email?: unknown; name?: unknown };
			if (typeof email !== 'string') {
				throw new AddressListError(
					`Field "${field}" entry ${position} is an object without an "email" text`,
				);
			}
			// A name given as a whole number (a spreadsheet's) is its digits; anything else not text is refused.
			const read = textOrDigits(name);
			if ('problem' in read)
				throw new AddressListError(
					`Field "${field}" entry ${position} has a name that ${read.problem}`,
				);
			recipients.push({
				email: email.trim(),
				...(read.value !== undefined && read.value !== null && read.value !== ''
					? { name: read.value as string }
					: {}),
			});
			continue;
		}
		for (const text of splitList(String(entry ?? ''))) {
			if (!text.trim()) continue;
			position++;
			recipients.push(readEntry(text, position, field));
		}
	}
	return recipients;
}
