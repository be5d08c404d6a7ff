import type { INodeProperties } from 'n8n-workflow';

import { trimmed } from '../../helpers/requestValues';
import { assertValid, labelledBy, rules } from '../../helpers/validation';
import type { ItemParameters } from '../../items/parameterReader';

/** The address that names a contact (Get, Delete). */
export const contactEmailField: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'name@email.com',
	required: true,
	default: '',
};

const EMAIL_RULES = labelledBy([contactEmailField], {
	email: [rules.required, rules.text, rules.email],
});

/** The request's body naming the item's contact, refused before any request when the address is not one. */
export function contactNamedBy(item: ItemParameters) {
	const body = { email: trimmed(item.get('email')) };
	assertValid(item.node, body, EMAIL_RULES, item.index);
	return body as { email: string };
}

/** Items naming the same address run in input order (the platform matches it whatever its case). */
export const contactRecordOf = (item: ItemParameters) =>
	String(item.get('email', '')).trim().toLowerCase();
