/**
 * What an AI model is told about each operation when the node is used as a tool. n8n's own default
 * for a tool is the operation's action text ("Send transactional mail in Mail Delivery"), which says
 * neither that real mail goes out, nor what the inputs accept, nor what comes back. The tool version of
 * the node gets a Description field per operation, filled with these texts; the user may edit it.
 * (n8n shows the model this field's value as the tool's description.)
 */
import type { INodeProperties } from 'n8n-workflow';

import { LIMITS } from '../helpers/validation';

const TOOL_DESCRIPTIONS: Record<string, Record<string, string>> = {
	transactionalMail: {
		send:
			`Sends real email now (or at the Send Date) through the mail delivery platform; nothing can be recalled once sent. ` +
			`To takes one or more recipients separated by commas, each an address or "Name <address>", at most ${LIMITS.recipientsPerField}. ` +
			'With a template the subject is optional (the template has one); with HTML content a subject is required. Tag values fill the {{tags}} of the content. ' +
			"Returns success, the recipients, the request's uniqueMsgID (delivery, bounce, open and click events about this mail carry it), the sender and the template; " +
			'on failure an error that names the field to correct. With Sandbox Mode on the request is only checked and nothing is sent.',
		getStats:
			'Reads daily transactional mail statistics for a range of days, both included (YYYY-MM-DD): sent, opened, clicked, bounced, not sent and unsubscribed counts. Returns one row per day.',
	},
	campaign: {
		create:
			'Creates a marketing campaign that sends HTML content to whole contact lists (minus exclusion lists), now or at a scheduled time, or saves it as a draft (Only Save). ' +
			'Real mail goes out to every contact of the lists unless Only Save or Sandbox Mode is on. Returns the task id and guid.',
		cancel:
			'Cancels a scheduled campaign by its name; one whose send time has passed cannot be cancelled. Returns success, or an error saying why not.',
		delete:
			'Deletes a campaign task by its name. Returns success, or an error when there is no such task.',
		getMany:
			'Searches campaign tasks by name, subject or sender. Returns at most Limit tasks with their subject, sender, lists, status (draft, sending, completed, failed) and, for completed ones, their statistics; with Simplify off, every field and the HTML body.',
		getStats:
			'Reads campaign statistics for a range of days (YYYY-MM-DD, both included), optionally for one campaign name. Returns one row per campaign.',
	},
	contact: {
		upsert:
			'Creates a contact, or updates the one with the same email: email or phone number, an optional name, and optionally a list to put it in. Returns success.',
		delete:
			'Deletes the contact with this email address. Returns success, or an error when there is none.',
		get: 'Looks up one contact by email address. Returns its name, phone number and properties, or an error when there is none.',
		import:
			'Imports many contacts at once, one per input item, creating and/or updating them, optionally into a list (created when missing). Returns success per item.',
	},
	contactList: {
		create:
			'Creates a static contact list with this name. Returns success, or an error when the name is taken.',
		delete:
			'Deletes the contact list with this name. Returns success, or an error when there is none.',
		getMany:
			'Searches contact lists by name. Returns at most Limit lists with their id, name, status and type.',
	},
	template: {
		create:
			'Adds an email template (name, subject and HTML content with {{tags}}). Returns success, or an error when the name is taken.',
		delete:
			'Deletes the email template with this name. Returns success, or an error when there is none.',
		getMany:
			'Searches email templates by name. Returns at most Limit templates with their subject, the {{tags}} they use (to give values for when sending) and their date; with Simplify off, their HTML too.',
	},
	verifiedSender: {
		add: 'Adds a sender address to the account, for marketing or transactional mail. Returns success.',
		delete: 'Removes a sender address from the account. Returns success.',
		getMany:
			'Lists the sender addresses of the account with their DNS check results and type (marketing or transactional).',
		verify:
			"Checks a sender domain's MX, SPF, DKIM and DMARC records. Returns whether each is good and whether the sender is valid.",
	},
	webhook: {
		get: "Reads the account's push configuration: the default push address, per-sender addresses, which event kinds are pushed, and whether pushes are on.",
		save: "Changes the account's push configuration (only the fields given). Refuses to take an address or event kind away from an active Mail Delivery Trigger workflow unless told to. Returns what was saved.",
	},
};

/**
 * The tool version's Description field, one per operation, shown only there ('@tool'). A node whose
 * properties hold a toolDescription keeps it: n8n then adds neither its own field nor its "Set
 * Automatically" mode, whose text would be the bare action ("Send transactional mail in Mail Delivery").
 */
export const toolDescriptionProperties: INodeProperties[] = Object.entries(
	TOOL_DESCRIPTIONS,
).flatMap(([resource, operations]) =>
	Object.entries(operations).map(([operation, text]) => ({
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string' as const,
		typeOptions: { rows: 4 },
		default: text,
		description: 'What the AI model is told this tool does; say when to use it and what it returns',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	})),
);

export const toolDescriptionOf = (resource: string, operation: string): string | undefined =>
	TOOL_DESCRIPTIONS[resource]?.[operation];
