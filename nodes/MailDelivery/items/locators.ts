/** Names picked in searchable lists (resource locators), also several of them in a "lists" field. */
import type { IDataObject } from 'n8n-workflow';

import type { ItemParameters } from './parameterReader';

/**
 * The names a locator's value holds: the picked or typed name, or the list of names an expression gave
 * (so one entry can take the lists of the input item).
 */
export function namesOfLocator(value: unknown): string[] {
	const inner =
		value !== null && typeof value === 'object' && !Array.isArray(value) && 'value' in value
			? (value as { value: unknown }).value
			: value;
	return (Array.isArray(inner) ? inner : [inner])
		.map((name) => (name === undefined || name === null ? '' : String(name).trim()))
		.filter(Boolean);
}

/** The contact lists of a "lists" field (Send to Lists, Exclude Lists) for the item, each once, in order. */
export function pickedLists(item: ItemParameters, field: string): string[] {
	const entries = item.get<IDataObject[] | null>(`${field}.list`, []) ?? [];
	return [...new Set(entries.flatMap((entry) => namesOfLocator(entry?.listName)))];
}
