/** The checks of a transactional send's request (section 8 limits), each named by the field the panel shows. */
import { type FieldRules, LIMITS, rules } from '../validation';

const RECIPIENT_LABELS = { to: 'To', cc: 'Cc', bcc: 'Bcc' } as const;
const recipientRules = (field: 'to' | 'cc' | 'bcc') => {
	const label = RECIPIENT_LABELS[field];
	return {
		[`messageVersions[].${field}`]: {
			label,
			rules:
				field === 'to'
					? [rules.nonEmptyList, rules.maxItems(LIMITS.recipientsPerField)]
					: [rules.maxItems(LIMITS.recipientsPerField)],
		},
		[`messageVersions[].${field}[].email`]: { label, rules: [rules.required, rules.email] },
		[`messageVersions[].${field}[].name`]: {
			label: `${label} (a recipient's name)`,
			rules: [rules.maxChars(LIMITS.recipientName)],
		},
	};
};

export const SEND_FIELD_RULES: FieldRules = {
	senderMail: { label: 'Sender Email', rules: [rules.required, rules.email] },
	senderName: { label: 'Sender Name', rules: [rules.maxChars(LIMITS.transactionalSenderName)] },
	replyTo: { label: 'Reply To', rules: [rules.email] },
	category: {
		label: 'Category',
		rules: [rules.maxBytes(LIMITS.categoryBytes), rules.lettersAndDigits],
	},
	campaign: {
		label: 'Campaign Label',
		rules: [rules.maxBytes(LIMITS.campaignBytes), rules.lettersAndDigits],
	},
	uniqueMsgID: { label: 'Unique Message ID', rules: [rules.maxBytes(LIMITS.uniqueMsgIdBytes)] },
	messageVersions: { label: 'Message Versions', rules: [rules.nonEmptyList] },
	...recipientRules('to'),
	...recipientRules('cc'),
	...recipientRules('bcc'),
};
