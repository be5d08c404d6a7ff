/**
 * Transactional Mail → Send and Wait for Response: one transactional message whose buttons (or form link) answer
 * this very wait, then the run waits until the person answers or the time limit passes. The answer is taken by
 * the node's webhook (sendAndWait/webhook.ts); the engine runs item 0 only and calls `wait` once the message was
 * accepted (run/operation.ts), so n8n's retries never send a second mail for the same wait.
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { setIfPresent, trimmed } from '../../helpers/requestValues';
import { applySandboxMode } from '../../items/commonFields';
import { tagsIn } from '../../helpers/tags';
import { AddressListError, parseRecipients } from '../../helpers/recipients';
import { assertValid, inputError, LIMITS, rules } from '../../helpers/validation';
import type { ItemParameters } from '../../items/parameterReader';
import type { ItemPlatform, OperationOption } from '../../run/operation';
import { SEND_FIELD_RULES } from './send/fieldRules';
import { credentialTypeOf, type Authentication } from '../../../shared/transport/credentials';
import { FormDefinitionError } from './sendAndWait/form';
import {
	answerLink,
	keptWait,
	linkKey,
	LinkKeyError,
	newWait,
	requireSignatures,
} from './sendAndWait/links';
import { approvalMailHtml } from './sendAndWait/mail';
import {
	askedOf,
	attributed,
	optionsOf,
	type Read,
	waitLimitOf,
	WaitLimitError,
} from './sendAndWait/settings';
import { keepTimedOutItems, resumeAt } from './sendAndWait/timeLimit';

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
	'Returns data.approved and data.respondedAt for an approval, data.text for free text, the form fields for a form. ' +
	"As n8n's Human review tool between an AI agent and another tool, it asks the person to approve each call of that tool by mail: " +
	'the call runs only once the person approves, and a refusal tells the agent the person declined. ' +
	"The agent is then told the guarded tool's own description, not this one.";

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

/** A check of the request that throws in words naming the field: an input error of the item. */
function checked<T>(item: ItemParameters, check: () => T): T {
	try {
		return check();
	} catch (error) {
		if (error instanceof FormDefinitionError || error instanceof WaitLimitError)
			throw inputError(item.node, error.message, item.index);
		throw new NodeOperationError(item.node, error as Error, { itemIndex: item.index });
	}
}

/** Everything read and checked before the wait's links are made: a bad value fails before any request. */
function readRequest(item: ItemParameters) {
	const read: Read = (name, fallback) => item.get(name, fallback);
	const recipients = recipientsOf(item);
	const message = item.get<unknown>('message', '');
	assertValid(item.node, { subject: item.get('subject', ''), message }, OWN_RULES, item.index);
	const subject = trimmed(item.get('subject', '')) as string;
	const asked = checked(item, () => askedOf(read, subject, message as string));
	const limit = checked(item, () => waitLimitOf(read, Date.now(), item.timezone));
	const options = optionsOf(read);
	const reports = (options.reports as { values?: IDataObject } | undefined)?.values ?? {};
	const body: IDataObject = {
		senderMail: item.locator('senderMail'),
		subject,
		messageVersions: [{ to: recipients, cc: [], bcc: [] }],
		trackOpen: reports.trackOpen === true ? 1 : 0,
		uniqueMsgID: randomUUID(),
	};
	for (const key of ['senderName', 'replyTo']) setIfPresent(body, key, trimmed(options[key]));
	for (const key of ['category', 'campaign']) setIfPresent(body, key, trimmed(reports[key]));
	// A {{name}} the subject happens to hold is filled with itself: the platform's tags are not used here.
	const tags = tagsIn(subject);
	if (tags.length > 0) body.params = Object.fromEntries(tags.map((tag) => [tag, `{{${tag}}}`]));
	applySandboxMode(body, item);
	assertValid(item.node, body, SEND_FIELD_RULES, item.index);
	return { read, body, asked, waitTill: limit ? limit.toISOString() : null };
}

/** The key of the wait's links, from the run's credential (in n8n's words if n8n cannot read it). */
async function keyOf(context: IExecuteFunctions, item: ItemParameters) {
	const authentication = context.getNodeParameter('authentication', 0, 'signature');
	const credential = credentialTypeOf(authentication as Authentication);
	try {
		return { credential, key: await linkKey(context, credential) };
	} catch (error) {
		if (error instanceof LinkKeyError) throw inputError(item.node, error.message, item.index);
		throw new NodeOperationError(item.node, error as Error, { itemIndex: item.index });
	}
}

/** The mail with the wait's links, and what its output says of the wait. */
interface Asking {
	body: IDataObject;
	responseType: string;
	waitTill: string | null;
}

/**
 * Reads and checks the item, then makes the wait (kept in the node's context) and the mail whose links answer
 * it: a bad value or an unreadable credential refuses the item before its request.
 */
export async function prepare(this: IExecuteFunctions, item: ItemParameters): Promise<Asking> {
	const { read, body, asked, waitTill } = readRequest(item);
	const key = await keyOf(this, item);
	const wait = newWait(this, key.credential, asked, { until: waitTill, zone: item.timezone });
	body.content = approvalMailHtml({
		subject: asked.subject,
		message: asked.message,
		buttons: asked.choices.map((choice) => ({
			...choice,
			url: answerLink(this, key.key, wait, choice.answer),
		})),
		attribution: attributed(read),
	});
	return { body, responseType: asked.responseType, waitTill };
}

export async function send({ body, responseType, waitTill }: Asking, platform: ItemPlatform) {
	const answer = await platform.request(SEND_PATH, body);
	const sent: IDataObject = {
		success: true,
		...(body.sandboxMode === true ? { sandboxMode: true } : {}),
		responseType,
		recipients: (body.messageVersions as Array<{ to: Array<{ email: string }> }>)[0].to.map(
			(recipient) => recipient.email,
		),
		uniqueMsgID: body.uniqueMsgID,
		senderMail: body.senderMail,
		waitTill,
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
	const limit = typeof sent.waitTill === 'string' ? sent.waitTill : null;
	if (limit !== null) keepTimedOutItems(this, limit);
	// The editor shows a waiting node's hints, not its output: what was sent, and until when the run waits.
	this.addExecutionHints?.({
		message: `Sent to ${(sent.recipients as string[]).join(', ')} (uniqueMsgID ${String(sent.uniqueMsgID)}). ${limit !== null ? `Answers count until ${limit}; without one the run goes on a few seconds later, its items saying timedOut.` : 'The run waits without a time limit.'}`,
		location: 'outputPane',
	});
	await this.putExecutionToWait(resumeAt(limit));
}
