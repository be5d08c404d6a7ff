/**
 * Shapes shared by the emulator's modules: the account's records, events, faults and the request log.
 * Nothing here imports another emulator module, so every module can import it without a cycle.
 */

export interface ApiAnswer {
	code: number;
	message: string;
	[key: string]: unknown;
}

/** A business error: answered with its code and the message in the chosen language. */
export class ApiFailure extends Error {
	constructor(
		readonly code: number,
		readonly zh: string,
		readonly en: string,
	) {
		super(en);
	}
}

export const fail = (code: number, zh: string, en: string): never => {
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

/** One message a transactional send accepted: recipient, subject and the content that won. */
export interface MailRecord {
	email: string;
	/** The subject as the recipient reads it: tags filled, a tag without a value left empty. */
	subject: string;
	templateName?: string;
	content?: string;
	/** The tag values this message was sent with: the request's, with the version's winning (4.6). */
	params?: Record<string, unknown>;
	/** Tags of the subject or body that no value filled (sent empty). */
	missingTags?: string[];
	uniqueMsgID: string;
	/**
	 * The body as the recipient gets it: tags filled and, with click tracking on, every link but those marked
	 * `ef:disable-tracking` pointing to the platform's tracking address (mailView.cts). GET /mails/<n> shows it.
	 */
	html?: string;
	/** The links click tracking replaced, by their number in the tracking address. */
	trackedLinks?: string[];
	/** What its events refer back to (its request's Guid, UniqueMsgID, sender…): the mail page's buttons use it. */
	identity: MailIdentity;
}

/** What an event of a mail refers back to (section 6.2's common fields). */
export interface MailIdentity {
	guid: string;
	mailName: string;
	sender: string;
	eventType: string;
	sentMailListName: string;
	uniqueMsgID: string;
}

/** One transactional request waiting for its send time. */
export interface ScheduledMail {
	guid: string;
	sendAt: number;
	recipients: Array<{ email: string; version: number }>;
	senderMail: string;
	mailName: string;
	sentMailListName: string;
	uniqueMsgID: string;
}

/** Flat string-or-number fields; `__`-prefixed fields are the emulator's own and never pushed. */
export type EmulatorEvent = Record<string, string | number>;

/** Event codes to their transEvent switch (section 6.1); TaskStatus has none and is always pushed. */
export const EVENT_SWITCHES: Readonly<Record<string, string>> = {
	Dropped: 'dropped',
	Bounced: 'bounced',
	Delivered: 'delivered',
	SpamReport: 'spamReport',
	Opened: 'opened',
	Clicked: 'clicked',
	Unsubscribed: 'unsubscribed',
};

/**
 * Campaign creation faults (section 7.1); for any path, the transient faults a real platform and the
 * network between show, before or after the request was processed:
 * - `network`: the connection is dropped before the request is processed (no answer);
 * - `badGateway`: a proxy's HTTP 502 HTML page, the request not processed;
 * - `internalError`: the request is processed, then answered HTTP 500;
 * - `resetAfter`: the request is processed, then the connection is dropped (no answer);
 * - `hang`: the request is processed and never answered (the connection stays open).
 */
export type Fault =
	| 'createFailed'
	| 'attachFailed'
	| 'checkFailed'
	| 'network'
	| 'badGateway'
	| 'tooManyRequests'
	| 'internalError'
	| 'resetAfter'
	| 'hang';

/** A fault planned for a path: taken by the request after `skip` others to that path have gone through. */
export interface PlannedFault {
	path: string;
	fault: Fault;
	skip: number;
}

export interface RequestRecord {
	path: string;
	auth: 'signature' | 'oauth' | 'none';
	code: number;
	body: unknown;
	at: string;
}
