/** How the pickers of both nodes name the platform's records. */
import type { IDataObject } from 'n8n-workflow';

/** senderType of a verified sender (2.5): 1 marketing (campaigns), 2 transactional. */
const SENDER_KINDS: Record<string, string> = { '1': 'marketing', '2': 'transactional' };

/** "news@example.com (marketing)": pickers say which sender suits which kind of mail. */
export function senderLabel(address: string, sender: IDataObject): string {
	const kind = SENDER_KINDS[String(sender.senderType ?? '')];
	return kind ? `${address} (${kind})` : address;
}

/** The name of a contact list record: the API's table spells it ListName, its sample listName. */
export const listNameOf = (list: IDataObject) => String(list.ListName ?? list.listName ?? '');
