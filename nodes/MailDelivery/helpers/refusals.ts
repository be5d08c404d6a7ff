/**
 * Refusals in the user's words, for the operations that run item by item. An operation says which platform
 * records its request names and whether each must be new (create, add) or exist already; when the platform
 * refuses the request, one read-only look-up per name finds the one at fault, and the error says so in its
 * title. The platform's own message stays in the description, marked as the platform's.
 */
import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { campaignExists, isVerifiedSender, listExists, templateExists } from './lookups';

type RecordKind = 'template' | 'list' | 'campaign' | 'sender';

/** A platform record an operation's request names. */
export interface NamedRecord {
	kind: RecordKind;
	/** `new`: the request creates it, so the name must be free; `existing`: the request acts on it. */
	must: 'new' | 'existing';
	/** The names the item's request carries, read as the operation reads them. */
	names: (context: IExecuteFunctions, itemIndex: number) => string[];
}

/** The names in a parameter: a picker, a typed name or a list of names. */
export const namesIn =
	(parameter: string) =>
	(context: IExecuteFunctions, itemIndex: number): string[] => {
		const value = context.getNodeParameter(parameter, itemIndex, '', { extractValue: true });
		return (Array.isArray(value) ? value : [value])
			.map((name) => String(name ?? '').trim())
			.filter(Boolean);
	};

const KINDS: Record<
	RecordKind,
	{
		exists: (this: IExecuteFunctions, name: string) => Promise<boolean>;
		taken: (name: string) => string;
		missing: (name: string) => string;
		remedy: { taken: string; missing: string };
	}
> = {
	template: {
		exists: templateExists,
		taken: (name) => `a template named "${name}" already exists`,
		missing: (name) => `there is no template named "${name}"`,
		remedy: {
			taken: 'Choose another template name, or delete the existing template first.',
			missing: 'Check the name (it must match exactly), or choose the template from the list.',
		},
	},
	list: {
		exists: listExists,
		taken: (name) => `a contact list named "${name}" already exists`,
		missing: (name) => `there is no contact list named "${name}"`,
		remedy: {
			taken: 'Choose another list name, or use the existing list.',
			missing: 'Check the name (it must match exactly), or choose the list from the list.',
		},
	},
	campaign: {
		exists: campaignExists,
		taken: (name) => `a campaign named "${name}" already exists`,
		missing: (name) => `there is no campaign named "${name}"`,
		remedy: {
			taken:
				'Campaign names are unique: choose another name, or delete the existing campaign first.',
			missing: 'Check the name (it must match exactly), or choose the campaign from the list.',
		},
	},
	sender: {
		exists: isVerifiedSender,
		taken: (address) => `${address} is already a sender of the account`,
		missing: (address) => `${address} is not a sender of the account`,
		remedy: {
			taken: 'Nothing needs adding: the sender is there (Verified Sender → Get Many lists it).',
			missing: 'Choose a sender from the list, or add this one with Verified Sender → Add first.',
		},
	},
};

/** Answers with which the platform refuses a request without doing any of it (section 5.1, 7). */
const REFUSALS = new Set(['400', '403', '404']);

/**
 * The error to report for a failed item: a platform refusal explained when a look-up finds the named
 * record at fault, otherwise the error as it is. Look-ups that fail change nothing.
 */
export async function explainRefusal(
	this: IExecuteFunctions,
	named: NamedRecord[] | undefined,
	error: unknown,
	itemIndex: number,
): Promise<unknown> {
	if (!named || !(error instanceof NodeApiError) || !REFUSALS.has(String(error.httpCode)))
		return error;
	for (const record of named) {
		const kind = KINDS[record.kind];
		for (const name of record.names(this, itemIndex)) {
			const exists = await kind.exists.call(this, name).catch(() => undefined);
			if (exists === undefined || exists === (record.must === 'existing')) continue;
			const condition = exists ? kind.taken(name) : kind.missing(name);
			const remedy = exists ? kind.remedy.taken : kind.remedy.missing;
			return new NodeApiError(this.getNode(), (error.errorResponse ?? {}) as JsonObject, {
				message: `${error.message}: ${condition}`,
				description: `${remedy} (Found with one look-up after the refusal.) ${platformPart(error)}`,
				httpCode: error.httpCode ?? undefined,
				itemIndex,
			});
		}
	}
	return error;
}

/** "Platform message: … (/v5/…)": the platform's own words and the address, from the transport's error. */
function platformPart(error: NodeApiError): string {
	const description = String(error.description ?? '');
	const path = /\((\/v5\/[^)\s]+)\)/.exec(description)?.[1];
	const message = (error.errorResponse as { message?: unknown } | undefined)?.message;
	if (!path) return description;
	return message ? `Platform message: ${String(message)} (${path})` : `(${path})`;
}
