/** The checks of a transactional send's request (section 8 limits), each named by the field the panel shows. */
import { type FieldRules, LIMITS, rules } from '../../../helpers/validation';

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
			rules: [rules.textOrDigits, rules.singleLine, rules.maxChars(LIMITS.recipientName)],
		},
	};
};

// Text first: a number or an object is named as such before any other rule looks at it; names, labels and the
// message ID take a whole number as its digits. Subject, Sender Name, recipient names and the message ID
// become mail headers: one line each.
const subject = { label: 'Subject', rules: [rules.text, rules.singleLine] };
const content = { label: 'HTML Content', rules: [rules.text] };
const template = { label: 'Template', rules: [rules.text] };

export const SEND_FIELD_RULES: FieldRules = {
	senderMail: { label: 'Sender Email', rules: [rules.required, rules.email] },
	senderName: {
		label: 'Sender Name',
		rules: [rules.textOrDigits, rules.singleLine, rules.maxChars(LIMITS.transactionalSenderName)],
	},
	replyTo: { label: 'Reply To', rules: [rules.text, rules.email] },
	category: {
		label: 'Category',
		rules: [rules.textOrDigits, rules.maxBytes(LIMITS.categoryBytes), rules.lettersAndDigits],
	},
	campaign: {
		label: 'Campaign Label',
		rules: [rules.textOrDigits, rules.maxBytes(LIMITS.campaignBytes), rules.lettersAndDigits],
	},
	uniqueMsgID: {
		label: 'Unique Message ID',
		rules: [rules.textOrDigits, rules.singleLine, rules.maxBytes(LIMITS.uniqueMsgIdBytes)],
	},
	subject,
	content,
	templateName: template,
	'messageVersions[].subject': subject,
	'messageVersions[].content': content,
	'messageVersions[].templateName': template,
	messageVersions: { label: 'Message Versions', rules: [rules.nonEmptyList] },
	...recipientRules('to'),
	...recipientRules('cc'),
	...recipientRules('bcc'),
};
