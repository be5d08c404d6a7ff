/**
 * The simulation of mail: what happens to each recipient (README, "Event rules"), scheduled
 * campaigns and transactional mails becoming due, engagement events caused through the control
 * interface, and the reports computed from the events.
 */
import { lower, type State } from './state.cts';
import { fail, type CampaignTask, type EmulatorEvent, type MailIdentity } from './types.cts';

export const DAY_MS = 86_400_000;

/** Receives every event as it happens, with the sender whose address routes it. */
export type EventSink = (event: EmulatorEvent, sender: string) => void;

/** Outcome of one recipient by the documented rules. */
function deliveryOutcome(
	state: State,
	email: string,
): { code: string; extra: Record<string, string> } {
	const local = lower(email).split('@')[0];
	if (state.unsubscribed.has(lower(email))) return { code: 'Dropped', extra: { Reason: '210' } };
	if (state.hardBounced.has(lower(email))) return { code: 'Dropped', extra: { Reason: '110' } };
	if (local === 'filtered') return { code: 'Dropped', extra: { Reason: '111' } };
	if (local === 'expired') return { code: 'Dropped', extra: { Reason: '112' } };
	if (local === 'bounce') {
		return {
			code: 'Bounced',
			extra: {
				Reason: '100',
				FailedCause: Buffer.from('550 5.1.1 <' + email + '>: user unknown').toString('base64'),
			},
		};
	}
	if (local === 'soft') {
		return {
			code: 'Bounced',
			extra: {
				Reason: '101',
				FailedCause: Buffer.from('452 4.2.2 mailbox full').toString('base64'),
			},
		};
	}
	return {
		code: 'Delivered',
		extra: { ReceiveServer: `mx.${lower(email).split('@')[1] ?? 'example.org'}` },
	};
}

export class Delivery {
	constructor(
		private readonly state: State,
		private readonly emit: EventSink,
	) {}

	/** The delivery event of one recipient of a mail. */
	private produce(email: string, mail: MailIdentity, submittedAt: number) {
		const now = this.state.now();
		const outcome = deliveryOutcome(this.state, email);
		const event: EmulatorEvent = {
			EventCode: outcome.code,
			Email: email,
			EventType: mail.eventType,
			SentMailListName: mail.sentMailListName,
			TriggeredDateTimeV2: this.state.wallTime(now),
			UniqueMsgID: mail.uniqueMsgID,
			Guid: mail.guid,
			MailName: mail.mailName,
			MailSeqId: this.state.nextMailSeqId(),
			...outcome.extra,
		};
		if (outcome.code !== 'Opened') event.SenderEmail = mail.sender;
		if (outcome.code !== 'Dropped') event.SubmitDateTimeV2 = this.state.wallTime(submittedAt);
		if (outcome.code === 'Bounced' && outcome.extra.Reason === '100')
			this.state.hardBounced.add(lower(email));
		if (outcome.code === 'Delivered') this.state.lastMailTo.set(lower(email), { ...mail });
		this.record(event, mail.sender, now);
	}

	private record(event: EmulatorEvent, sender: string, at: number) {
		this.state.events.push({ ...event, __at: at, __sender: sender });
		this.emit(event, sender);
	}

	taskStatus(task: CampaignTask, status: 'Created' | 'Completed') {
		const now = this.state.now();
		const event: EmulatorEvent = {
			EventCode: 'TaskStatus',
			StatusCode: status,
			Creator: 'emulator',
			MailName: task.mailName,
			Guid: task.guid,
			TriggeredDateTimeV2: this.state.wallTime(now),
			SentMailListName: '',
			UniqueMsgID: '',
		};
		if (status === 'Completed') {
			Object.assign(event, {
				LanguageCode: task.languageCode,
				MarketName: task.marketName,
				SubscriptName: task.subscriptName,
				ProjectCode: task.projectCode,
				Description: task.subject,
			});
		}
		this.record(event, task.senderMail, now);
	}

	/** Runs what is due by the emulated clock: scheduled campaigns and transactional mails. */
	processDue() {
		const state = this.state;
		const now = state.now();
		for (const task of state.tasks.values()) {
			if (task.mailStatus !== 1 || task.sendAt > now) continue;
			const excluded = new Set(
				task.repelListNames
					.flatMap((l) => state.contactsOfList(l))
					.map((c) => c.email && lower(c.email)),
			);
			const recipients = new Map<string, string>();
			for (const listName of task.rcptListNames) {
				for (const c of state.contactsOfList(listName)) {
					if (c.email && !excluded.has(lower(c.email))) recipients.set(lower(c.email), c.email);
				}
			}
			const mail = {
				guid: task.guid,
				mailName: task.mailName,
				sender: task.senderMail,
				eventType: '5',
				sentMailListName: '',
				uniqueMsgID: '',
			};
			for (const email of recipients.values()) this.produce(email, mail, task.sendAt);
			task.mailStatus = 2;
			this.taskStatus(task, 'Completed');
		}
		const due = state.scheduledMails.filter((m) => m.sendAt <= now);
		state.scheduledMails = state.scheduledMails.filter((m) => m.sendAt > now);
		for (const m of due) {
			const mail = {
				guid: m.guid,
				mailName: m.mailName,
				sender: m.senderMail,
				eventType: '3',
				sentMailListName: m.sentMailListName,
				uniqueMsgID: m.uniqueMsgID,
			};
			for (const r of m.recipients) this.produce(r.email, mail, m.sendAt);
		}
	}

	/** Control interface: an engagement event on the last mail delivered to `email`. */
	causeEvent(kind: string, email: string, extra: Record<string, string> = {}): EmulatorEvent {
		const mail = this.state.lastMailTo.get(lower(email));
		if (!mail) fail(400, '没有投递给该地址的邮件', `no mail was delivered to ${email}`);
		return this.causeEventOf(kind, email, mail!, extra);
	}

	/** Whether the mail of this identity was delivered to `email` (not dropped, bounced or due later). */
	delivered(email: string, mail: MailIdentity): boolean {
		return this.state.events.some(
			(event) =>
				event.EventCode === 'Delivered' &&
				event.Guid === mail.guid &&
				lower(String(event.Email)) === lower(email),
		);
	}

	/**
	 * An event a recipient causes on a mail delivered to them (opened, clicked, unsubscribed, marked as spam), or
	 * a bounce reported after delivery (a hard bounce: later sends to the address are dropped).
	 */
	causeEventOf(
		kind: string,
		email: string,
		m: MailIdentity,
		extra: Record<string, string> = {},
	): EmulatorEvent {
		const now = this.state.now();
		const wallTime = (time: number) => this.state.wallTime(time);
		const event: EmulatorEvent = {
			EventCode: kind,
			Email: email,
			EventType: m.eventType,
			SentMailListName: m.sentMailListName,
			TriggeredDateTimeV2: wallTime(now),
			UniqueMsgID: m.uniqueMsgID,
			Guid: m.guid,
			MailName: m.mailName,
			MailSeqId: this.state.nextMailSeqId(),
		};
		const client = {
			SubmitDateTimeV2: wallTime(now - 60_000),
			DeliveredTimeV2: wallTime(now - 30_000),
			IP: '203.0.113.7',
			Platform: 'Windows',
			BrowserType: 'Chrome',
			UA: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0',
		};
		if (kind === 'Opened') Object.assign(event, client);
		else if (kind === 'Clicked')
			Object.assign(event, client, { Link: extra.Link ?? 'https://example.org/offer' });
		else if (kind === 'Unsubscribed') {
			Object.assign(event, { Reason: extra.Reason ?? 'no longer interested' });
			this.state.unsubscribed.add(lower(email));
		} else if (kind === 'SpamReport') Object.assign(event, { SenderEmail: m.sender });
		else if (kind === 'Bounced') {
			Object.assign(event, {
				SenderEmail: m.sender,
				SubmitDateTimeV2: wallTime(now - 60_000),
				Reason: '100',
				FailedCause: Buffer.from(`550 5.1.1 <${email}>: user unknown`).toString('base64'),
			});
			this.state.hardBounced.add(lower(email));
		} else
			fail(
				400,
				'不支持的事件类型',
				`events of kind ${kind} are caused by sends, not by the control interface`,
			);
		this.record(event, m.sender, now);
		return event;
	}
}

/** A campaign's counts (2.6), from the events of its guid. */
export function campaignStats(events: EmulatorEvent[], guid: string) {
	const s = {
		sentCount: 0,
		deliveredCount: 0,
		openCount: 0,
		clickCount: 0,
		hardBounce: 0,
		softBounce: 0,
		unsentCount: 0,
		unsubscribeCount: 0,
	};
	for (const e of events) {
		if (e.Guid !== guid) continue;
		if (e.EventCode === 'Delivered') {
			s.sentCount++;
			s.deliveredCount++;
		}
		if (e.EventCode === 'Bounced') {
			s.sentCount++;
			if (e.Reason === '100') s.hardBounce++;
			else s.softBounce++;
		}
		if (e.EventCode === 'Dropped') s.unsentCount++;
		if (e.EventCode === 'Opened') s.openCount++;
		if (e.EventCode === 'Clicked') s.clickCount++;
		if (e.EventCode === 'Unsubscribed') s.unsubscribeCount++;
	}
	return s;
}

/** Transactional daily rows (2.6) for UTC days start..end, both included, from the events. */
export function dailyStats(events: EmulatorEvent[], start: number, end: number) {
	const days = new Map<string, Record<string, number>>();
	for (const e of events) {
		if (e.EventType !== '3' || (e.__at as number) < start || (e.__at as number) >= end + DAY_MS)
			continue;
		const day = new Date(e.__at as number).toISOString().slice(0, 10);
		const row = days.get(day) ?? {
			sentCount: 0,
			openCount: 0,
			clickCount: 0,
			bounceCount: 0,
			unsentCount: 0,
			unsubscribeCount: 0,
		};
		if (e.EventCode === 'Delivered' || e.EventCode === 'Bounced') row.sentCount++;
		if (e.EventCode === 'Dropped') row.unsentCount++;
		if (e.EventCode === 'Bounced' && e.Reason === '101') row.bounceCount++;
		if (e.EventCode === 'Opened') row.openCount++;
		if (e.EventCode === 'Clicked') row.clickCount++;
		if (e.EventCode === 'Unsubscribed') row.unsubscribeCount++;
		days.set(day, row);
	}
	return [...days.entries()]
		.sort(([x], [y]) => x.localeCompare(y))
		.map(([statsDate, row]) => ({ statsDate, ...row }));
}
