/**
 * Transactional Mail → Send and Wait for Response: one transactional message whose buttons (or form link) answer
 * this very wait, then the run waits until the person answers or the time limit passes. The answer is taken by
 * the node's webhook (sendAndWait/webhook.ts); the engine runs item 0 only and calls `wait` once the message was
 * accepted (run/operation.ts), so n8n's retries never send a second mail for the same wait.
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

import { applySandboxMode, setIfPresent, trimmed } from '../../helpers/parameters';
import { tagsIn } from '../../helpers/tags';
import { AddressListError, parseRecipients } from '../../helpers/recipients';
import { assertValid, inputError, LIMITS, rules } from '../../helpers/validation';
import type { ItemParameters } from '../../run/parameters';
import type { ItemRun, OperationOption } from '../../run/operation';
import { SEND_FIELD_RULES } from './send/fieldRules';
import { FormDefinitionError } from './sendAndWait/form';
import { answerLink, keptWait, newWait, requireSignatures } from './sendAndWait/links';
import { approvalMailHtml } from './sendAndWait/mail';
import {
	attributed,
	choicesOf,
	formFieldsFor,
	optionsOf,
	type Read,
	responseTypeOf,
	waitLimitOf,
	WaitLimitError,
} from './sendAndWait/settings';

export { properties } from './sendAndWait/description';

export const option: OperationOption = {
	name: 'Send and Wait for Response',
	description:
		'Send a mail and wait until its recipient approves, answers in words or fills in a form',
	action: 'Send mail and wait for response',
};

export const toolDescription =
	'Sends one real email through the mail delivery platform to a person and pauses the workflow until that person answers: ' +
	'Approve (and Disapprove) buttons, a free-text answer or a form, as configured, or until the time limit. ' +
	'Returns data.approved and data.respondedAt for an approval, data.text for free text, the form fields for a form.';

/** What a request that may have reached the platform would have done: a retry never sends it again. */
export const effect = 'the mail may have gone out';

const SEND_PATH = '/v5/transactional/mail/sends_customised';

const OWN_RULES = {
	subject: { label: 'Subject', rules: [rules.required, rules.text, rules.singleLine] },
	message: { label: 'Message', rules: [rules.required, rules.text] },
};

function recipientsOf(item: ItemParameters) {
	try {
		const recipients = parseRecipients(item.get('sendTo', ''), 'To');
		if (recipients.length > LIMITS.recipientsPerField)
			throw new AddressListError(
				`Field "To" has ${recipients.length} recipients; the limit is ${LIMITS.recipientsPerField}`,
			);
		return recipients;
	} catch (error) {
		if (error instanceof AddressListError) throw inputError(item.node, error.message, item.index);
		throw new NodeOperationError(item.node, error as Error, { itemIndex: item.index });
	}
}

/** Everything read and checked before the wait's links are made: a bad value fails before any request. */
function readRequest(item: ItemParameters) {
	const read: Read = (name, fallback) => item.get(name, fallback);
	const recipients = recipientsOf(item);
	const message = item.get<unknown>('message', '');
	assertValid(item.node, { subject: item.get('subject', ''), message }, OWN_RULES, item.index);
	let limit: Date | undefined;
	try {
		if (responseTypeOf(read) !== 'approval') formFieldsFor(read);
		limit = waitLimitOf(read, Date.now(), item.timezone);
	} catch (error) {
		if (error instanceof FormDefinitionError || error instanceof WaitLimitError)
			throw inputError(item.node, error.message, item.index);
		throw new NodeOperationError(item.node, error as Error, { itemIndex: item.index });
	}
	const options = optionsOf(read);
	const subject = trimmed(item.get('subject', '')) as string;
	const body: IDataObject = {
		senderMail: item.locator('senderMail'),
		subject,
		messageVersions: [{ to: recipients, cc: [], bcc: [] }],
		trackOpen: options.trackOpen === true ? 1 : 0,
		uniqueMsgID: randomUUID(),
	};
	for (const key of ['senderName', 'replyTo', 'category', 'campaign'])
		setIfPresent(body, key, trimmed(options[key]));
	// A {{name}} the subject happens to hold is filled with itself: the platform's tags are not used here.
	const tags = tagsIn(subject);
	if (tags.length > 0) body.params = Object.fromEntries(tags.map((tag) => [tag, `{{${tag}}}`]));
	applySandboxMode(body, item);
	assertValid(item.node, body, SEND_FIELD_RULES, item.index);
	return { read, body, message: message as string, limit };
}

export async function execute(this: IExecuteFunctions, item: ItemRun) {
	const { read, body, message, limit } = readRequest(item);
	const wait = newWait(this);
	const buttons = choicesOf(read).map((choice) => ({
		...choice,
		url: answerLink(this, wait, choice.answer),
	}));
	body.content = approvalMailHtml({
		subject: body.subject as string,
		message,
		buttons,
		attribution: attributed(read),
	});
	const answer = await item.request(SEND_PATH, body);
	const sent: IDataObject = {
		success: true,
		...(body.sandboxMode === true ? { sandboxMode: true } : {}),
		responseType: responseTypeOf(read),
		recipients: (body.messageVersions as Array<{ to: Array<{ email: string }> }>)[0].to.map(
			(recipient) => recipient.email,
		),
		uniqueMsgID: body.uniqueMsgID,
		senderMail: body.senderMail,
		waitTill: limit ? limit.toISOString() : null,
		code: answer.code,
		message: answer.message ?? '',
	};
	return sent;
}

/** The run waits for the answer to the mail this run sent (Sandbox Mode sends none: no wait). */
export async function wait(this: IExecuteFunctions, item: ItemParameters, sent: IDataObject) {
	if (sent.sandboxMode === true) return;
	const kept = keptWait(this);
	if (!kept || kept.execution !== this.getExecutionId())
		throw new NodeOperationError(
			item.node,
			'The mail of this wait was sent by the execution this one retries',
			{
				itemIndex: item.index,
				description:
					'Its links answer that execution, not this one, and it is not sent twice. Run the workflow again to send a new mail.',
			},
		);
	requireSignatures(this);
	const until = typeof sent.waitTill === 'string' ? new Date(sent.waitTill) : WAIT_INDEFINITELY;
	await this.putExecutionToWait(until);
}
