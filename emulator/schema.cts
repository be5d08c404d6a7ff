/**
 * Request schema checking for the /v5 business operations (each operation's schema lives beside its
 * handler in operations/). The emulator is strict: an unknown field (sandboxMode included, where the
 * table does not list it) or a wrong type is a 400.
 */
export type FieldType =
	'string' | 'int' | 'boolean' | 'string[]' | 'object' | 'object[]' | 'rows' | 'intOrString';

export interface OperationSchema {
	fields: Record<string, FieldType>;
	required: string[];
	/** Whether the table lists sandboxMode. */
	sandbox: boolean;
}

function typeMatches(type: FieldType, value: unknown): boolean {
	switch (type) {
		case 'string':
			return typeof value === 'string';
		case 'int':
			return Number.isInteger(value);
		case 'boolean':
			return typeof value === 'boolean';
		case 'string[]':
			return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
		case 'object':
			return !!value && typeof value === 'object' && !Array.isArray(value);
		case 'object[]':
			return (
				Array.isArray(value) &&
				value.every((entry) => !!entry && typeof entry === 'object' && !Array.isArray(entry))
			);
		case 'rows':
			return Array.isArray(value) && value.every((row) => Array.isArray(row));
		case 'intOrString':
			return Number.isInteger(value) || typeof value === 'string';
	}
}

const isBlank = (value: unknown) =>
	value === undefined ||
	value === null ||
	(typeof value === 'string' && value.trim() === '') ||
	(Array.isArray(value) && value.length === 0);

/** Returns the first schema problem as [zh, en] text, or undefined. */
export function checkSchema(
	schema: OperationSchema,
	body: Record<string, unknown>,
): [string, string] | undefined {
	for (const key of Object.keys(body)) {
		if (!(key in schema.fields)) return [`未知参数: ${key}`, `unknown field: ${key}`];
		if (body[key] === null) continue;
		if (!typeMatches(schema.fields[key], body[key])) {
			return [`参数类型错误: ${key}`, `field ${key} must be of type ${schema.fields[key]}`];
		}
	}
	for (const key of schema.required) {
		if (isBlank(body[key])) return [`缺少必填参数: ${key}`, `required field missing: ${key}`];
	}
	return undefined;
}
