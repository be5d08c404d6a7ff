/**
 * The trigger's refusals, in words: what holds the address, and only the remedies that apply. n8n 2.x shows
 * only an activation error's message, so the remedies are in it.
 */
import type { INode } from 'n8n-workflow';
import { WebhookPathTakenError } from 'n8n-workflow';

import { holdingWorkflow, parseUrl, recordOf, withoutSecret } from '../shared/triggerAddresses';
import { type Address, addressName, holderOf, type Identity } from './plans';

/**
 * A refusal n8n does not retry (it retries every activation error but WebhookPathTakenError, five times
 * over 15 s), with this node's own words.
 */
class RegistrationRefused extends WebhookPathTakenError {
	constructor(node: INode, message: string, description: string) {
		super(node.name);
		this.message = message;
		this.description = description;
	}
}

const refusing = (test: boolean) =>
	test ? 'Cannot listen for test events' : 'Cannot publish this workflow';

function remediesWhileTesting(address: Address, unpublish: string, ownPublished: boolean) {
	return [
		ownPublished
			? // Its unpublication may have failed to put the address back: a URL n8n cannot tell from a live one.
				'unpublish this workflow while you test (if it is not published, publish and unpublish it once to put back what its trigger replaced)'
			: `${unpublish} while you test`,
		address.kind === 'default'
			? 'set Register For to Chosen Senders with a sender you use only for tests'
			: `use a sender you use only for tests instead of ${address.sender} in Sender Names or IDs`,
		'set Registration to Manual and post sample pushes to the test URL',
	];
}

/** The address another trigger holds: who holds it, and what the user can do. */
export function takenError(
	node: INode,
	id: Identity,
	{ address, holder }: { address: Address; holder: string },
): RegistrationRefused {
	const name = recordOf(holder)?.workflowName;
	const elsewhere = recordOf(holder)?.instance !== id.instance;
	const ownPublished = holderOf(holder, id) === 'published';
	const that = name ? `"${name}"` : 'that workflow';
	const origin = parseUrl(holder)!.origin;
	const who = ownPublished
		? "this workflow's published trigger"
		: `${holdingWorkflow(holder) ?? `another Mail Delivery Trigger (${withoutSecret(holder)})`}${elsewhere ? ` on another n8n (${origin})` : ''}`;
	const unpublish = `unpublish ${that}${elsewhere ? ' there' : ''}`;
	const remedies = id.test
		? remediesWhileTesting(address, unpublish, ownPublished)
		: [
				`${unpublish} first`,
				address.kind === 'default'
					? 'set Register For to Chosen Senders'
					: `remove ${address.sender} from Sender Names or IDs`,
				`move what this workflow does into ${that}`,
				...(elsewhere
					? [
							"if that n8n is gone, free the address with the Mail Delivery node's Webhook → Save (option Replace Anyway)",
						]
					: []),
			];
	const remedy = remedies.join(', or ');
	const message = `${refusing(id.test)}: ${addressName(address)} is used by ${who}. ${remedy[0].toUpperCase()}${remedy.slice(1)}.`;
	const description = id.test
		? 'The platform keeps one push address per account (and one per sender). Listening here would move the pushes away from that trigger, which would miss events until the test ends.'
		: 'The platform keeps one push address per account (and one per sender), so two workflows cannot both receive the same events. ' +
			"If the workflow holding the address no longer exists, save another address with the Mail Delivery node's Webhook → Save operation (option Replace Anyway), then publish again.";
	return new RegistrationRefused(node, message, description);
}

/** The platform shortened or changed this trigger's URL: retrying cannot help (not retried by n8n). */
export function notKeptError(
	node: INode,
	test: boolean,
	address: Address,
	stored: string,
	intended: string,
): RegistrationRefused {
	const what = intended.startsWith(stored)
		? `kept only ${stored.length} of the ${intended.length} characters of its URL`
		: 'changed its URL';
	return new RegistrationRefused(
		node,
		`${refusing(test)}: the platform ${what} at ${addressName(address)}, and that URL carries what this trigger puts back when it leaves. The address is as it was. Shorten the workflow's name or the URL that was at that address, and try again.`,
		'The trigger records in its URL what the address held before it (and the event switches before the first trigger), so that it can put them back exactly, even after n8n lost its own data. The platform does not document how long an address may be.',
	);
}

/**
 * Chosen Senders Only with no sender would hold no address, so nothing would carry the record of the
 * switches it turned on, and deactivation could not put them back: refused before any request.
 */
export function unusableError(node: INode): RegistrationRefused {
	return new RegistrationRefused(
		node,
		'Cannot publish this workflow: Register For is Chosen Senders Only, but Sender Names or IDs is empty',
		'Choose at least one sender whose events come to this workflow, or set Register For to All Senders (Default Push URL).',
	);
}
