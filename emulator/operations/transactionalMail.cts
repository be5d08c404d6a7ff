/** Transactional mail (API 4.6): the batch of personalized mails, and the daily statistics. */
import { randomUUID } from 'node:crypto';

import { dailyStats } from '../delivery.cts';
import { trackedBody } from '../mailView.cts';
import { lower } from '../state.cts';
import { fail } from '../types.cts';
import {
	bytes,
	chars,
	checkAttachment,
	dayRange,
	EMAIL,
	ok,
	parseApiDateTime,
	sandboxed,
	type Handler,
	type Operation,
} from './common.cts';

const VERSION_FIELDS = ['to', 'cc', 'bcc', 'subject', 'content', 'templateName', 'params'];

/** A personalization tag as the platform reads it: {{name}}, spaces allowed inside the braces. */
const TAG = /\{\{\s*([\p{L}_][\p{L}\p{N}_]*(?:[.-][\p{L}\p{N}_]+)*)\s*\}\}/gu;

/**
 * A text with its tags filled from the message's values; the tags no value fills are added to `missing`.
 * 4.6 does not say what such a tag becomes: here it becomes nothing, and the send still succeeds.
 */
function fillTags(text: string, params: Record<string, unknown>, missing: Set<string>): string {
	return text.replace(TAG, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === null) {
			missing.add(name);
			return '';
		}
		return typeof value === 'object' ? JSON.stringify(value) : String(value);
	});
}

const send: Handler = ({ state, delivery }, b, sandbox) => {
	const versions = b.messageVersions as Array<Record<string, any>>;
	if (versions.length > 100)
		fail(400, '个性化内容超过100组', 'messageVersions has more than 100 entries');
	if (b.sendDate !== undefined && parseApiDateTime(b.sendDate) === undefined)
		fail(400, '发送时间格式错误', 'sendDate must be YYYY-MM-DDThh:mm:ssZ');
	for (const field of ['category', 'campaign'] as const) {
		if (b[field] !== undefined && (bytes(b[field]) > 100 || !/^[A-Za-z0-9]*$/.test(b[field])))
			fail(400, `${field}格式错误`, `${field} must be at most 100 bytes of letters and digits`);
	}
	if (b.uniqueMsgID !== undefined && bytes(b.uniqueMsgID) > 50)
		fail(400, 'uniqueMsgID过长', 'uniqueMsgID is longer than 50 bytes');
	if (b.senderName !== undefined && chars(b.senderName) > 200)
		fail(400, '发件人名称过长', 'senderName is longer than 200 characters');
	if (b.replyTo !== undefined && !EMAIL.test(b.replyTo))
		fail(400, '回复地址格式错误', 'replyTo fails the email format check');
	checkAttachment(b.attachment);
	const hasTopContent =
		(typeof b.content === 'string' && b.content !== '') ||
		(typeof b.templateName === 'string' && b.templateName !== '');
	let recipients = 0;
	versions.forEach((v, index) => {
		for (const key of Object.keys(v)) {
			if (!VERSION_FIELDS.includes(key))
				fail(
					400,
					`未知参数: messageVersions.${key}`,
					`unknown field messageVersions[${index}].${key}`,
				);
		}
		if (!Array.isArray(v.to) || v.to.length === 0)
			fail(400, '收件人为空', `messageVersions[${index}].to has no recipient`);
		for (const field of ['to', 'cc', 'bcc']) {
			if (v[field] === undefined) {
				if (field !== 'to' && state.options.requireCcBcc)
					fail(400, `缺少${field}`, `messageVersions[${index}].${field} is required`);
				continue;
			}
			if (!Array.isArray(v[field]))
				fail(400, `${field}格式错误`, `messageVersions[${index}].${field} must be an array`);
			if (v[field].length > 20)
				fail(
					400,
					`${field}超过20个`,
					`messageVersions[${index}].${field} has more than 20 recipients`,
				);
			for (const r of v[field]) {
				if (!r || typeof r.email !== 'string' || !r.email)
					fail(400, '收件人缺少邮箱', `a messageVersions[${index}].${field} entry has no email`);
				if (!EMAIL.test(r.email))
					fail(400, '收件人邮箱格式错误', `${r.email} is not an email address`);
				if (r.name !== undefined && chars(String(r.name)) > 100)
					fail(400, '收件人名称过长', 'a recipient name is longer than 100 characters');
				recipients++;
			}
		}
		if (v.params !== undefined && (typeof v.params !== 'object' || Array.isArray(v.params)))
			fail(400, 'params格式错误', `messageVersions[${index}].params must be an object`);
		if (v.templateName !== undefined && !state.templates.has(v.templateName))
			fail(400, '模板不存在', `messageVersions[${index}].templateName matches no template`);
		const versionContent =
			(v.content && v.content !== '') || (v.templateName && v.templateName !== '');
		if (!hasTopContent && !versionContent)
			fail(400, '缺少内容或模板', 'neither content nor templateName given');
		const subject =
			v.subject ??
			b.subject ??
			(v.templateName ? state.templates.get(v.templateName)?.templateSubject : undefined) ??
			(b.templateName ? state.templates.get(b.templateName)?.templateSubject : undefined);
		// A missing top-level template is the 403 below, not a missing subject.
		if (!subject && !(b.templateName && !state.templates.has(b.templateName)))
			fail(400, '缺少主题', `no subject for messageVersions[${index}]`);
	});
	if (!state.senders.has(lower(b.senderMail)))
		fail(403, '发件人未配置', 'senderMail is not a sender configured for the account');
	if (b.templateName && !state.templates.has(b.templateName))
		fail(403, '模板不存在', 'the top-level templateName matches no template');
	if (recipients > state.credits) fail(403, '邮件余额不足', 'the account has too few mail credits');
	if (sandbox) return sandboxed();
	state.credits -= recipients;
	const identity = {
		guid: randomUUID(),
		mailName: b.campaign ?? '',
		sender: b.senderMail,
		eventType: '3',
		sentMailListName: `${b.category ?? ''}||${b.campaign ?? ''}`,
		uniqueMsgID: b.uniqueMsgID ?? '',
	};
	// Precedence (a choice; 4.6 says a top-level templateName is used over content): the version's
	// templateName, then the top-level templateName, then the version's content, then the top-level content.
	versions.forEach((v) => {
		const templateName = v.templateName ?? b.templateName;
		const subject =
			v.subject ??
			b.subject ??
			(templateName ? state.templates.get(templateName)?.templateSubject : undefined) ??
			'';
		const source = templateName ? { templateName } : { content: v.content ?? b.content };
		const params = b.params || v.params ? { ...(b.params ?? {}), ...(v.params ?? {}) } : undefined;
		const body = templateName
			? (state.templates.get(templateName)?.templateContent ?? '')
			: String(v.content ?? b.content ?? '');
		const missing = new Set<string>();
		const finalSubject = fillTags(subject, params ?? {}, missing);
		const filled = fillTags(body, params ?? {}, missing);
		const tracking =
			b.trackClick === 1 || (b.trackClick === undefined && state.clickTrackingByDefault);
		for (const field of ['to', 'cc', 'bcc']) {
			for (const r of v[field] ?? []) {
				const trackedLinks: string[] = [];
				const html = tracking ? trackedBody(filled, state.mails.length, trackedLinks) : filled;
				state.mails.push({
					email: r.email,
					subject: finalSubject,
					...source,
					...(params ? { params } : {}),
					...(missing.size > 0 ? { missingTags: [...missing] } : {}),
					uniqueMsgID: b.uniqueMsgID ?? '',
					html,
					...(trackedLinks.length > 0 ? { trackedLinks } : {}),
					identity,
				});
			}
		}
	});
	const sendAt = b.sendDate ? Math.max(parseApiDateTime(b.sendDate)!, state.now()) : state.now();
	state.scheduledMails.push({
		guid: identity.guid,
		sendAt,
		senderMail: b.senderMail,
		mailName: identity.mailName,
		sentMailListName: identity.sentMailListName,
		uniqueMsgID: identity.uniqueMsgID,
		recipients: versions.flatMap((v, version) =>
			['to', 'cc', 'bcc'].flatMap((f) =>
				(v[f] ?? []).map((r: { email: string }) => ({ email: r.email, version })),
			),
		),
	});
	if (!b.sendDate) delivery.processDue();
	return ok();
};

export const transactionalMail: Record<string, Operation> = {
	'/v5/transactional/mail/sends_customised': {
		schema: {
			fields: {
				subject: 'string',
				content: 'string',
				templateName: 'string',
				params: 'object',
				senderMail: 'string',
				senderName: 'string',
				replyTo: 'string',
				sendDate: 'string',
				messageVersions: 'object[]',
				category: 'string',
				campaign: 'string',
				trackOpen: 'int',
				trackClick: 'int',
				uniqueMsgID: 'string',
				attachment: 'object',
				sandboxMode: 'boolean',
			},
			required: ['senderMail', 'messageVersions'],
			sandbox: true,
		},
		handle: send,
	},
	'/v5/transactional/mail/stats/get': {
		schema: {
			fields: { startDate: 'string', endDate: 'string' },
			required: ['startDate', 'endDate'],
			sandbox: false,
		},
		handle: ({ state }, b) => {
			const [start, end] = dayRange(b.startDate, b.endDate);
			return ok({ mailStatsList: dailyStats(state.events, start, end) });
		},
	},
};
