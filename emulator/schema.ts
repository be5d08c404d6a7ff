/**
 * Request schemas of every /v5 business operation (platform API section 4). The emulator is strict:
 * an unknown field (sandboxMode included, where the table does not list it) or a wrong type is a 400.
 */
export type FieldType = 'string' | 'int' | 'boolean' | 'string[]' | 'object' | 'object[]' | 'rows' | 'intOrString';

export interface OperationSchema {
	fields: Record<string, FieldType>;
	required: string[];
	sandbox: boolean;
}

const paging = { pageSize: 'int', pageIndex: 'int' } as const;

export const SCHEMAS: Record<string, OperationSchema> = {
	'/v5/campaign/mail/sends': {
		fields: {
			mailName: 'string', senderMail: 'string', senderName: 'string', subject: 'string', content: 'string',
			sendDate: 'string', onlySave: 'boolean', sendListNames: 'string[]', repelListNames: 'string[]',
			replyTo: 'string', attachment: 'object', languageCode: 'string', marketName: 'string',
			subscriptName: 'string', projectCode: 'string', editorType: 'string', sandboxMode: 'boolean',
		},
		required: ['mailName', 'senderMail'],
		sandbox: true,
	},
	'/v5/campaign/mail/cancel': { fields: { mailName: 'string', sandboxMode: 'boolean' }, required: ['mailName'], sandbox: true },
	'/v5/campaign/mail/get': {
		fields: { mailName: 'string', subject: 'string', senderMail: 'string', type: 'string', allTeam: 'boolean', ...paging },
		required: [],
		sandbox: false,
	},
	'/v5/campaign/mail/delete': { fields: { mailName: 'string', sandboxMode: 'boolean' }, required: ['mailName'], sandbox: true },
	'/v5/campaign/mail/stats/get': {
		fields: { startDate: 'string', endDate: 'string', mailName: 'string', type: 'string' },
		required: ['startDate', 'endDate'],
		sandbox: false,
	},
	'/v5/campaign/mail/template/add': {
		fields: { templateName: 'string', templateContent: 'string', templateSubject: 'string', editorType: 'string' },
		required: ['templateName', 'templateContent', 'templateSubject'],
		sandbox: false,
	},
	'/v5/campaign/mail/template/get': { fields: { templateName: 'string', ...paging }, required: [], sandbox: false },
	'/v5/campaign/mail/template/delete': { fields: { templateName: 'string' }, required: ['templateName'], sandbox: false },
	'/v5/contacts/upsert': {
		fields: { name: 'string', email: 'string', phoneNumber: 'string', listName: 'string', sandboxMode: 'boolean' },
		required: [],
		sandbox: true,
	},
	'/v5/contacts/imports': {
		fields: {
			contactData: 'rows', contactDataMapping: 'object[]', updateMode: 'int', listName: 'string',
			listDescription: 'string', sandboxMode: 'boolean',
		},
		required: ['contactData', 'contactDataMapping', 'updateMode'],
		sandbox: true,
	},
	'/v5/contacts/get': { fields: { email: 'string' }, required: ['email'], sandbox: false },
	'/v5/contacts/delete': { fields: { email: 'string', sandboxMode: 'boolean' }, required: ['email'], sandbox: true },
	'/v5/lists/add': {
		fields: { listName: 'string', listDescription: 'string', sandboxMode: 'boolean' },
		required: ['listName'],
		sandbox: true,
	},
	'/v5/lists/get': {
		fields: { search: 'string', listType: 'intOrString', sort: 'string', ...paging },
		required: [],
		sandbox: false,
	},
	'/v5/lists/delete': { fields: { listName: 'string', sandboxMode: 'boolean' }, required: ['listName'], sandbox: true },
	'/v5/verified_senders/get': { fields: { senderEmail: 'string' }, required: [], sandbox: false },
	'/v5/verified_senders/add': {
		fields: { senderEmail: 'string', senderType: 'intOrString', sandboxMode: 'boolean' },
		required: ['senderEmail', 'senderType'],
		sandbox: true,
	},
	'/v5/verified_senders/verify': {
		fields: { fromDomain: 'string', selector: 'string' },
		required: ['fromDomain', 'selector'],
		sandbox: false,
	},
	'/v5/verified_senders/delete': {
		fields: { senderEmail: 'string', sandboxMode: 'boolean' },
		required: ['senderEmail'],
		sandbox: true,
	},
	'/v5/transactional/mail/sends_customised': {
		fields: {
			subject: 'string', content: 'string', templateName: 'string', params: 'object', senderMail: 'string',
			senderName: 'string', replyTo: 'string', sendDate: 'string', messageVersions: 'object[]',
			category: 'string', campaign: 'string', trackOpen: 'int', trackClick: 'int', uniqueMsgID: 'string',
			attachment: 'object', sandboxMode: 'boolean',
		},
		required: ['senderMail', 'messageVersions'],
		sandbox: true,
	},
	'/v5/transactional/mail/stats/get': {
		fields: { startDate: 'string', endDate: 'string' },
		required: ['startDate', 'endDate'],
		sandbox: false,
	},
	'/v5/webhook/get': { fields: {}, required: [], sandbox: false },
	'/v5/webhook/save': {
		fields: {
			transEvent: 'object', transCallbackUrl: 'string', transCallbackUrlExtra: 'object[]',
			transCallbackUrlExtraUpdateMode: 'string', transEnable: 'boolean',
		},
		required: [],
		sandbox: false,
	},
};

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
			return Array.isArray(value) && value.every((entry) => !!entry && typeof entry === 'object' && !Array.isArray(entry));
		case 'rows':
			return Array.isArray(value) && value.every((row) => Array.isArray(row));
		case 'intOrString':
			return Number.isInteger(value) || typeof value === 'string';
	}
}

const isBlank = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ||
	(Array.isArray(value) && value.length === 0);

/** Returns the first schema problem as [zh, en] text, or undefined. */
export function checkSchema(schema: OperationSchema, body: Record<string, unknown>): [string, string] | undefined {
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
