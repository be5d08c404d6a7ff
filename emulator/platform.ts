/**
 * In-memory state and business rules of the emulated platform. Every handler validates first and
 * changes state last, so sandbox mode can stop right before the first change.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import type { EmulatorEvent } from './events';

export interface ApiAnswer {
	code: number;
	message: string;
	[key: string]: unknown;
}

export class ApiFailure extends Error {
	constructor(
		readonly code: number,
		readonly zh: string,
		readonly en: string,
	) {
		super(en);
	}
}

const fail = (code: number, zh: string, en: string): never => {
	throw new ApiFailure(code, zh, en);
};

export interface Sender {
	fromDomain: string;
	mxStatus: number;
	spfStatus: number;
	dkimStatus: number;
	dmarcStatus: number;
	isValidate: number;
	isServiceDomain: number;
	senderType: number;
}

export interface Template {
	templateName: string;
	templateContent: string;
	templateSubject: string;
	editorType: string;
	createdAt: number;
}

export interface Contact {
	id: string;
	name: string;
	email?: string;
	phoneNumber?: string;
	properties: Record<string, unknown>;
	createdAt: number;
	modifiedAt: number;
	lists: Set<string>;
}

export interface ContactList {
	id: number;
	listName: string;
	listDescription: string;
	createdAt: number;
	modifiedAt: number;
}

export interface CampaignTask {
	id: number;
	guid: string;
	mailName: string;
	subject: string;
	mailContent: string;
	senderName: string;
	senderMail: string;
	replyTo: string;
	rcptListNames: string[];
	repelListNames: string[];
	sendAt: number;
	mailStatus: number;
	languageCode: string;
	marketName: string;
	subscriptName: string;
	projectCode: string;
	editorType: string;
	attachmentName?: string;
	createdAt: number;
}

export interface WebhookConfig {
	transEvent: Record<string, boolean> | null;
	transCallbackUrl: string | null;
	transCallbackUrlExtra: Array<{ sender: string; url: string }> | null;
	transEnable: boolean | null;
}

export interface DnsRecord {
	mx: boolean;
	spf: boolean;
	dmarc: boolean;
	dkimSelectors: string[];
}

/** One transactional request waiting for its send time. */
interface ScheduledMail {
	guid: string;
	sendAt: number;
	recipients: Array<{ email: string; version: number }>;
	senderMail: string;
	mailName: string;
	sentMailListName: string;
	uniqueMsgID: string;
}

/**
 * Campaign creation faults (section 7.1); for any path, `network`: the next request gets no answer,
 * and `internalError`: the next request is processed, then answered 500.
 */
export type Fault = 'createFailed' | 'attachFailed' | 'checkFailed' | 'network' | 'internalError';

export const LANGUAGE_CODES = ['zh-cn', 'en', 'ja', 'ko', 'de', 'tt', 'es', 'zh-tw', 'ar', 'pt-br', 'id', 'vi', 'th', 'fr'];
const EVENT_KINDS = ['dropped', 'bounced', 'delivered', 'spamReport', 'opened', 'clicked', 'unsubscribed'];
const API_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HTTP_URL = /^https?:\/\/\S+$/i;
const DAY_MS = 86_400_000;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const chars = (text: string) => [...text].length;
const lower = (text: string) => text.trim().toLowerCase();
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function parseApiDateTime(value: string): number | undefined {
	const match = API_DATE_TIME.exec(value);
	if (!match) return undefined;
	const time = Date.UTC(+match[1], +match[2] - 1, +match[3], +match[4], +match[5], +match[6]);
	const check = new Date(time);
	return check.getUTCDate() === +match[3] && check.getUTCMonth() === +match[2] - 1 ? time : undefined;
}

function parseDay(value: string): number | undefined {
	if (!DAY.test(value)) return undefined;
	const time = Date.parse(`${value}T00:00:00Z`);
	return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value ? undefined : time;
}

export interface PlatformOptions {
	/** Wall-clock zone of event time fields and of template createDate; the spec does not say. */
	timeZoneOffsetMinutes: number;
	/** Require cc and bcc in every message version (the table marks them required). */
	requireCcBcc: boolean;
}

export class Platform {
	clockOffsetMs = 0;
	credits = 1_000_000;
	senders = new Map<string, Sender>();
	templates = new Map<string, Template>();
	contacts = new Map<string, Contact>();
	lists = new Map<string, ContactList>();
	tasks = new Map<string, CampaignTask>();
	webhook: WebhookConfig = { transEvent: null, transCallbackUrl: null, transCallbackUrlExtra: null, transEnable: null };
	dns = new Map<string, DnsRecord>();
	faults: Array<{ path: string; fault: Fault }> = [];
	/** The largest page a search answers, whatever pageSize asks (0: no cap); totalRecords stays true. */
	pageSizeCap = 0;
	/** Every message accepted by a transactional send: recipient, subject and the content that won. */
	mails: Array<{ email: string; subject: string; templateName?: string; content?: string; uniqueMsgID: string }> = [];
	/** webhook/save with a null field: saved as "nothing configured" (default) or refused with 400. */
	webhookNull: 'accept' | 'refuse' = 'accept';
	/** Every event produced, in order; reports are computed from it. */
	events: EmulatorEvent[] = [];
	unsubscribed = new Set<string>();
	hardBounced = new Set<string>();
	private scheduledMails: ScheduledMail[] = [];
	private lastMailTo = new Map<string, { guid: string; mailName: string; sender: string; eventType: string; sentMailListName: string; uniqueMsgID: string }>();
	private nextId = 1000;
	private mailSeq = 0n;

	constructor(
		private readonly options: PlatformOptions,
		private readonly emit: (event: EmulatorEvent, sender: string) => void,
	) {}

	now(): number {
		return Date.now() + this.clockOffsetMs;
	}

	/** `yyyy-MM-dd HH:mm:ss` in the configured zone, as the platform's event fields. */
	wallTime(time: number, withMillis = false): string {
		const d = new Date(time + this.options.timeZoneOffsetMinutes * 60_000);
		const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
		return withMillis ? `${base}.${pad(d.getUTCMilliseconds(), 3)}` : base;
	}

	seed() {
		const now = this.now();
		this.senders.set('sender@example.com', {
			fromDomain: 'sender@example.com', mxStatus: 1, spfStatus: 1, dkimStatus: 1, dmarcStatus: 1,
			isValidate: 1, isServiceDomain: 0, senderType: 2,
		});
		this.senders.set('news@example.com', {
			fromDomain: 'news@example.com', mxStatus: 1, spfStatus: 1, dkimStatus: 1, dmarcStatus: 1,
			isValidate: 1, isServiceDomain: 0, senderType: 1,
		});
		this.dns.set('example.com', { mx: true, spf: true, dmarc: true, dkimSelectors: ['default'] });
		this.templates.set('welcome', {
			templateName: 'welcome', templateSubject: 'Welcome, {{name}}',
			templateContent: '<p>Hello {{name}}, welcome aboard.</p>', editorType: 'DRAG', createdAt: now,
		});
		this.lists.set('newsletter', { id: this.nextId++, listName: 'newsletter', listDescription: 'Seeded list', createdAt: now, modifiedAt: now });
		for (const [name, email] of [['Ada', 'ada@example.org'], ['Grace', 'grace@example.org']]) {
			this.contacts.set(email, {
				id: String(this.nextId++), name, email, properties: {}, createdAt: now, modifiedAt: now,
				lists: new Set(['newsletter']),
			});
		}
	}

	// ---- helpers ------------------------------------------------------------------------------

	takeFault(path: string, only?: Fault): Fault | undefined {
		const index = this.faults.findIndex((f) => f.path === path && (only === undefined || f.fault === only));
		return index === -1 ? undefined : this.faults.splice(index, 1)[0].fault;
	}

	private nextMailSeqId(): string {
		this.mailSeq += 1n;
		return (2505070900222412710n + this.mailSeq).toString();
	}

	private contactsOfList(listName: string): Contact[] {
		return [...this.contacts.values()].filter((c) => c.lists.has(listName));
	}

	private checkAttachment(attachment: unknown) {
		if (attachment === undefined) return;
		const a = attachment as Record<string, unknown>;
		if (typeof a.fileName !== 'string' || !a.fileName || typeof a.fileData !== 'string' || !a.fileData) {
			fail(400, '附件缺少文件名或文件内容', 'attachment needs fileName and fileData');
		}
		if (!/^[A-Za-z0-9+/]*={0,2}$/.test(a.fileData as string)) fail(400, '附件内容不是base64', 'attachment fileData is not base64');
	}

	private ok(extra: Record<string, unknown> = {}, message = 'success'): ApiAnswer {
		return { code: 200, message, ...extra };
	}

	/** Outcome of one recipient by the documented rules (README, "Emulator rules"). */
	private deliveryEvent(email: string): { code: string; extra: Record<string, string> } {
		const local = lower(email).split('@')[0];
		if (this.unsubscribed.has(lower(email))) return { code: 'Dropped', extra: { Reason: '210' } };
		if (this.hardBounced.has(lower(email))) return { code: 'Dropped', extra: { Reason: '110' } };
		if (local === 'filtered') return { code: 'Dropped', extra: { Reason: '111' } };
		if (local === 'expired') return { code: 'Dropped', extra: { Reason: '112' } };
		if (local === 'bounce') {
			return { code: 'Bounced', extra: { Reason: '100', FailedCause: Buffer.from('550 5.1.1 <' + email + '>: user unknown').toString('base64') } };
		}
		if (local === 'soft') {
			return { code: 'Bounced', extra: { Reason: '101', FailedCause: Buffer.from('452 4.2.2 mailbox full').toString('base64') } };
		}
		return { code: 'Delivered', extra: { ReceiveServer: `mx.${lower(email).split('@')[1] ?? 'example.org'}` } };
	}

	private produce(
		email: string,
		mail: { guid: string; mailName: string; sender: string; eventType: string; sentMailListName: string; uniqueMsgID: string },
		submittedAt: number,
	) {
		const now = this.now();
		const outcome = this.deliveryEvent(email);
		const event: EmulatorEvent = {
			EventCode: outcome.code,
			Email: email,
			EventType: mail.eventType,
			SentMailListName: mail.sentMailListName,
			TriggeredDateTimeV2: this.wallTime(now),
			UniqueMsgID: mail.uniqueMsgID,
			Guid: mail.guid,
			MailName: mail.mailName,
			MailSeqId: this.nextMailSeqId(),
			...outcome.extra,
		};
		if (outcome.code !== 'Opened') event.SenderEmail = mail.sender;
		if (outcome.code !== 'Dropped') event.SubmitDateTimeV2 = this.wallTime(submittedAt);
		if (outcome.code === 'Bounced' && outcome.extra.Reason === '100') this.hardBounced.add(lower(email));
		if (outcome.code === 'Delivered') this.lastMailTo.set(lower(email), { ...mail });
		this.record(event, mail.sender, now);
	}

	private record(event: EmulatorEvent, sender: string, at: number) {
		this.events.push({ ...event, __at: at, __sender: sender });
		this.emit(event, sender);
	}

	private taskStatus(task: CampaignTask, status: 'Created' | 'Completed') {
		const now = this.now();
		const event: EmulatorEvent = {
			EventCode: 'TaskStatus', StatusCode: status, Creator: 'emulator', MailName: task.mailName, Guid: task.guid,
			TriggeredDateTimeV2: this.wallTime(now), SentMailListName: '', UniqueMsgID: '',
		};
		if (status === 'Completed') {
			Object.assign(event, {
				LanguageCode: task.languageCode, MarketName: task.marketName, SubscriptName: task.subscriptName,
				ProjectCode: task.projectCode, Description: task.subject,
			});
		}
		this.record(event, task.senderMail, now);
	}

	/** Runs what is due by the emulated clock: scheduled campaigns and transactional mails. */
	processDue() {
		const now = this.now();
		for (const task of this.tasks.values()) {
			if (task.mailStatus !== 1 || task.sendAt > now) continue;
			const excluded = new Set(task.repelListNames.flatMap((l) => this.contactsOfList(l)).map((c) => c.email && lower(c.email)));
			const recipients = new Map<string, string>();
			for (const listName of task.rcptListNames) {
				for (const c of this.contactsOfList(listName)) {
					if (c.email && !excluded.has(lower(c.email))) recipients.set(lower(c.email), c.email);
				}
			}
			const mail = { guid: task.guid, mailName: task.mailName, sender: task.senderMail, eventType: '5', sentMailListName: '', uniqueMsgID: '' };
			for (const email of recipients.values()) this.produce(email, mail, task.sendAt);
			task.mailStatus = 2;
			this.taskStatus(task, 'Completed');
		}
		const due = this.scheduledMails.filter((m) => m.sendAt <= now);
		this.scheduledMails = this.scheduledMails.filter((m) => m.sendAt > now);
		for (const m of due) {
			const mail = { guid: m.guid, mailName: m.mailName, sender: m.senderMail, eventType: '3', sentMailListName: m.sentMailListName, uniqueMsgID: m.uniqueMsgID };
			for (const r of m.recipients) this.produce(r.email, mail, m.sendAt);
		}
	}

	/** Control interface: an engagement event on the last mail delivered to `email`. */
	causeEvent(kind: string, email: string, extra: Record<string, string> = {}): EmulatorEvent {
		const mail = this.lastMailTo.get(lower(email));
		if (!mail) fail(400, '没有投递给该地址的邮件', `no mail was delivered to ${email}`);
		const m = mail!;
		const now = this.now();
		const event: EmulatorEvent = {
			EventCode: kind, Email: email, EventType: m.eventType, SentMailListName: m.sentMailListName,
			TriggeredDateTimeV2: this.wallTime(now), UniqueMsgID: m.uniqueMsgID, Guid: m.guid, MailName: m.mailName,
			MailSeqId: this.nextMailSeqId(),
		};
		const client = { SubmitDateTimeV2: this.wallTime(now - 60_000), DeliveredTimeV2: this.wallTime(now - 30_000), IP: '203.0.113.7', Platform: 'Windows', BrowserType: 'Chrome', UA: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0' };
		if (kind === 'Opened') Object.assign(event, client);
		else if (kind === 'Clicked') Object.assign(event, client, { Link: extra.Link ?? 'https://example.org/offer' });
		else if (kind === 'Unsubscribed') {
			Object.assign(event, { Reason: extra.Reason ?? 'no longer interested' });
			this.unsubscribed.add(lower(email));
		} else if (kind === 'SpamReport') Object.assign(event, { SenderEmail: m.sender });
		else fail(400, '不支持的事件类型', `events of kind ${kind} are caused by sends, not by the control interface`);
		this.record(event, m.sender, now);
		return event;
	}

	// ---- operations ----------------------------------------------------------------------------

	handle(path: string, body: Record<string, unknown>, sandbox: boolean): ApiAnswer {
		this.processDue();
		const handler = this.handlers[path];
		return handler(body, sandbox);
	}

	private handlers: Record<string, (body: Record<string, any>, sandbox: boolean) => ApiAnswer> = {
		'/v5/campaign/mail/sends': (b, sandbox) => {
			const path = '/v5/campaign/mail/sends';
			if (chars(b.mailName) > 200) fail(400, '任务名称过长', 'mailName is longer than 200 characters');
			if (b.subject !== undefined && chars(b.subject) > 400) fail(400, '主题过长', 'subject is longer than 400 characters');
			let sendAt = this.now();
			if (b.sendDate !== undefined) {
				const parsed = parseApiDateTime(b.sendDate);
				if (parsed === undefined) fail(400, '发送时间格式错误', 'sendDate must be YYYY-MM-DDThh:mm:ssZ');
				sendAt = Math.max(parsed!, sendAt);
			}
			this.checkAttachment(b.attachment);
			if (b.onlySave !== true && (!Array.isArray(b.sendListNames) || b.sendListNames.length === 0)) {
				fail(400, '缺少发送列表', 'sendListNames is required unless onlySave is true');
			}
			if (b.languageCode !== undefined && !LANGUAGE_CODES.includes(b.languageCode)) fail(400, '语言代码错误', 'languageCode is not allowed');
			if (b.editorType !== undefined && !['CLASSIC', 'DRAG'].includes(b.editorType)) fail(400, '编辑器类型错误', 'editorType must be CLASSIC or DRAG');
			if (b.replyTo !== undefined && !EMAIL.test(b.replyTo)) fail(400, '回复地址格式错误', 'replyTo is not an email address');
			for (const name of b.sendListNames ?? []) if (!this.lists.has(name)) fail(403, '发送列表不存在', `no list named ${name} (sendListNames)`);
			for (const name of b.repelListNames ?? []) if (!this.lists.has(name)) fail(403, '排除列表不存在', `no list named ${name} (repelListNames)`);
			if (!this.senders.has(lower(b.senderMail))) fail(403, '发件人不存在', 'senderMail is not a sender of the account');
			if ([...this.tasks.values()].some((t) => t.mailName === b.mailName)) fail(400, '任务名称已存在', 'a task with this mailName exists');
			if (sandbox) return this.ok({}, '');
			const fault = this.takeFault(path);
			if (fault === 'createFailed') fail(500, '任务创建失败', 'task creation failed');
			const task: CampaignTask = {
				id: this.nextId++, guid: randomUUID(), mailName: b.mailName, subject: b.subject ?? '', mailContent: b.content ?? '',
				senderName: b.senderName ?? b.senderMail, senderMail: b.senderMail, replyTo: b.replyTo ?? '',
				rcptListNames: b.sendListNames ?? [], repelListNames: b.repelListNames ?? [], sendAt,
				mailStatus: b.onlySave === true ? -1 : 1, languageCode: b.languageCode ?? 'en', marketName: b.marketName ?? '',
				subscriptName: b.subscriptName ?? '', projectCode: b.projectCode ?? '', editorType: b.editorType ?? 'DRAG',
				attachmentName: b.attachment?.fileName, createdAt: this.now(),
			};
			this.tasks.set(task.guid, task);
			if (fault === 'attachFailed') fail(500, '附件上传失败', 'attaching the file failed; the task is kept');
			if (fault === 'checkFailed') fail(500, '任务审核失败', 'the task check failed; the task is kept');
			if (task.mailStatus === 1) this.taskStatus(task, 'Created');
			return this.ok({ id: task.id, guid: task.guid });
		},
		'/v5/campaign/mail/cancel': (b, sandbox) => {
			const task = [...this.tasks.values()].find((t) => t.mailName === b.mailName);
			if (!task) fail(403, '任务不存在', `no task named ${b.mailName}`);
			if (task!.mailStatus !== 1 || task!.sendAt <= this.now()) fail(403, '任务已发送，无法取消', 'the task is not scheduled for a later time');
			if (sandbox) return this.ok({}, '');
			task!.mailStatus = -1;
			return this.ok();
		},
		'/v5/campaign/mail/get': (b) => {
			const matches = (value: string, filter?: string) => !filter || value.toLowerCase().includes(filter.toLowerCase());
			if (b.type !== undefined && !['MailList', 'ABTest'].includes(b.type)) fail(400, '类型错误', 'type must be MailList or ABTest');
			const found = [...this.tasks.values()]
				.filter((t) => matches(t.mailName, b.mailName) && matches(t.subject, b.subject) && matches(t.senderMail, b.senderMail))
				.filter((t) => !b.type || b.type === 'MailList')
				.sort((x, y) => y.createdAt - x.createdAt || y.id - x.id);
			return this.ok({ ...this.page(found.map((t) => this.taskView(t)), b, 'mailList') });
		},
		'/v5/campaign/mail/delete': (b, sandbox) => {
			const task = [...this.tasks.values()].find((t) => t.mailName === b.mailName);
			if (!task) fail(403, '任务不存在', `no task named ${b.mailName}`);
			if (sandbox) return this.ok({}, '');
			this.tasks.delete(task!.guid);
			return this.ok();
		},
		'/v5/campaign/mail/stats/get': (b) => {
			const [start, end] = this.dayRange(b.startDate, b.endDate);
			if (b.type !== undefined && !['MailList', 'ABTest'].includes(b.type)) fail(400, '类型错误', 'type must be MailList or ABTest');
			const rows = [...this.tasks.values()]
				.filter((t) => t.mailStatus === 2 && t.sendAt >= start && t.sendAt < end + DAY_MS)
				.filter((t) => !b.mailName || t.mailName.toLowerCase().includes(String(b.mailName).toLowerCase()))
				.filter((t) => !b.type || b.type === 'MailList')
				.map((t) => ({ mailName: t.mailName, mailSendDate: t.sendAt, ...this.stats(t.guid) }));
			return this.ok({ mailStatsList: rows, totalRecords: rows.length });
		},
		'/v5/campaign/mail/template/add': (b) => {
			if (chars(b.templateName) > 250) fail(400, '模板名称过长', 'templateName is longer than 250 characters');
			if (b.editorType !== undefined && !['CLASSIC', 'DRAG'].includes(b.editorType)) fail(400, '编辑器类型错误', 'editorType must be CLASSIC or DRAG');
			if (this.templates.has(b.templateName)) fail(400, '模板名称已存在', 'a template with this name exists');
			this.templates.set(b.templateName, {
				templateName: b.templateName, templateContent: b.templateContent, templateSubject: b.templateSubject,
				editorType: b.editorType ?? 'DRAG', createdAt: this.now(),
			});
			return this.ok();
		},
		'/v5/campaign/mail/template/get': (b) => {
			const found = [...this.templates.values()]
				.filter((t) => !b.templateName || t.templateName.toLowerCase().includes(String(b.templateName).toLowerCase()))
				.sort((x, y) => y.createdAt - x.createdAt || x.templateName.localeCompare(y.templateName))
				.map((t) => ({ templateName: t.templateName, templateContent: t.templateContent, templateSubject: t.templateSubject, createDate: this.wallTime(t.createdAt, true) }));
			return this.ok({ ...this.page(found, b, 'templateList') });
		},
		'/v5/campaign/mail/template/delete': (b) => {
			if (!this.templates.delete(b.templateName)) fail(403, '模板不存在', `no template named ${b.templateName}`);
			return this.ok();
		},
		'/v5/contacts/upsert': (b, sandbox) => {
			if (!b.email && !b.phoneNumber) fail(400, '邮箱和手机号至少填写一个', 'email or phoneNumber is required');
			if (b.email && !EMAIL.test(b.email)) fail(400, '邮箱格式错误', 'email is not an email address');
			if (b.listName && !this.lists.has(b.listName)) fail(403, '列表不存在', `no list named ${b.listName}`);
			if (sandbox) return this.ok({}, '');
			const contact = this.upsertContact({ email: b.email, phoneNumber: b.phoneNumber, name: b.name }, 1);
			if (contact && b.listName) this.addToList(contact, b.listName);
			return this.ok();
		},
		'/v5/contacts/imports': (b, sandbox) => {
			const mapping = b.contactDataMapping as Array<Record<string, unknown>>;
			for (const entry of mapping) {
				if (!Number.isInteger(entry.columnNum) || (entry.columnNum as number) < 0) fail(400, '列号错误', 'contactDataMapping.columnNum must be an integer from 0');
				if (typeof entry.propertyName !== 'string' || !entry.propertyName) fail(400, '缺少属性名', 'contactDataMapping.propertyName is required');
			}
			const names = mapping.map((m) => m.propertyName as string);
			if (!names.includes('email') && !names.includes('phoneNumber')) fail(400, '邮箱和手机号不能都未映射', 'email and phoneNumber must not both be unmapped');
			if (![1, 2, 3].includes(b.updateMode)) fail(400, '更新模式错误', 'updateMode must be 1, 2 or 3');
			if (new Set(names).size !== names.length) fail(400, '属性重复映射', 'a propertyName is mapped twice');
			// Every row is checked before anything is imported: a bad row refuses the whole request.
			(b.contactData as unknown[][]).forEach((row, index) => {
				const cell = (name: string) => row[mapping.find((m) => m.propertyName === name)?.columnNum as number];
				if (row.some((value) => value === null || (typeof value === 'object' && value !== undefined))) fail(400, '数据值无效', `contactData[${index}] has a null or object value`);
				const email = cell('email');
				const phone = cell('phoneNumber');
				if ((email === undefined || email === '') && (phone === undefined || phone === '')) fail(400, '邮箱和手机号至少填写一个', `contactData[${index}] has neither email nor phoneNumber`);
				if (email !== undefined && email !== '' && !EMAIL.test(String(email))) fail(400, '邮箱格式错误', `contactData[${index}] email is not an email address`);
			});
			if (sandbox) return this.ok({}, '');
			if (b.listName && !this.lists.has(b.listName)) {
				const now = this.now();
				this.lists.set(b.listName, { id: this.nextId++, listName: b.listName, listDescription: b.listDescription ?? '', createdAt: now, modifiedAt: now });
			}
			for (const row of b.contactData as unknown[][]) {
				const values: Record<string, unknown> = {};
				for (const m of mapping) values[m.propertyName as string] = row[m.columnNum as number];
				const { email, phoneNumber, name, ...properties } = values;
				const contact = this.upsertContact({ email: email as string, phoneNumber: phoneNumber as string, name: name as string, properties }, b.updateMode);
				if (contact && b.listName) this.addToList(contact, b.listName);
			}
			return this.ok();
		},
		'/v5/contacts/get': (b) => {
			const contact = this.contacts.get(lower(b.email));
			if (!contact) fail(403, '联系人不存在', `no contact with email ${b.email}`);
			return this.ok({ contact: this.contactView(contact!) });
		},
		'/v5/contacts/delete': (b, sandbox) => {
			if (!this.contacts.has(lower(b.email))) fail(403, '联系人不存在', `no contact with email ${b.email}`);
			if (sandbox) return this.ok({}, '');
			this.contacts.delete(lower(b.email));
			return this.ok();
		},
		'/v5/lists/add': (b, sandbox) => {
			if (this.lists.has(b.listName)) fail(400, '列表已存在', 'a list with this name exists');
			if (sandbox) return this.ok({}, '');
			const now = this.now();
			this.lists.set(b.listName, { id: this.nextId++, listName: b.listName, listDescription: b.listDescription ?? '', createdAt: now, modifiedAt: now });
			return this.ok();
		},
		'/v5/lists/get': (b) => {
			if (b.listType !== undefined && !['0', '1'].includes(String(b.listType))) fail(400, '列表类型错误', 'listType must be 0 or 1');
			if (b.sort !== undefined && !['CreateDate', 'ModifyDate'].includes(b.sort)) fail(400, '排序字段错误', 'sort must be CreateDate or ModifyDate');
			const key = b.sort === 'ModifyDate' ? 'modifiedAt' : 'createdAt';
			const found = [...this.lists.values()]
				.filter((l) => !b.search || l.listName.toLowerCase().includes(String(b.search).toLowerCase()))
				.filter(() => b.listType === undefined || String(b.listType) === '1')
				.sort((x, y) => y[key] - x[key] || y.id - x.id)
				.map((l) => ({
					Id: String(l.id), TeamId: '1', listName: l.listName, ListStatus: 1, ListType: 1, ListFilters: '',
					CreateUserId: '1', CreateDate: new Date(l.createdAt).toISOString(), ModifyDate: new Date(l.modifiedAt).toISOString(),
				}));
			return this.ok({ ...this.page(found, b, 'lists') });
		},
		'/v5/lists/delete': (b, sandbox) => {
			if (!this.lists.has(b.listName)) fail(403, '列表不存在', `no list named ${b.listName}`);
			if (sandbox) return this.ok({}, '');
			this.lists.delete(b.listName);
			for (const c of this.contacts.values()) c.lists.delete(b.listName);
			return this.ok();
		},
		'/v5/verified_senders/get': (b) => {
			const all = [...this.senders.values()];
			return this.ok({ mailFromDomains: b.senderEmail ? all.filter((s) => s.fromDomain === lower(b.senderEmail)) : all });
		},
		'/v5/verified_senders/add': (b, sandbox) => {
			const email = lower(b.senderEmail);
			const domain = email.includes('@') ? email.split('@')[1] : email;
			if (!EMAIL.test(email) || !domain.includes('.')) fail(400, '发件人地址错误', 'senderEmail must be an address whose domain is not a top-level domain');
			if (!['1', '2'].includes(String(b.senderType))) fail(400, '发件人类型错误', 'senderType must be 1 or 2');
			if (this.senders.has(email)) fail(400, '发件人已存在', 'this sender exists');
			if (sandbox) return this.ok({}, '');
			this.senders.set(email, { fromDomain: email, mxStatus: 0, spfStatus: 0, dkimStatus: 0, dmarcStatus: 0, isValidate: 0, isServiceDomain: 0, senderType: Number(b.senderType) });
			return this.ok();
		},
		'/v5/verified_senders/verify': (b) => {
			const target = lower(b.fromDomain);
			const domain = target.includes('@') ? target.split('@')[1] : target;
			const senders = [...this.senders.values()].filter((s) => s.fromDomain === target || s.fromDomain.split('@')[1] === domain);
			if (senders.length === 0) fail(403, '发件人不存在', `no sender for ${b.fromDomain}`);
			const dns = this.dns.get(domain) ?? { mx: false, spf: false, dmarc: false, dkimSelectors: [] };
			const result = { goodMX: dns.mx, goodSPF: dns.spf, goodDKIM: dns.dkimSelectors.includes(b.selector), goodDMARC: dns.dmarc };
			const valid = result.goodMX && result.goodSPF && result.goodDKIM && result.goodDMARC;
			for (const s of senders) {
				Object.assign(s, { mxStatus: +result.goodMX, spfStatus: +result.goodSPF, dkimStatus: +result.goodDKIM, dmarcStatus: +result.goodDMARC, isValidate: +valid });
			}
			return this.ok({ valid, ...result });
		},
		'/v5/verified_senders/delete': (b, sandbox) => {
			if (!this.senders.has(lower(b.senderEmail))) fail(403, '发件人不存在', `no sender ${b.senderEmail}`);
			if (sandbox) return this.ok({}, '');
			this.senders.delete(lower(b.senderEmail));
			return this.ok();
		},
		'/v5/transactional/mail/sends_customised': (b, sandbox) => this.sendTransactional(b, sandbox),
		'/v5/transactional/mail/stats/get': (b) => {
			const [start, end] = this.dayRange(b.startDate, b.endDate);
			const days = new Map<string, Record<string, number>>();
			for (const e of this.events) {
				if (e.EventType !== '3' || (e.__at as number) < start || (e.__at as number) >= end + DAY_MS) continue;
				const day = new Date(e.__at as number).toISOString().slice(0, 10);
				const row = days.get(day) ?? { sentCount: 0, openCount: 0, clickCount: 0, bounceCount: 0, unsentCount: 0, unsubscribeCount: 0 };
				if (e.EventCode === 'Delivered' || e.EventCode === 'Bounced') row.sentCount++;
				if (e.EventCode === 'Dropped') row.unsentCount++;
				if (e.EventCode === 'Bounced' && e.Reason === '101') row.bounceCount++;
				if (e.EventCode === 'Opened') row.openCount++;
				if (e.EventCode === 'Clicked') row.clickCount++;
				if (e.EventCode === 'Unsubscribed') row.unsubscribeCount++;
				days.set(day, row);
			}
			const rows = [...days.entries()].sort(([x], [y]) => x.localeCompare(y)).map(([statsDate, row]) => ({ statsDate, ...row }));
			return this.ok({ mailStatsList: rows });
		},
		'/v5/webhook/get': () => this.ok({ ...this.webhook }),
		'/v5/webhook/save': (b) => {
			// "Only fields that are sent are saved": a field sent as null is saved as null (nothing configured),
			// unless the emulator plays a platform that refuses null.
			if (this.webhookNull === 'refuse' && Object.values(b).some((value) => value === null)) fail(400, '参数不能为空', 'a field is null');
			if (b.transCallbackUrl !== undefined && b.transCallbackUrl !== null && !HTTP_URL.test(b.transCallbackUrl)) fail(400, '回调地址格式错误', 'transCallbackUrl must start with http:// or https://');
			for (const [key, value] of Object.entries(b.transEvent ?? {})) {
				if (!EVENT_KINDS.includes(key)) fail(400, `未知事件类型: ${key}`, `transEvent has no kind ${key}`);
				if (typeof value !== 'boolean') fail(400, '事件开关必须是布尔值', `transEvent.${key} must be true or false`);
			}
			for (const entry of b.transCallbackUrlExtra ?? []) {
				if (typeof entry.sender !== 'string' || !entry.sender) fail(400, '缺少发件人', 'transCallbackUrlExtra.sender is required');
				if (typeof entry.url !== 'string' || !HTTP_URL.test(entry.url)) fail(400, '回调地址格式错误', 'transCallbackUrlExtra.url must start with http:// or https://');
			}
			const mode = b.transCallbackUrlExtraUpdateMode ?? 'save';
			if (!['save', 'replace'].includes(mode)) fail(400, '更新模式错误', 'transCallbackUrlExtraUpdateMode must be save or replace');
			if (b.transEvent === null) this.webhook.transEvent = null;
			else if (b.transEvent !== undefined) {
				const base = this.webhook.transEvent ?? Object.fromEntries(EVENT_KINDS.map((k) => [k, false]));
				this.webhook.transEvent = { ...base, ...b.transEvent };
			}
			if (b.transCallbackUrl !== undefined) this.webhook.transCallbackUrl = b.transCallbackUrl;
			if (b.transEnable !== undefined) this.webhook.transEnable = b.transEnable;
			if (b.transCallbackUrlExtra === null) this.webhook.transCallbackUrlExtra = null;
			else if (b.transCallbackUrlExtra !== undefined) {
				const incoming = (b.transCallbackUrlExtra as Array<{ sender: string; url: string }>).map((e) => ({ sender: e.sender, url: e.url }));
				if (mode === 'replace') this.webhook.transCallbackUrlExtra = incoming;
				else {
					const merged = [...(this.webhook.transCallbackUrlExtra ?? [])];
					for (const entry of incoming) {
						const existing = merged.findIndex((e) => lower(e.sender) === lower(entry.sender));
						if (existing === -1) merged.push(entry);
						else merged[existing] = entry;
					}
					this.webhook.transCallbackUrlExtra = merged;
				}
			}
			return this.ok();
		},
	};

	private sendTransactional(b: Record<string, any>, sandbox: boolean): ApiAnswer {
		const versions = b.messageVersions as Array<Record<string, any>>;
		if (versions.length > 100) fail(400, '个性化内容超过100组', 'messageVersions has more than 100 entries');
		if (b.sendDate !== undefined && parseApiDateTime(b.sendDate) === undefined) fail(400, '发送时间格式错误', 'sendDate must be YYYY-MM-DDThh:mm:ssZ');
		for (const field of ['category', 'campaign'] as const) {
			if (b[field] !== undefined && (bytes(b[field]) > 100 || !/^[A-Za-z0-9]*$/.test(b[field]))) fail(400, `${field}格式错误`, `${field} must be at most 100 bytes of letters and digits`);
		}
		if (b.uniqueMsgID !== undefined && bytes(b.uniqueMsgID) > 50) fail(400, 'uniqueMsgID过长', 'uniqueMsgID is longer than 50 bytes');
		if (b.senderName !== undefined && chars(b.senderName) > 200) fail(400, '发件人名称过长', 'senderName is longer than 200 characters');
		if (b.replyTo !== undefined && !EMAIL.test(b.replyTo)) fail(400, '回复地址格式错误', 'replyTo fails the email format check');
		this.checkAttachment(b.attachment);
		const hasTopContent = (typeof b.content === 'string' && b.content !== '') || (typeof b.templateName === 'string' && b.templateName !== '');
		let recipients = 0;
		versions.forEach((v, index) => {
			for (const key of Object.keys(v)) {
				if (!['to', 'cc', 'bcc', 'subject', 'content', 'templateName', 'params'].includes(key)) fail(400, `未知参数: messageVersions.${key}`, `unknown field messageVersions[${index}].${key}`);
			}
			if (!Array.isArray(v.to) || v.to.length === 0) fail(400, '收件人为空', `messageVersions[${index}].to has no recipient`);
			for (const field of ['to', 'cc', 'bcc']) {
				if (v[field] === undefined) {
					if (field !== 'to' && this.options.requireCcBcc) fail(400, `缺少${field}`, `messageVersions[${index}].${field} is required`);
					continue;
				}
				if (!Array.isArray(v[field])) fail(400, `${field}格式错误`, `messageVersions[${index}].${field} must be an array`);
				if (v[field].length > 20) fail(400, `${field}超过20个`, `messageVersions[${index}].${field} has more than 20 recipients`);
				for (const r of v[field]) {
					if (!r || typeof r.email !== 'string' || !r.email) fail(400, '收件人缺少邮箱', `a messageVersions[${index}].${field} entry has no email`);
					if (!EMAIL.test(r.email)) fail(400, '收件人邮箱格式错误', `${r.email} is not an email address`);
					if (r.name !== undefined && chars(String(r.name)) > 100) fail(400, '收件人名称过长', 'a recipient name is longer than 100 characters');
					recipients++;
				}
			}
			if (v.params !== undefined && (typeof v.params !== 'object' || Array.isArray(v.params))) fail(400, 'params格式错误', `messageVersions[${index}].params must be an object`);
			if (v.templateName !== undefined && !this.templates.has(v.templateName)) fail(400, '模板不存在', `messageVersions[${index}].templateName matches no template`);
			const versionContent = (v.content && v.content !== '') || (v.templateName && v.templateName !== '');
			if (!hasTopContent && !versionContent) fail(400, '缺少内容或模板', 'neither content nor templateName given');
			const subject = v.subject ?? b.subject ?? (v.templateName ? this.templates.get(v.templateName)?.templateSubject : undefined) ?? (b.templateName ? this.templates.get(b.templateName)?.templateSubject : undefined);
			if (!subject && !(b.templateName && !this.templates.has(b.templateName))) fail(400, '缺少主题', `no subject for messageVersions[${index}]`);
		});
		if (!this.senders.has(lower(b.senderMail))) fail(403, '发件人未配置', 'senderMail is not a sender configured for the account');
		if (b.templateName && !this.templates.has(b.templateName)) fail(403, '模板不存在', 'the top-level templateName matches no template');
		if (recipients > this.credits) fail(403, '邮件余额不足', 'the account has too few mail credits');
		if (sandbox) return this.ok({}, '');
		this.credits -= recipients;
		// Precedence (a choice; 4.6 says a top-level templateName is used over content): the version's
		// templateName, then the top-level templateName, then the version's content, then the top-level content.
		versions.forEach((v) => {
			const templateName = v.templateName ?? b.templateName;
			const subject = v.subject ?? b.subject ?? (templateName ? this.templates.get(templateName)?.templateSubject : undefined) ?? '';
			const source = templateName ? { templateName } : { content: v.content ?? b.content };
			for (const field of ['to', 'cc', 'bcc']) {
				for (const r of v[field] ?? []) this.mails.push({ email: r.email, subject, ...source, uniqueMsgID: b.uniqueMsgID ?? '' });
			}
		});
		const sendAt = b.sendDate ? Math.max(parseApiDateTime(b.sendDate)!, this.now()) : this.now();
		this.scheduledMails.push({
			guid: randomUUID(), sendAt, senderMail: b.senderMail, mailName: b.campaign ?? '',
			sentMailListName: `${b.category ?? ''}||${b.campaign ?? ''}`, uniqueMsgID: b.uniqueMsgID ?? '',
			recipients: versions.flatMap((v, version) => ['to', 'cc', 'bcc'].flatMap((f) => (v[f] ?? []).map((r: { email: string }) => ({ email: r.email, version })))),
		});
		if (!b.sendDate) this.processDue();
		return this.ok();
	}

	private upsertContact(input: { email?: string; phoneNumber?: string; name?: string; properties?: Record<string, unknown> }, updateMode: number): Contact | undefined {
		const key = input.email ? lower(input.email) : `phone:${input.phoneNumber}`;
		const existing = this.contacts.get(key);
		if (existing && updateMode === 2) return existing;
		if (!existing && updateMode === 3) return undefined;
		const now = this.now();
		const contact: Contact = existing ?? { id: String(this.nextId++), name: '', properties: {}, createdAt: now, modifiedAt: now, lists: new Set() };
		if (input.email) contact.email = input.email.trim();
		if (input.phoneNumber) contact.phoneNumber = String(input.phoneNumber);
		contact.name = input.name ? String(input.name) : contact.name || contact.email || contact.phoneNumber || '';
		Object.assign(contact.properties, input.properties ?? {});
		contact.modifiedAt = now;
		this.contacts.set(key, contact);
		return contact;
	}

	private addToList(contact: Contact, listName: string) {
		contact.lists.add(listName);
		const list = this.lists.get(listName);
		if (list) list.modifiedAt = this.now();
	}

	private contactView(c: Contact) {
		return {
			id: c.id, name: c.name, email: c.email ?? '', phoneNumber: c.phoneNumber ?? '', wxSubscriber: [], wxMiniSubscriber: null,
			properties: { ...c.properties, unsubscribed: this.unsubscribed.has(lower(c.email ?? '')) }, createDate: new Date(c.createdAt).toISOString(),
			modifyTime: new Date(c.modifiedAt).toISOString(), createUserId: 1,
		};
	}

	private stats(guid: string) {
		const s = { sentCount: 0, deliveredCount: 0, openCount: 0, clickCount: 0, hardBounce: 0, softBounce: 0, unsentCount: 0, unsubscribeCount: 0 };
		for (const e of this.events) {
			if (e.Guid !== guid) continue;
			if (e.EventCode === 'Delivered') { s.sentCount++; s.deliveredCount++; }
			if (e.EventCode === 'Bounced') { s.sentCount++; if (e.Reason === '100') s.hardBounce++; else s.softBounce++; }
			if (e.EventCode === 'Dropped') s.unsentCount++;
			if (e.EventCode === 'Opened') s.openCount++;
			if (e.EventCode === 'Clicked') s.clickCount++;
			if (e.EventCode === 'Unsubscribed') s.unsubscribeCount++;
		}
		return s;
	}

	private taskView(t: CampaignTask) {
		const view: Record<string, unknown> = {
			mailName: t.mailName, subject: t.subject, mailContent: t.mailContent, senderName: t.senderName, senderMail: t.senderMail,
			replyTo: t.replyTo, rcptEmails: [], repelEmails: [], rcptListNames: t.rcptListNames, repelListNames: t.repelListNames,
			sendByDateTime: t.sendAt, taskType: 'MailList', mailStatus: t.mailStatus, guid: t.guid, teamName: 'Default team',
			languageCode: t.languageCode, marketName: t.marketName, subscriptName: t.subscriptName, projectCode: t.projectCode,
			reviewerName: '', mailSummary: '', audit: false,
		};
		if (t.mailStatus === 2) {
			const { deliveredCount, ...rest } = this.stats(t.guid);
			view.mailStats = { ...rest, deliveredCount };
		}
		return view;
	}

	private dayRange(startDate: string, endDate: string): [number, number] {
		const start = parseDay(startDate);
		const end = parseDay(endDate);
		if (start === undefined || end === undefined) fail(400, '日期格式错误', 'startDate and endDate must be YYYY-MM-DD');
		if (start! > end!) fail(400, '开始日期晚于结束日期', 'startDate is after endDate');
		return [start!, end!];
	}

	private page<T>(all: T[], b: Record<string, any>, key: string) {
		const asked = b.pageSize ?? 10;
		const pageIndex = b.pageIndex ?? 1;
		if (asked < 1 || pageIndex < 1) fail(400, '分页参数错误', 'pageSize and pageIndex must be at least 1');
		const pageSize = this.pageSizeCap > 0 ? Math.min(asked, this.pageSizeCap) : asked;
		return { [key]: all.slice((pageIndex - 1) * pageSize, pageIndex * pageSize), totalRecords: all.length };
	}

	/** Tokens handed out by the two OAuth flows. */
	tokens = new Map<string, { owner: string; expiresAt: number | null }>();
	authCodes = new Map<string, { clientId: string; expiresAt: number; used: boolean }>();

	newToken(owner: string, lifetimeMs: number | null): string {
		const token = randomBytes(32).toString('hex');
		this.tokens.set(token, { owner, expiresAt: lifetimeMs === null ? null : this.now() + lifetimeMs });
		return token;
	}

	newAuthCode(clientId: string): string {
		const code = randomBytes(12).toString('hex');
		this.authCodes.set(code, { clientId, expiresAt: this.now() + 5 * 60_000, used: false });
		return code;
	}
}
