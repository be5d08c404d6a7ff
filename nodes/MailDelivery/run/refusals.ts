/**
 * Refusals in the user's words, for the operations that run item by item. An operation says which platform
 * records its request names and whether each must be new (create, add) or exist already; when the platform
 * refuses the request, one read-only look-up per name finds the one at fault, and the error says so in its
 * title. The platform's own message stays in the description, marked as the platform's.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { PlatformError, restated } from '../../shared/transport/failures';
import { campaignExists, isVerifiedSender, listExists, templateExists } from './lookups';
import type { NamedRecord } from './operation';
import type { ItemParameters } from '../items/parameterReader';

type RecordKind = NamedRecord['kind'];

/** The names in a parameter: a picker, a typed name or a list of names. */
export const namesIn =
	(parameter: string) =>
	(parameters: ItemParameters): string[] => {
		const value = parameters.extracted(parameter);
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
const REFUSALS = new Set([400, 403, 404]);

/**
 * The error to report for a failed item: a platform refusal explained when a look-up finds the named
 * record at fault, otherwise the error as it is. Look-ups that fail change nothing.
 */
export async function explainRefusal(
	context: IExecuteFunctions,
	node: INode,
	named: NamedRecord[] | undefined,
	error: unknown,
	parameters: ItemParameters,
): Promise<unknown> {
	const failure = error instanceof PlatformError ? error.requestFailure : undefined;
	if (!named || !failure || !REFUSALS.has(failure.code ?? 0)) return error;
	for (const record of named) {
		const kind = KINDS[record.kind];
		for (const name of record.names(parameters)) {
			const exists = await kind.exists.call(context, name).catch(() => undefined);
			if (exists === undefined || exists === (record.must === 'existing')) continue;
			const condition = exists ? kind.taken(name) : kind.missing(name);
			const remedy = exists ? kind.remedy.taken : kind.remedy.missing;
			const platform = failure.platformMessage
				? `Platform message: ${failure.platformMessage} (${failure.path})`
				: `(${failure.path})`;
			return restated(node, error, {
				message: `${(error as PlatformError).message}: ${condition}`,
				description: `${remedy} (Found with one look-up after the refusal.) ${platform}`,
				itemIndex: parameters.index,
			});
		}
	}
	return error;
}
