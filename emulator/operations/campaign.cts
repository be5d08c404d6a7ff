/** Campaign tasks (API 4.1): create, cancel, search, delete and statistics. */
import { randomUUID } from 'node:crypto';

import { campaignStats, DAY_MS } from '../delivery.cts';
import { lower, type State } from '../state.cts';
import { fail, type CampaignTask } from '../types.cts';
import {
	checkAttachment,
	chars,
	dayRange,
	EMAIL,
	ok,
	page,
	paging,
	parseApiDateTime,
	sandboxed,
	type Operation,
} from './common.cts';

export const LANGUAGE_CODES = [
	'zh-cn',
	'en',
	'ja',
	'ko',
	'de',
	'tt',
	'es',
	'zh-tw',
	'ar',
	'pt-br',
	'id',
	'vi',
	'th',
	'fr',
];

const SENDS = '/v5/campaign/mail/sends';

const byName = (state: State, mailName: string) =>
	[...state.tasks.values()].find((t) => t.mailName === mailName);

const checkType = (type: unknown) => {
	if (type !== undefined && !['MailList', 'ABTest'].includes(type as string))
		fail(400, '类型错误', 'type must be MailList or ABTest');
};

/** A task as search answers it (2.1); mailStats only once completed (rule 4 of section 3). */
function taskView(state: State, t: CampaignTask) {
	const view: Record<string, unknown> = {
		mailName: t.mailName,
		subject: t.subject,
		mailContent: t.mailContent,
		senderName: t.senderName,
		senderMail: t.senderMail,
		replyTo: t.replyTo,
		rcptEmails: [],
		repelEmails: [],
		rcptListNames: t.rcptListNames,
		repelListNames: t.repelListNames,
		sendByDateTime: t.sendAt,
		taskType: 'MailList',
		mailStatus: t.mailStatus,
		guid: t.guid,
		teamName: 'Default team',
		languageCode: t.languageCode,
		marketName: t.marketName,
		subscriptName: t.subscriptName,
		projectCode: t.projectCode,
		reviewerName: '',
		mailSummary: '',
		audit: false,
	};
	if (t.mailStatus === 2) {
		const { deliveredCount, ...rest } = campaignStats(state.events, t.guid);
		view.mailStats = { ...rest, deliveredCount };
	}
	return view;
}

export const campaign: Record<string, Operation> = {
	[SENDS]: {
		schema: {
			fields: {
				mailName: 'string',
				senderMail: 'string',
				senderName: 'string',
				subject: 'string',
				content: 'string',
				sendDate: 'string',
				onlySave: 'boolean',
				sendListNames: 'string[]',
				repelListNames: 'string[]',
				replyTo: 'string',
				attachment: 'object',
				languageCode: 'string',
				marketName: 'string',
				subscriptName: 'string',
				projectCode: 'string',
				editorType: 'string',
				sandboxMode: 'boolean',
			},
			required: ['mailName', 'senderMail'],
			sandbox: true,
		},
		handle: ({ state, delivery, takeFault }, b, sandbox) => {
			if (chars(b.mailName) > 200)
				fail(400, '任务名称过长', 'mailName is longer than 200 characters');
			if (b.subject !== undefined && chars(b.subject) > 400)
				fail(400, '主题过长', 'subject is longer than 400 characters');
			let sendAt = state.now();
			if (b.sendDate !== undefined) {
				const parsed = parseApiDateTime(b.sendDate);
				if (parsed === undefined)
					fail(400, '发送时间格式错误', 'sendDate must be YYYY-MM-DDThh:mm:ssZ');
				sendAt = Math.max(parsed!, sendAt);
			}
			checkAttachment(b.attachment);
			if (
				b.onlySave !== true &&
				(!Array.isArray(b.sendListNames) || b.sendListNames.length === 0)
			) {
				fail(400, '缺少发送列表', 'sendListNames is required unless onlySave is true');
			}
			if (b.languageCode !== undefined && !LANGUAGE_CODES.includes(b.languageCode))
				fail(400, '语言代码错误', 'languageCode is not allowed');
			if (b.editorType !== undefined && !['CLASSIC', 'DRAG'].includes(b.editorType))
				fail(400, '编辑器类型错误', 'editorType must be CLASSIC or DRAG');
			if (b.replyTo !== undefined && !EMAIL.test(b.replyTo))
				fail(400, '回复地址格式错误', 'replyTo is not an email address');
			for (const name of b.sendListNames ?? [])
				if (!state.lists.has(name))
					fail(403, '发送列表不存在', `no list named ${name} (sendListNames)`);
			for (const name of b.repelListNames ?? [])
				if (!state.lists.has(name))
					fail(403, '排除列表不存在', `no list named ${name} (repelListNames)`);
			if (!state.senders.has(lower(b.senderMail)))
				fail(403, '发件人不存在', 'senderMail is not a sender of the account');
			if (state.duplicateMailNames === 'refuse' && byName(state, b.mailName))
				fail(400, '任务名称已存在', 'a task with this mailName exists');
			if (sandbox) return sandboxed();
			const fault = takeFault(SENDS);
			if (fault === 'createFailed') fail(500, '任务创建失败', 'task creation failed');
			const task: CampaignTask = {
				id: state.nextId(),
				guid: randomUUID(),
				mailName: b.mailName,
				subject: b.subject ?? '',
				mailContent: b.content ?? '',
				senderName: b.senderName ?? b.senderMail,
				senderMail: b.senderMail,
				replyTo: b.replyTo ?? '',
				rcptListNames: b.sendListNames ?? [],
				repelListNames: b.repelListNames ?? [],
				sendAt,
				mailStatus: b.onlySave === true ? -1 : 1,
				languageCode: b.languageCode ?? 'en',
				marketName: b.marketName ?? '',
				subscriptName: b.subscriptName ?? '',
				projectCode: b.projectCode ?? '',
				editorType: b.editorType ?? 'DRAG',
				attachmentName: b.attachment?.fileName,
				createdAt: state.now(),
			};
			state.tasks.set(task.guid, task);
			// Section 3, rule 3: these two failures come after the task exists, and it is kept.
			if (fault === 'attachFailed')
				fail(500, '附件上传失败', 'attaching the file failed; the task is kept');
			if (fault === 'checkFailed')
				fail(500, '任务审核失败', 'the task check failed; the task is kept');
			if (task.mailStatus === 1) delivery.taskStatus(task, 'Created');
			return ok({ id: task.id, guid: task.guid });
		},
	},
	'/v5/campaign/mail/cancel': {
		schema: {
			fields: { mailName: 'string', sandboxMode: 'boolean' },
			required: ['mailName'],
			sandbox: true,
		},
		handle: ({ state }, b, sandbox) => {
			const task = byName(state, b.mailName);
			if (!task) fail(403, '任务不存在', `no task named ${b.mailName}`);
			if (task!.mailStatus !== 1 || task!.sendAt <= state.now())
				fail(403, '任务已发送，无法取消', 'the task is not scheduled for a later time');
			if (sandbox) return sandboxed();
			task!.mailStatus = -1;
			return ok();
		},
	},
	'/v5/campaign/mail/get': {
		schema: {
			fields: {
				mailName: 'string',
				subject: 'string',
				senderMail: 'string',
				type: 'string',
				allTeam: 'boolean',
				...paging,
			},
			required: [],
			sandbox: false,
		},
		handle: ({ state }, b) => {
			const matches = (value: string, filter?: string) =>
				!filter || value.toLowerCase().includes(filter.toLowerCase());
			checkType(b.type);
			const found = [...state.tasks.values()]
				.filter(
					(t) =>
						matches(t.mailName, b.mailName) &&
						matches(t.subject, b.subject) &&
						matches(t.senderMail, b.senderMail),
				)
				.filter(() => !b.type || b.type === 'MailList')
				.sort((x, y) => y.createdAt - x.createdAt || y.id - x.id);
			return ok({
				...page(
					state,
					found.map((t) => taskView(state, t)),
					b,
					'mailList',
				),
			});
		},
	},
	'/v5/campaign/mail/delete': {
		schema: {
			fields: { mailName: 'string', sandboxMode: 'boolean' },
			required: ['mailName'],
			sandbox: true,
		},
		handle: ({ state }, b, sandbox) => {
			const task = byName(state, b.mailName);
			if (!task) fail(403, '任务不存在', `no task named ${b.mailName}`);
			if (sandbox) return sandboxed();
			state.tasks.delete(task!.guid);
			return ok();
		},
	},
	'/v5/campaign/mail/stats/get': {
		schema: {
			fields: { startDate: 'string', endDate: 'string', mailName: 'string', type: 'string' },
			required: ['startDate', 'endDate'],
			sandbox: false,
		},
		handle: ({ state }, b) => {
			const [start, end] = dayRange(b.startDate, b.endDate);
			checkType(b.type);
			const rows = [...state.tasks.values()]
				.filter((t) => t.mailStatus === 2 && t.sendAt >= start && t.sendAt < end + DAY_MS)
				.filter(
					(t) => !b.mailName || t.mailName.toLowerCase().includes(String(b.mailName).toLowerCase()),
				)
				.filter(() => !b.type || b.type === 'MailList')
				.map((t) => ({
					mailName: t.mailName,
					mailSendDate: t.sendAt,
					...campaignStats(state.events, t.guid),
				}));
			return ok({ mailStatsList: rows, totalRecords: rows.length });
		},
	},
};
