/** The event kinds of section 6.3 and their transEvent switches (TaskStatus has none). */
export const EVENT_KINDS = [
	{
		code: 'Delivered',
		transEventKey: 'delivered',
		description: 'Delivered to the recipient mailbox',
	},
	{
		code: 'Bounced',
		transEventKey: 'bounced',
		description: 'Delivery failed (hard or soft bounce)',
	},
	{
		code: 'Dropped',
		transEventKey: 'dropped',
		description: 'Not sent (filtered, unsubscribed, expired)',
	},
	{ code: 'Opened', transEventKey: 'opened', description: 'The recipient opened the mail' },
	{
		code: 'Clicked',
		transEventKey: 'clicked',
		description: 'The recipient clicked a tracked link',
	},
	{
		code: 'Unsubscribed',
		transEventKey: 'unsubscribed',
		description: 'The recipient unsubscribed',
	},
	{ code: 'SpamReport', transEventKey: 'spamReport', description: 'The recipient reported spam' },
	{
		code: 'TaskStatus',
		transEventKey: undefined,
		description: 'A mail task was created or completed (always pushed)',
	},
] as const;

export const SWITCHABLE_KINDS = EVENT_KINDS.filter((kind) => kind.transEventKey !== undefined);

/** The transEvent keys, in the order of EVENT_KINDS. */
export const SWITCH_KEYS = SWITCHABLE_KINDS.map((kind) => kind.transEventKey as string);

/** transEvent with the chosen kinds on and every other switch off. */
export function transEventFor(chosen: readonly string[]): Record<string, boolean> {
	return Object.fromEntries(
		SWITCHABLE_KINDS.map((kind) => [kind.transEventKey, chosen.includes(kind.code)]),
	);
}

/** The Events choice "Any Event": every kind, also kinds the platform adds later (the Other output). */
export const ANY_KIND = '*';

/** The kinds an Events value chooses: "Any Event" chooses all. */
export function chosenKinds(events: unknown): string[] {
	const chosen = Array.isArray(events) ? events.map(String) : [];
	return chosen.includes(ANY_KIND) ? EVENT_KINDS.map((kind) => kind.code) : chosen;
}
