/**
 * The emulated account's data and clock: senders, templates, contacts, lists, tasks, the webhook
 * configuration, DNS answers, credits and the record of mails and events. A reset is a new State.
 */
import type {
	CampaignTask,
	Contact,
	ContactList,
	DnsRecord,
	EmulatorEvent,
	MailIdentity,
	MailRecord,
	ScheduledMail,
	Sender,
	Template,
	WebhookConfig,
} from './types.cts';

export interface StateOptions {
	/** Wall-clock zone of event time fields and of template createDate; the spec does not say. */
	timeZoneOffsetMinutes: number;
	/** Require cc and bcc in every message version (the table marks them required). */
	requireCcBcc: boolean;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
export const lower = (text: string) => text.trim().toLowerCase();

export class State {
	clockOffsetMs = 0;
	credits = 1_000_000;
	senders = new Map<string, Sender>();
	templates = new Map<string, Template>();
	contacts = new Map<string, Contact>();
	lists = new Map<string, ContactList>();
	tasks = new Map<string, CampaignTask>();
	webhook: WebhookConfig = {
		transEvent: null,
		transCallbackUrl: null,
		transCallbackUrlExtra: null,
		transEnable: null,
	};
	dns = new Map<string, DnsRecord>();
	/** The largest page a search answers, whatever pageSize asks (0: no cap); totalRecords stays true. */
	pageSizeCap = 0;
	/**
	 * webhook/save with a null field: saved as "nothing configured" (default), refused with 400, or ignored
	 * (the field keeps its value, as if it had not been sent).
	 */
	webhookNull: 'accept' | 'refuse' | 'ignore' = 'accept';
	/**
	 * A campaign task whose mailName another task has: refused with 400 (default), or created, as a platform
	 * that does not keep names unique would (the API does not say).
	 */
	duplicateMailNames: 'refuse' | 'accept' = 'refuse';
	/** webhook/save keeps at most this many characters of each push address, silently (0: all). */
	webhookUrlMaxLength = 0;
	/**
	 * Request-level values the platform refuses with 400 although they look valid (a stricter platform):
	 * by top-level field name, the values refused. Empty: none.
	 */
	refusedValues: Record<string, unknown[]> = {};
	/** Click tracking of a send that does not say (no trackClick): the account's default, off here. */
	clickTrackingByDefault = false;
	/** Every message accepted by a transactional send. */
	mails: MailRecord[] = [];
	/** Every event produced, in order; reports are computed from it. */
	events: EmulatorEvent[] = [];
	unsubscribed = new Set<string>();
	hardBounced = new Set<string>();
	scheduledMails: ScheduledMail[] = [];
	/** The last mail delivered to each address: engagement events refer to it. */
	lastMailTo = new Map<string, MailIdentity>();
	private lastId = 999;
	private mailSeq = 0n;

	constructor(readonly options: StateOptions) {}

	now(): number {
		return Date.now() + this.clockOffsetMs;
	}

	/** `yyyy-MM-dd HH:mm:ss` in the configured zone, as the platform's event fields. */
	wallTime(time: number, withMillis = false): string {
		const d = new Date(time + this.options.timeZoneOffsetMinutes * 60_000);
		const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
		return withMillis ? `${base}.${pad(d.getUTCMilliseconds(), 3)}` : base;
	}

	/** Ids of lists, contacts and tasks share one counter, from 1000. */
	nextId(): number {
		return ++this.lastId;
	}

	/** MailSeqId is a 19-digit integer: a string here, written bare by the pushes. */
	nextMailSeqId(): string {
		this.mailSeq += 1n;
		return (2505070900222412710n + this.mailSeq).toString();
	}

	contactsOfList(listName: string): Contact[] {
		return [...this.contacts.values()].filter((c) => c.lists.has(listName));
	}

	/** The demo account of the README: two senders, DNS of example.com, a template, a list of two. */
	seed() {
		const now = this.now();
		this.senders.set('sender@example.com', {
			fromDomain: 'sender@example.com',
			mxStatus: 1,
			spfStatus: 1,
			dkimStatus: 1,
			dmarcStatus: 1,
			isValidate: 1,
			isServiceDomain: 0,
			senderType: 2,
		});
		this.senders.set('news@example.com', {
			fromDomain: 'news@example.com',
			mxStatus: 1,
			spfStatus: 1,
			dkimStatus: 1,
			dmarcStatus: 1,
			isValidate: 1,
			isServiceDomain: 0,
			senderType: 1,
		});
		this.dns.set('example.com', { mx: true, spf: true, dmarc: true, dkimSelectors: ['default'] });
		this.templates.set('welcome', {
			templateName: 'welcome',
			templateSubject: 'Welcome, {{name}}',
			templateContent: '<p>Hello {{name}}, welcome aboard.</p>',
			editorType: 'DRAG',
			createdAt: now,
		});
		this.lists.set('newsletter', {
			id: this.nextId(),
			listName: 'newsletter',
			listDescription: 'Seeded list',
			createdAt: now,
			modifiedAt: now,
		});
		for (const [name, email] of [
			['Ada', 'ada@example.org'],
			['Grace', 'grace@example.org'],
		]) {
			this.contacts.set(email, {
				id: String(this.nextId()),
				name,
				email,
				properties: {},
				createdAt: now,
				modifiedAt: now,
				lists: new Set(['newsletter']),
			});
		}
	}
}

/** A fresh account: seeded (the default) or empty. */
export function newState(options: StateOptions, seed: boolean): State {
	const state = new State(options);
	if (seed) state.seed();
	return state;
}

/** The account as `GET /__control/state` shows it (contacts' lists as arrays). */
export function stateSnapshot(state: State, tokenRequests: number) {
	return {
		now: new Date(state.now()).toISOString(),
		credits: state.credits,
		senders: [...state.senders.values()],
		templates: [...state.templates.values()],
		contacts: [...state.contacts.values()].map((c) => ({ ...c, lists: [...c.lists] })),
		lists: [...state.lists.values()],
		tasks: [...state.tasks.values()],
		webhook: state.webhook,
		events: state.events.length,
		tokenRequests,
		unsubscribed: [...state.unsubscribed],
	};
}

export type StateSnapshot = ReturnType<typeof stateSnapshot>;
