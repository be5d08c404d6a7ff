/**
 * The platform's tag syntax, {{name}}, which is also n8n's expression syntax. Texts are cut as n8n cuts them
 * (items/templateChunks.ts), so a text is read the way n8n would read it.
 */
import type { IDataObject } from 'n8n-workflow';

import { isTagName } from '../items/tagNames';
import { templateChunks } from '../items/templateChunks';

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
