/**
 * The node's settings as the send (execute) and the answer (webhook) both read them: the response type, the
 * buttons, the form and its texts, the time limit. One reader each side (`Read`), the same readings.
 */
import type { IDataObject } from 'n8n-workflow';

import { toApiDateTime } from '../../../../shared/dates';
import { FREE_TEXT_FIELDS, type FormField, formFieldsOf, type FormTexts } from './form';
import type { Answer } from './links';
import type { Button } from './mail';

/** A parameter's value as the side reads it (checked as its field's kind), or the fallback. */
export type Read = <T>(name: string, fallback: T) => T;

type ResponseType = 'approval' | 'freeText' | 'customForm';

export const responseTypeOf = (read: Read): ResponseType =>
	read<ResponseType>('responseType', 'approval');

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
export function choicesOf(read: Read): Choice[] {
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
export const confirmsOnPage = (read: Read) => optionsOf(read).confirmOnPage !== false;

/** Whether the mail and the pages end with n8n's attribution (on by default, as n8n's nodes). */
export const attributed = (read: Read) => optionsOf(read).appendAttribution !== false;

/** The fields the answer page shows: Free Text's one, or the Custom Form's (checked). */
export function formFieldsFor(read: Read): FormField[] {
	if (responseTypeOf(read) === 'freeText') return FREE_TEXT_FIELDS;
	return formFieldsOf(
		read('defineForm', 'fields'),
		read<unknown>('jsonOutput', '[]'),
		read<unknown>('formFields.values', []),
	);
}

/** The answer page's texts: the options', or the subject and message. */
export function formTextsOf(read: Read): FormTexts {
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

const UNIT_MS: Record<string, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

function readableDate(value: unknown, zone: string): string | undefined {
	try {
		return toApiDateTime(value, zone);
	} catch {
		return undefined;
	}
}

/** A time limit that cannot be read, in words naming the field. */
export class WaitLimitError extends Error {}

/**
 * When the wait ends without an answer (Options → Limit Wait Time), from `now`; undefined: it waits until an
 * answer comes. A date without an offset is read in the workflow's time zone.
 */
export function waitLimitOf(read: Read, now: number, zone: string): Date | undefined {
	const limit = optionsOf(read).limitWaitTime as { values?: IDataObject } | undefined;
	const values = limit?.values;
	if (!values) return undefined;
	if ((values.limitType ?? 'afterTimeInterval') === 'afterTimeInterval') {
		const amount = Number(values.resumeAmount ?? 1);
		const unit = UNIT_MS[String(values.resumeUnit ?? 'hours')];
		if (!Number.isFinite(amount) || amount < 0 || !unit)
			throw new WaitLimitError(
				`Field "Limit Wait Time" needs an Amount of 0 or more and a Unit of minutes, hours or days (it is ${String(values.resumeAmount)} ${String(values.resumeUnit)})`,
			);
		return new Date(now + amount * unit);
	}
	const date = readableDate(values.maxDateAndTime, zone);
	if (!date)
		throw new WaitLimitError(
			`Field "Max Date and Time" is not a date and time that can be read: "${String(values.maxDateAndTime ?? '')}"`,
		);
	return new Date(date);
}
