/**
 * The node's settings as the send (execute) and the answer (webhook) both read them: the response type, the
 * buttons, the form and its texts, the time limit. One reader each side (`Read`), the same readings.
 */
import type { IDataObject } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { toApiDateTime } from '../../../../shared/dates';
import { FREE_TEXT_FIELDS, type FormField, formFieldsOf, type FormTexts } from './form';
import type { Button } from './mail';

/** A parameter's value as the side reads it (checked as its field's kind), or the fallback. */
export type Read = <T>(name: string, fallback: T) => T;

type ResponseType = 'approval' | 'freeText' | 'customForm';

/** What a link answers: `true` / `false` for Approve / Disapprove, `form` for the form page. */
export type Answer = 'true' | 'false' | 'form';

const responseTypeOf = (read: Read): ResponseType => read<ResponseType>('responseType', 'approval');

export const optionsOf = (read: Read): IDataObject => read<IDataObject>('options', {}) ?? {};

/** A button of the mail: what it answers, its label and style. */
interface Choice extends Omit<Button, 'url'> {
	answer: Answer;
}

const styleOf = (value: unknown, fallback: Button['style']): Button['style'] =>
	value === 'primary' || value === 'secondary' ? value : fallback;

const label = (value: unknown, fallback: string) =>
	typeof value === 'string' && value.trim() ? value.trim() : fallback;

/** The mail's buttons, in n8n's order: Disapprove before Approve; a form's one button. */
function choicesOf(read: Read): Choice[] {
	if (responseTypeOf(read) !== 'approval') {
		const text = label(optionsOf(read).messageButtonLabel, 'Respond');
		return [{ answer: 'form', label: text, style: 'primary' }];
	}
	const values = read<IDataObject>('approvalOptions.values', {}) ?? {};
	const approve: Choice = {
		answer: 'true',
		label: label(values.approveLabel, 'Approve'),
		style: styleOf(values.buttonApprovalStyle, 'primary'),
	};
	if (values.approvalType !== 'double') return [approve];
	const disapprove: Choice = {
		answer: 'false',
		label: label(values.disapproveLabel, 'Decline'),
		style: styleOf(values.buttonDisapprovalStyle, 'secondary'),
	};
	return [disapprove, approve];
}

/** Whether Approve and Disapprove open a page with a button (Options → Confirm on a Page, on by default). */
const confirmsOnPage = (read: Read) => optionsOf(read).confirmOnPage !== false;

/** Whether the mail and the pages end with n8n's attribution (on by default, as n8n's nodes). */
export const attributed = (read: Read) => optionsOf(read).appendAttribution !== false;

/** The fields the answer page shows: Free Text's one, or the Custom Form's (checked). */
function formFieldsFor(read: Read): FormField[] {
	if (responseTypeOf(read) === 'freeText') return FREE_TEXT_FIELDS;
	return formFieldsOf(
		read('defineForm', 'fields'),
		read<unknown>('jsonOutput', '[]'),
		read<unknown>('formFields.values', []),
	);
}

/** The answer page's texts: the options', or the subject and message. */
function formTextsOf(read: Read): FormTexts {
	const options = optionsOf(read);
	const text = (value: unknown) => (typeof value === 'string' ? value : '');
	return {
		title: text(options.responseFormTitle),
		description: text(options.responseFormDescription) || read<string>('message', ''),
		buttonLabel: label(options.responseFormButtonLabel, 'Submit'),
		customCss: text(options.responseFormCustomCss),
		attribution: attributed(read),
	};
}

/**
 * What a wait asked, as the mail asked it: kept with the wait (links.ts), so that the answer is read and its pages
 * shown as the mail was sent, whatever the node's expressions give when the run resumes ($runIndex, $now…).
 */
export interface Asked {
	responseType: ResponseType;
	subject: string;
	message: string;
	/** The mail's buttons. */
	choices: Choice[];
	/** Approval: whether the links open a page whose button records the answer. */
	confirmOnPage: boolean;
	/** Free Text and Custom Form: the answer page's fields and texts. */
	form?: { fields: FormField[]; texts: FormTexts };
}

/** What the mail asks, read and checked (a form that cannot be shown throws a FormDefinitionError). */
export function askedOf(read: Read, subject: string, message: string): Asked {
	const responseType = responseTypeOf(read);
	return {
		responseType,
		subject,
		message,
		choices: choicesOf(read),
		confirmOnPage: confirmsOnPage(read),
		...(responseType === 'approval'
			? {}
			: { form: { fields: formFieldsFor(read), texts: formTextsOf(read) } }),
	};
}

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

function readableDate(value: unknown, zone: string): string | undefined {
	try {
		return toApiDateTime(value, zone);
	} catch {
		return undefined;
	}
}

/** A time limit the node cannot wait for, in words naming the field. */
export class WaitLimitError extends Error {}

/** n8n takes a wait until this date or later as a wait without limit (n8n-workflow's WAIT_INDEFINITELY). */
const LAST_LIMIT = WAIT_INDEFINITELY.getTime();
const TOO_LATE = `later than n8n can wait (n8n waits until ${new Date(LAST_LIMIT - 1).toISOString().slice(0, 10)} at the latest; leave Limit Wait Time out to wait until an answer comes)`;

/** The end of an interval's limit: an Amount above 0 of a known Unit, ending before n8n's last date. */
function intervalEnd(values: IDataObject, now: number): number {
	const amount = Number(values.resumeAmount ?? 1);
	const unit = UNIT_MS[String(values.resumeUnit ?? 'hours')];
	const given = `${String(values.resumeAmount)} ${String(values.resumeUnit)}`;
	if (!Number.isFinite(amount) || amount <= 0 || !unit)
		throw new WaitLimitError(
			`Field "Limit Wait Time" needs an Amount above 0 and a Unit of minutes, hours or days (it is ${given})`,
		);
	const end = now + amount * unit;
	if (end >= LAST_LIMIT)
		throw new WaitLimitError(`Field "Limit Wait Time" ends ${TOO_LATE}: ${given}`);
	return end;
}

/** The end of a limit at a date: readable, not past, before n8n's last date. */
function dateEnd(values: IDataObject, now: number, zone: string): number {
	const given = String(values.maxDateAndTime ?? '');
	const date = readableDate(values.maxDateAndTime, zone);
	if (!date)
		throw new WaitLimitError(
			`Field "Max Date and Time" is not a date and time that can be read: "${given}"`,
		);
	const end = Date.parse(date);
	if (!Number.isFinite(end) || end >= LAST_LIMIT)
		throw new WaitLimitError(`Field "Max Date and Time" ends ${TOO_LATE}: ${given}`);
	if (end <= now)
		throw new WaitLimitError(
			`Field "Max Date and Time" is in the past (${date}): nobody could answer before it`,
		);
	return end;
}

/**
 * When the wait ends without an answer (Options → Limit Wait Time), from `now`; undefined: it waits until an
 * answer comes. A date without an offset is read in the workflow's time zone. A limit that has passed, of 0, or
 * beyond the last date n8n waits until is refused (before the mail: a question nobody can answer is not sent).
 */
export function waitLimitOf(read: Read, now: number, zone: string): Date | undefined {
	const limit = optionsOf(read).limitWaitTime as { values?: IDataObject } | undefined;
	const values = limit?.values;
	if (!values) return undefined;
	return new Date(
		(values.limitType ?? 'afterTimeInterval') === 'afterTimeInterval'
			? intervalEnd(values, now)
			: dateEnd(values, now, zone),
	);
}
