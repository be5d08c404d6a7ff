/**
 * The trigger's refusals, in words: what holds the address, named as the user can act on it (its
 * workflow's ID, and its current name where the trigger holding it answers), and only the remedies that
 * apply. n8n 2.x shows only an activation error's message, so the remedies are in it.
 */
import type { INode } from 'n8n-workflow';
import { WebhookPathTakenError } from 'n8n-workflow';

import { parseUrl, recordOf, withoutSecret } from '../shared/triggerAddresses';
import { type Copies, holderOf, type Identity, publicAddressOf } from './holders';
import { type Address, addressName } from './plans';
import type { Liveness } from './probe';

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

/** Whether an error is one of the trigger's refusals (which n8n does not retry). */
export const isRefusal = (error: unknown) => error instanceof RegistrationRefused;

const refusing = (test: boolean) =>
	test ? 'Cannot listen for test events' : 'Cannot publish this workflow';
const REPLACE_ANYWAY =
	"free the address with the Mail Delivery node's Webhook → Save (option Replace Anyway)";

/** The trigger holding an address, as the refusal names it, and how to make it let go. */
interface HolderInWords {
	who: string;
	/** Unpublishing it, in words: "unpublish "Orders" there". */
	unpublish: string;
	/** The workflow to move this one's work into, if there is one to name. */
	that?: string;
	/** Whether it did not answer (or could not be asked): it may no longer exist. */
	silent: boolean;
}

function describeHolder(
	id: Identity,
	holder: string,
	copies: Copies,
	liveness: Liveness | undefined,
): HolderInWords {
	const kind = holderOf(holder, id, copies);
	if (kind === 'published')
		return { who: "this workflow's published trigger", unpublish: '', silent: false };
	if (kind === 'copy') {
		const there = publicAddressOf(holder, id);
		return {
			who: `this workflow's trigger on another n8n at ${there}, which still receives its pushes (a copy of this n8n: the same workflows and instance)`,
			unpublish: `unpublish this workflow on the n8n at ${there} (or stop that n8n)`,
			silent: false,
		};
	}
	const record = recordOf(holder);
	const answer = liveness?.answered ? liveness.answer : undefined;
	const name = answer?.workflowName ?? record?.workflowName;
	const workflowId = answer?.workflowId ?? record?.workflowId;
	const silent = !liveness?.answered;
	const elsewhere = record?.instance !== id.instance;
	const origin = parseUrl(holder)!.origin;
	const that = name ? `"${name}"` : undefined;
	const workflow = name
		? `workflow "${name}"${workflowId ? ` (ID ${workflowId})` : ''}`
		: `another Mail Delivery Trigger (${withoutSecret(holder)})`;
	const where = elsewhere ? ` on another n8n (${origin})` : '';
	const answering =
		liveness && !liveness.answered
			? `, which does not answer ${elsewhere ? 'there' : `at ${origin}`}`
			: '';
	return {
		who: `${workflow}${where}${answering}`,
		unpublish: `unpublish ${that ?? 'that workflow'}${elsewhere ? ' there' : ''}`,
		that: liveness?.answered !== false ? that : undefined,
		silent,
	};
}

function remediesWhileTesting(address: Address, holder: HolderInWords, ownPublished: boolean) {
	return [
		ownPublished
			? // Its unpublication may have failed to put the address back: a URL n8n cannot tell from a live one.
				'unpublish this workflow while you test (if it is not published, publish and unpublish it once to put back what its trigger replaced)'
			: `${holder.unpublish} while you test`,
		address.kind === 'default'
			? 'set Register For to Chosen Senders with a sender you use only for tests'
			: `use a sender you use only for tests instead of ${address.sender} in Sender Names or IDs`,
		'set Registration to Manual and post sample pushes to the test URL',
	];
}

function remediesToPublish(address: Address, holder: HolderInWords) {
	return [
		`${holder.unpublish} first`,
		address.kind === 'default'
			? 'set Register For to Chosen Senders'
			: `remove ${address.sender} from Sender Names or IDs`,
		...(holder.that ? [`move what this workflow does into ${holder.that}`] : []),
		...(holder.silent ? [`if that workflow no longer exists, ${REPLACE_ANYWAY}`] : []),
	];
}

/**
 * The address another trigger holds: who holds it, and what the user can do. `liveness`: what a probe of
 * the holder learnt (undefined: not asked, a test listener's URL).
 */
export function takenError(
	node: INode,
	id: Identity,
	{ address, holder }: { address: Address; holder: string },
	copies: Copies,
	liveness?: Liveness,
): Error {
	const described = describeHolder(id, holder, copies, liveness);
	const kind = holderOf(holder, id, copies);
	const remedy = (
		id.test
			? remediesWhileTesting(address, described, kind === 'published')
			: remediesToPublish(address, described)
	).join(', or ');
	const message = `${refusing(id.test)}: ${addressName(address)} is used by ${described.who}. ${remedy[0].toUpperCase()}${remedy.slice(1)}.`;
	const description = id.test
		? 'The platform keeps one push address per account (and one per sender). Listening here would move the pushes away from that trigger, which would miss events until the test ends.'
		: kind === 'copy'
			? "The platform keeps one push address per account (and one per sender). Another n8n made from this one's user folder (the same database, instance and webhooks) publishes this workflow at another address; publishing here would take its pushes away while it still shows as published."
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
): Error {
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
export function unusableError(node: INode): Error {
	return new RegistrationRefused(
		node,
		'Cannot publish this workflow: Register For is Chosen Senders Only, but Sender Names or IDs is empty',
		'Choose at least one sender whose events come to this workflow, or set Register For to All Senders (Default Push URL).',
	);
}
