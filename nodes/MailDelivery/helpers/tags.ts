/**
 * The platform's tag syntax, {{name}}, which is also n8n's expression syntax. Texts are cut as n8n cuts them
 * (items/templateChunks.ts), so a text is read the way n8n would read it.
 */
import type { IDataObject } from 'n8n-workflow';

import { templateChunks } from '../items/templateChunks';

/** A tag name: letters, digits and "_", in parts joined by "." or "-" (e.g. firstName, order.id, first-name). */
const TAG_NAME = /^[\p{L}_][\p{L}\p{N}_]*(?:[.-][\p{L}\p{N}_]+)*$/u;

/** Values JavaScript gives a bare name: in n8n's expressions they are values, never tags. */
const LITERALS = new Set(['true', 'false', 'null', 'undefined', 'NaN', 'Infinity']);
/** Globals n8n's expressions define (n8n-workflow's expression sandbox): `Math.PI` is n8n's, `Date` alone a tag. */
const GLOBALS = new Set([
	'Array',
	'BigInt',
	'Boolean',
	'Date',
	'DateTime',
	'Duration',
	'Interval',
	'Intl',
	'JSON',
	'Math',
	'Number',
	'Object',
	'RegExp',
	'String',
	'Symbol',
]);

/**
 * Whether the inside of a {{ block }} is the platform's tag: a tag name, but not a JavaScript literal
 * (`true`, `null`) nor a name under one of n8n's globals (`Math.PI`), which n8n gives a value.
 */
export function isTagName(inside: string): boolean {
	const name = inside.trim();
	if (!TAG_NAME.test(name) || LITERALS.has(name)) return false;
	const dot = name.indexOf('.');
	return dot === -1 || !GLOBALS.has(name.slice(0, dot));
}

/** The distinct tag names a text uses ({{name}} or {{ name }}), in order of first use. */
export function tagsIn(...texts: unknown[]): string[] {
	const names = new Set<string>();
	for (const text of texts) {
		if (typeof text !== 'string') continue;
		for (const chunk of templateChunks(text))
			if (chunk.type === 'code' && chunk.closed && isTagName(chunk.code))
				names.add(chunk.code.trim());
	}
	return [...names];
}

/** A tag as the platform fills it: {{name}}, spaces allowed inside the braces. */
const PLATFORM_TAG = /\{\{\s*([\p{L}_][\p{L}\p{N}_]*(?:[.-][\p{L}\p{N}_]+)*)\s*\}\}/gu;

/**
 * A text as the platform sends it: each tag replaced by its value (an object as JSON), a tag without a value
 * by nothing (the platform still sends the mail).
 */
export function fillTags(text: string, values: IDataObject): string {
	return text.replace(PLATFORM_TAG, (_tag, name: string) => {
		const value = Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined;
		if (value === undefined || value === null) return '';
		return typeof value === 'object' ? JSON.stringify(value) : String(value);
	});
}
