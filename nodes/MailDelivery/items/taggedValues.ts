/**
 * The platform's personalization tags are written {{name}}, which is also n8n's expression syntax: a text
 * with tags pasted into a field becomes an n8n expression, and n8n would evaluate {{orderId}} to nothing.
 * Fields the platform reads tags in are read here instead: every {{ block }} whose inside is a bare tag
 * name (no "$", no call, no operator, not a JavaScript literal nor a name under one of n8n's globals) is
 * kept as the tag {{name}}; what is left is n8n's, and n8n evaluates it (templateChunks.ts splits the
 * text as n8n does, backslashes included); nothing here evaluates anything.
 */
import { randomUUID } from 'node:crypto';
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isTagName } from './tagNames';
import { type TemplateChunk, templateChunks } from './templateChunks';

/** What a field's stored expression holds, worked out once per text. */
type Reading =
	/** No tag: n8n evaluates the field as it always did. */
	| { kind: 'n8n' }
	/** Only tags and text: the field's value, with no evaluation at all. */
	| { kind: 'fixed'; value: string }
	/** Tags and n8n expressions: n8n evaluates `expression`, whose placeholders become `texts` again. */
	| { kind: 'mixed'; expression: string; texts: string[] };

// Placeholders are plain text, which n8n copies as it is; the random part keeps them apart from any data.
const PLACEHOLDER_ID = randomUUID().replace(/-/g, '');
const placeholder = (index: number) => `__mailDeliveryTag${PLACEHOLDER_ID}x${index}__`;
const PLACEHOLDERS = new RegExp(`__mailDeliveryTag${PLACEHOLDER_ID}x(\\d+)__`, 'g');

/**
 * Readings by run (the node as the run read it, one object per run) and text: a field is worked out once
 * per run, and nothing outlives the run.
 */
const readingsByRun = new WeakMap<object, Map<string, Reading>>();

function readingOf(run: object, expression: string): Reading {
	let readings = readingsByRun.get(run);
	if (!readings) {
		readings = new Map();
		readingsByRun.set(run, readings);
	}
	let reading = readings.get(expression);
	if (reading) return reading;
	reading = readingOfText(expression);
	readings.set(expression, reading);
	return reading;
}

/**
 * How a field's expression is read: its chunks as n8n splits them; tags and text become the text n8n
 * would give for them, and n8n evaluates only its own blocks. In a mixed field each tag, and each text
 * with a backslash (which n8n reads differently where it stands), becomes a placeholder (no backslash,
 * no brace) that n8n copies as it is.
 */
function readingOfText(expression: string): Reading {
	const chunks = templateChunks(expression);
	const isTag = (chunk: TemplateChunk) =>
		chunk.type === 'code' && chunk.closed && isTagName(chunk.code);
	if (!chunks.some(isTag)) return { kind: 'n8n' };
	const own = (chunk: TemplateChunk) =>
		chunk.type === 'text' ? chunk.text : `{{${chunk.code.trim()}}}`;
	if (chunks.every((chunk) => chunk.type === 'text' || isTag(chunk)))
		return { kind: 'fixed', value: chunks.map(own).join('') };
	const texts: string[] = [];
	const rebuilt = chunks.map((chunk) => {
		if (chunk.type === 'code' && !isTag(chunk)) return expression.slice(chunk.start, chunk.end);
		if (chunk.type === 'text' && !chunk.text.includes('\\')) return chunk.text;
		return placeholder(texts.push(own(chunk)) - 1);
	});
	return { kind: 'mixed', expression: rebuilt.join(''), texts };
}

/** What a tagged field is read from: the item's parameters (parameterReader.ts, ItemParameters). */
interface ItemFields {
	readonly index: number;
	readonly node: INode;
	get(name: string, fallback?: unknown): unknown;
	raw(name: string, fallback?: unknown): unknown;
	evaluate(expression: string, name: string): unknown;
}

/**
 * A parameter the platform reads tags in, for the item, as n8n stores it (an expression starts with "="):
 * tags kept, n8n's expressions evaluated for the item. `label` names the field in errors. Operations read it
 * as ItemParameters.tagged.
 */
export function taggedValue(
	item: ItemFields,
	name: string,
	label: string,
	fallback: unknown = '',
): unknown {
	const stored = item.raw(name, fallback);
	if (typeof stored !== 'string' || !stored.startsWith('=')) return stored;
	const reading = readingOf(item.node, stored.slice(1));
	if (reading.kind === 'n8n') return item.get(name, fallback);
	if (reading.kind === 'fixed') return reading.value;
	let value: unknown;
	try {
		value = item.evaluate(reading.expression, name);
	} catch (error) {
		throw new NodeOperationError(item.node, error as Error, {
			itemIndex: item.index,
			message: `Field "${label}" holds an expression n8n could not evaluate: ${(error as Error).message}`,
			description:
				'Nothing was sent. Tags of the platform ({{name}}) are kept as they are; the rest of the field is an n8n expression.',
		});
	}
	return String(value ?? '').replace(PLACEHOLDERS, (_, index) => reading.texts[Number(index)]);
}
