/** Contact lists (API 4.4): add, search, delete. */
import { fail } from '../types.cts';
import { ok, page, paging, sandboxed, type Operation } from './common.cts';

export const contactList: Record<string, Operation> = {
	'/v5/lists/add': {
		schema: {
			fields: { listName: 'string', listDescription: 'string', sandboxMode: 'boolean' },
			required: ['listName'],
			sandbox: true,
		},
		handle: ({ state }, b, sandbox) => {
			if (state.lists.has(b.listName)) fail(400, '列表已存在', 'a list with this name exists');
			if (sandbox) return sandboxed();
			const now = state.now();
			state.lists.set(b.listName, {
				id: state.nextId(),
				listName: b.listName,
				listDescription: b.listDescription ?? '',
				createdAt: now,
				modifiedAt: now,
			});
			return ok();
		},
	},
	'/v5/lists/get': {
		schema: {
			fields: { search: 'string', listType: 'intOrString', sort: 'string', ...paging },
			required: [],
			sandbox: false,
		},
		handle: ({ state }, b) => {
			if (b.listType !== undefined && !['0', '1'].includes(String(b.listType)))
				fail(400, '列表类型错误', 'listType must be 0 or 1');
			if (b.sort !== undefined && !['CreateDate', 'ModifyDate'].includes(b.sort))
				fail(400, '排序字段错误', 'sort must be CreateDate or ModifyDate');
			const key = b.sort === 'ModifyDate' ? 'modifiedAt' : 'createdAt';
			// Every list the emulator makes is static (1): a search for dynamic lists finds none.
			const found = [...state.lists.values()]
				.filter(
					(l) => !b.search || l.listName.toLowerCase().includes(String(b.search).toLowerCase()),
				)
				.filter(() => b.listType === undefined || String(b.listType) === '1')
				.sort((x, y) => y[key] - x[key] || y.id - x.id)
				.map((l) => ({
					Id: String(l.id),
					TeamId: '1',
					listName: l.listName,
					ListStatus: 1,
					ListType: 1,
					ListFilters: '',
					CreateUserId: '1',
					CreateDate: new Date(l.createdAt).toISOString(),
					ModifyDate: new Date(l.modifiedAt).toISOString(),
				}));
			return ok({ ...page(state, found, b, 'lists') });
		},
	},
	'/v5/lists/delete': {
		schema: {
			fields: { listName: 'string', sandboxMode: 'boolean' },
			required: ['listName'],
			sandbox: true,
		},
		handle: ({ state }, b, sandbox) => {
			if (!state.lists.has(b.listName)) fail(403, '列表不存在', `no list named ${b.listName}`);
			if (sandbox) return sandboxed();
			state.lists.delete(b.listName);
			for (const c of state.contacts.values()) c.lists.delete(b.listName);
			return ok();
		},
	},
};
