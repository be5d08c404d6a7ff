/** Input items named so that people who count from 1 cannot misread them (n8n numbers items from 0). */
const ORDINAL_SUFFIXES: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const ordinalRules = new Intl.PluralRules('en', { type: 'ordinal' });
const ordinal = (n: number) => `${n}${ORDINAL_SUFFIXES[ordinalRules.select(n)]}`;

/** "item 3 (the 4th input item)", "items 0–136, 138 and 140–199". Indexes sorted ascending. */
export function describeItems(indexes: number[]): string {
	if (indexes.length === 1) return `item ${indexes[0]} (the ${ordinal(indexes[0] + 1)} input item)`;
	const runs: string[] = [];
	for (let i = 0; i < indexes.length; i++) {
		const start = indexes[i];
		while (i + 1 < indexes.length && indexes[i + 1] === indexes[i] + 1) i++;
		runs.push(start === indexes[i] ? String(start) : `${start}–${indexes[i]}`);
	}
	const list =
		runs.length > 1 ? `${runs.slice(0, -1).join(', ')} and ${runs[runs.length - 1]}` : runs[0];
	return `items ${list}`;
}

export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Ends a text with a full stop unless it has one, so that parts joined into one paragraph still read apart. */
export const asSentence = (text: string) =>
	/[.!?:]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
