/** Which {{ block }} holds the platform's tag rather than n8n's expression: the one rule, for reading and checking. */

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
