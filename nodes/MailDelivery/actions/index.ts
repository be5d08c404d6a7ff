/**
 * The node's resources, each made from its operation modules (resource.ts). Transactional Mail first, the
 * rest alphabetically: n8n's node creator lists actions in this order, and the send is what users come for
 * (as n8n's Gmail node lists Message first).
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { campaign } from './campaign';
import { contact } from './contact';
import { contactList } from './contactList';
import { template } from './template';
import { transactionalMail } from './transactionalMail';
import { verifiedSender } from './verifiedSender';
import { webhook } from './webhook';

export const resources = {
	transactionalMail,
	campaign,
	contact,
	contactList,
	template,
	verifiedSender,
	webhook,
};

/** Every resource and its operations, derived from the modules: a misspelt pair does not compile. */
type MailDeliveryMap = {
	[R in keyof typeof resources]: keyof (typeof resources)[R]['operations'];
};

/** The Resource field's entries, in the order above. */
export const resourceOptions = (names: { [R in keyof MailDeliveryMap]: string }) =>
	Object.keys(resources).map((value): INodePropertyOptions => ({
		name: names[value as keyof MailDeliveryMap],
		value,
	}));

/** What an AI agent is told of an operation when the node is a tool. */
export const toolDescriptionOf = (resource: string, operation: string): string | undefined =>
	(resources as Record<string, { operations: Record<string, { toolDescription: string }> }>)[
		resource
	]?.operations[operation]?.toolDescription;
