/** Templates (API 4.2): add, search, delete. Template operations take no sandboxMode. */
import { fail } from '../types.cts';
import { chars, ok, page, paging, type Operation } from './common.cts';

export const template: Record<string, Operation> = {
	'/v5/campaign/mail/template/add': {
		schema: {
			fields: {
				templateName: 'string',
				templateContent: 'string',
				templateSubject: 'string',
				editorType: 'string',
			},
			required: ['templateName', 'templateContent', 'templateSubject'],
			sandbox: false,
		},
		handle: ({ state }, b) => {
			if (chars(b.templateName) > 250)
				fail(400, '模板名称过长', 'templateName is longer than 250 characters');
			if (b.editorType !== undefined && !['CLASSIC', 'DRAG'].includes(b.editorType))
				fail(400, '编辑器类型错误', 'editorType must be CLASSIC or DRAG');
			if (state.templates.has(b.templateName))
				fail(400, '模板名称已存在', 'a template with this name exists');
			state.templates.set(b.templateName, {
				templateName: b.templateName,
				templateContent: b.templateContent,
				templateSubject: b.templateSubject,
				editorType: b.editorType ?? 'DRAG',
				createdAt: state.now(),
			});
			return ok();
		},
	},
	'/v5/campaign/mail/template/get': {
		schema: { fields: { templateName: 'string', ...paging }, required: [], sandbox: false },
		handle: ({ state }, b) => {
			const found = [...state.templates.values()]
				.filter(
					(t) =>
						!b.templateName ||
						t.templateName.toLowerCase().includes(String(b.templateName).toLowerCase()),
				)
				.sort((x, y) => y.createdAt - x.createdAt || x.templateName.localeCompare(y.templateName))
				.map((t) => ({
					templateName: t.templateName,
					templateContent: t.templateContent,
					templateSubject: t.templateSubject,
					createDate: state.wallTime(t.createdAt, true),
				}));
			return ok({ ...page(state, found, b, 'templateList') });
		},
	},
	'/v5/campaign/mail/template/delete': {
		schema: { fields: { templateName: 'string' }, required: ['templateName'], sandbox: false },
		handle: ({ state }, b) => {
			if (!state.templates.delete(b.templateName))
				fail(403, '模板不存在', `no template named ${b.templateName}`);
			return ok();
		},
	},
};
