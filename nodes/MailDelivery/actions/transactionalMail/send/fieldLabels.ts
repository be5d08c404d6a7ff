/**
 * The send's checks name each field as the panel in use labels it: with Recipients From: An Input Field the
 * addresses come from *Email Field* and names from *Name Field*, with versions given as JSON from *Message
 * Versions (JSON)*, so an error never names a field the user cannot see. The API's path stays in the
 * error's description.
 */
import type { FieldRules } from '../../../helpers/validation';
import { SEND_FIELD_RULES } from './fieldRules';

/** Which of the send's fields give its messages, as the panel shows them: what an error may name. */
export type MessageFieldsShown = 'toField' | 'inputField' | 'versionFields' | 'versionsJson';

export function messageFieldsShown(
	perItem: boolean,
	recipientSource: unknown,
	versionsMode: string,
): MessageFieldsShown {
	if (perItem) return recipientSource === 'inputField' ? 'inputField' : 'toField';
	return versionsMode === 'json' ? 'versionsJson' : 'versionFields';
}

/** A key of a version written as JSON, named with the field that holds it: "Message Versions (JSON): to". */
const inJson = (key: string) => `Message Versions (JSON): ${key}`;

/** The label of To on each panel (Cc and Bcc keep theirs but inside JSON). */
export function recipientLabel(panel: MessageFieldsShown, field: 'To' | 'Cc' | 'Bcc'): string {
	if (panel === 'versionsJson') return inJson(field.toLowerCase());
	if (panel === 'inputField' && field === 'To') return 'Email Field';
	return field;
}

function relabelled(panel: MessageFieldsShown): FieldRules {
	return Object.fromEntries(
		Object.entries(SEND_FIELD_RULES).map(([path, entry]) => {
			if (Array.isArray(entry) || !path.startsWith('messageVersions[]')) return [path, entry];
			if (panel === 'versionsJson') {
				// messageVersions[].to[].name → "to (a recipient's name)", as the key is written in the JSON.
				const key = path.split('.')[1]?.replace(/\[\]$/, '');
				if (!key) return [path, { ...entry, label: 'Message Versions (JSON)' }];
				return [
					path,
					{
						...entry,
						label: inJson(path.endsWith('].name') ? `${key} (a recipient's name)` : key),
					},
				];
			}
			if (
				panel === 'inputField' &&
				(path === 'messageVersions[].to' || path === 'messageVersions[].to[].email')
			)
				return [path, { ...entry, label: 'Email Field' }];
			if (panel === 'inputField' && path === 'messageVersions[].to[].name')
				return [path, { ...entry, label: 'Name Field' }];
			return [path, entry];
		}),
	);
}

/** Built once per panel: validation compiles each rule set once. */
const RULES = new Map<MessageFieldsShown, FieldRules>();

function sendFieldRules(panel: MessageFieldsShown): FieldRules {
	let fieldRules = RULES.get(panel);
	if (!fieldRules) {
		fieldRules =
			panel === 'toField' || panel === 'versionFields' ? SEND_FIELD_RULES : relabelled(panel);
		RULES.set(panel, fieldRules);
	}
	return fieldRules;
}

/** A panel's rules whole, and in two parts: the request's fields, and its message versions'. */
interface RulesByPart {
	whole: FieldRules;
	request: FieldRules;
	versions: FieldRules;
}

const PARTS = new Map<MessageFieldsShown, RulesByPart>();

export function sendRulesByPart(panel: MessageFieldsShown): RulesByPart {
	let parts = PARTS.get(panel);
	if (!parts) {
		const all = Object.entries(sendFieldRules(panel));
		const ofVersions = ([path]: [string, unknown]) => path.startsWith('messageVersions');
		parts = {
			whole: sendFieldRules(panel),
			request: Object.fromEntries(all.filter((rule) => !ofVersions(rule))),
			versions: Object.fromEntries(all.filter(ofVersions)),
		};
		PARTS.set(panel, parts);
	}
	return parts;
}
