/** Contacts (API 4.3): add or update one, bulk import, get, delete. */
import { lower, type State } from '../state.cts';
import { fail, type Contact } from '../types.cts';
import { EMAIL, ok, sandboxed, type Operation } from './common.cts';

/** updateMode 1 creates and updates, 2 only creates, 3 only updates; undefined when nothing was done. */
function upsertContact(
	state: State,
	input: {
		email?: string;
		phoneNumber?: string;
		name?: string;
		properties?: Record<string, unknown>;
	},
	updateMode: number,
): Contact | undefined {
	const key = input.email ? lower(input.email) : `phone:${input.phoneNumber}`;
	const existing = state.contacts.get(key);
	if (existing && updateMode === 2) return existing;
	if (!existing && updateMode === 3) return undefined;
	const now = state.now();
	const contact: Contact = existing ?? {
		id: String(state.nextId()),
		name: '',
		properties: {},
		createdAt: now,
		modifiedAt: now,
		lists: new Set(),
	};
	if (input.email) contact.email = input.email.trim();
	if (input.phoneNumber) contact.phoneNumber = String(input.phoneNumber);
	contact.name = input.name
		? String(input.name)
		: contact.name || contact.email || contact.phoneNumber || '';
	Object.assign(contact.properties, input.properties ?? {});
	contact.modifiedAt = now;
	state.contacts.set(key, contact);
	return contact;
}

function addToList(state: State, contact: Contact, listName: string) {
	contact.lists.add(listName);
	const list = state.lists.get(listName);
	if (list) list.modifiedAt = state.now();
}

/** A contact as contacts/get answers it (2.3). */
function contactView(state: State, c: Contact) {
	return {
		id: c.id,
		name: c.name,
		email: c.email ?? '',
		phoneNumber: c.phoneNumber ?? '',
		wxSubscriber: [],
		wxMiniSubscriber: null,
		properties: { ...c.properties, unsubscribed: state.unsubscribed.has(lower(c.email ?? '')) },
		createDate: new Date(c.createdAt).toISOString(),
		modifyTime: new Date(c.modifiedAt).toISOString(),
		createUserId: 1,
	};
}

export const contact: Record<string, Operation> = {
	'/v5/contacts/upsert': {
		schema: {
			fields: {
				name: 'string',
				email: 'string',
				phoneNumber: 'string',
				listName: 'string',
				sandboxMode: 'boolean',
			},
			required: [],
			sandbox: true,
		},
		handle: ({ state }, b, sandbox) => {
			if (!b.email && !b.phoneNumber)
				fail(400, '邮箱和手机号至少填写一个', 'email or phoneNumber is required');
			if (b.email && !EMAIL.test(b.email))
				fail(400, '邮箱格式错误', 'email is not an email address');
			if (b.listName && !state.lists.has(b.listName))
				fail(403, '列表不存在', `no list named ${b.listName}`);
			if (sandbox) return sandboxed();
			const contact = upsertContact(
				state,
				{ email: b.email, phoneNumber: b.phoneNumber, name: b.name },
				1,
			);
			if (contact && b.listName) addToList(state, contact, b.listName);
			return ok();
		},
	},
	'/v5/contacts/imports': {
		schema: {
			fields: {
				contactData: 'rows',
				contactDataMapping: 'object[]',
				updateMode: 'int',
				listName: 'string',
				listDescription: 'string',
				sandboxMode: 'boolean',
			},
			required: ['contactData', 'contactDataMapping', 'updateMode'],
			sandbox: true,
		},
		handle: ({ state }, b, sandbox) => {
			const mapping = b.contactDataMapping as Array<Record<string, unknown>>;
			for (const entry of mapping) {
				if (!Number.isInteger(entry.columnNum) || (entry.columnNum as number) < 0)
					fail(400, '列号错误', 'contactDataMapping.columnNum must be an integer from 0');
				if (typeof entry.propertyName !== 'string' || !entry.propertyName)
					fail(400, '缺少属性名', 'contactDataMapping.propertyName is required');
			}
			const names = mapping.map((m) => m.propertyName as string);
			if (!names.includes('email') && !names.includes('phoneNumber'))
				fail(400, '邮箱和手机号不能都未映射', 'email and phoneNumber must not both be unmapped');
			if (![1, 2, 3].includes(b.updateMode))
				fail(400, '更新模式错误', 'updateMode must be 1, 2 or 3');
			if (new Set(names).size !== names.length)
				fail(400, '属性重复映射', 'a propertyName is mapped twice');
			// Every row is checked before anything is imported: a bad row refuses the whole request.
			(b.contactData as unknown[][]).forEach((row, index) => {
				const cell = (name: string) =>
					row[mapping.find((m) => m.propertyName === name)?.columnNum as number];
				if (
					row.some((value) => value === null || (typeof value === 'object' && value !== undefined))
				)
					fail(400, '数据值无效', `contactData[${index}] has a null or object value`);
				const email = cell('email');
				const phone = cell('phoneNumber');
				if ((email === undefined || email === '') && (phone === undefined || phone === ''))
					fail(
						400,
						'邮箱和手机号至少填写一个',
						`contactData[${index}] has neither email nor phoneNumber`,
					);
				if (email !== undefined && email !== '' && !EMAIL.test(String(email)))
					fail(400, '邮箱格式错误', `contactData[${index}] email is not an email address`);
			});
			if (sandbox) return sandboxed();
			if (b.listName && !state.lists.has(b.listName)) {
				const now = state.now();
				state.lists.set(b.listName, {
					id: state.nextId(),
					listName: b.listName,
					listDescription: b.listDescription ?? '',
					createdAt: now,
					modifiedAt: now,
				});
			}
			for (const row of b.contactData as unknown[][]) {
				const values: Record<string, unknown> = {};
				for (const m of mapping) values[m.propertyName as string] = row[m.columnNum as number];
				const { email, phoneNumber, name, ...properties } = values;
				const contact = upsertContact(
					state,
					{
						email: email as string,
						phoneNumber: phoneNumber as string,
						name: name as string,
						properties,
					},
					b.updateMode,
				);
				if (contact && b.listName) addToList(state, contact, b.listName);
			}
			return ok();
		},
	},
	'/v5/contacts/get': {
		schema: { fields: { email: 'string' }, required: ['email'], sandbox: false },
		handle: ({ state }, b) => {
			const contact = state.contacts.get(lower(b.email));
			if (!contact) fail(403, '联系人不存在', `no contact with email ${b.email}`);
			return ok({ contact: contactView(state, contact!) });
		},
	},
	'/v5/contacts/delete': {
		schema: {
			fields: { email: 'string', sandboxMode: 'boolean' },
			required: ['email'],
			sandbox: true,
		},
		handle: ({ state }, b, sandbox) => {
			if (!state.contacts.has(lower(b.email)))
				fail(403, '联系人不存在', `no contact with email ${b.email}`);
			if (sandbox) return sandboxed();
			state.contacts.delete(lower(b.email));
			return ok();
		},
	},
};
