/**
 * What n8n's editor makes of the descriptions, read from its code (editor-ui 2.41.1, workflows.store:
 * the node creator's action lists; cli load-nodes-and-credentials: Custom API Call) and checked in the
 * browser suite: the order and entries of the node creator, and labels short enough not to be cut.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { MailDeliveryAuthCodeOAuth2Api } from '../../credentials/MailDeliveryAuthCodeOAuth2Api.credentials';
import { MailDeliveryClientCredentialsOAuth2Api } from '../../credentials/MailDeliveryClientCredentialsOAuth2Api.credentials';
import { MailDeliverySignatureApi } from '../../credentials/MailDeliverySignatureApi.credentials';
import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { MailDeliveryTrigger } from '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';

const action = new MailDelivery().description;
const trigger = new MailDeliveryTrigger().description;

/** The node creator's "<resource> Actions" lists, in its order: resources, then their operations, as listed. */
function creatorActions(): string[] {
	const resources = action.properties.find((property) => property.name === 'resource')!
		.options as INodePropertyOptions[];
	return resources.flatMap((resource) => {
		const operation = action.properties.find(
			(property) =>
				property.name === 'operation' &&
				(property.displayOptions?.show?.resource as string[] | undefined)?.includes(
					String(resource.value),
				),
		);
		return ((operation?.options ?? []) as INodePropertyOptions[]).map(
			(option) => option.action ?? option.name,
		);
	});
}

test('the node creator lists "Send transactional mail" first among the actions', () => {
	expect(creatorActions()[0]).toBe('Send transactional mail');
});

test('the node creator\'s one "Mail Delivery" entry, whose description is the trigger\'s, speaks of the actions and the events', () => {
	// editor-ui 2.41.1 (generateMergedNodesAndActions): a trigger named like an action node plus "Trigger" is merged
	// into that node's entry, under "What happens next?" as under triggers, and the entry takes the trigger's
	// description.
	expect(trigger.name.replace('Trigger', '')).toBe(action.name);
	const shown = trigger.description;
	expect(shown).toMatch(/\bsend\b/i);
	expect(shown).toMatch(/\bcampaign\b/i);
	expect(shown).toMatch(/\bevents?\b/i);
	expect(shown).not.toMatch(/^Starts the workflow/);
});

test('the node creator offers a trigger entry for every event, before one per kind', () => {
	// n8n takes the trigger's entries from its property named "Events": one per option, named by its action.
	const events = trigger.properties.find((property) => property.displayName === 'Events')!;
	const entries = (events.options as INodePropertyOptions[]).map(
		(option) =>
			option.action ?? `On ${option.name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`,
	);
	expect(entries[0]).toBe('On any event');
	expect(entries).toContain('On delivered');
});

test.each([
	new MailDeliverySignatureApi(),
	new MailDeliveryClientCredentialsOAuth2Api(),
	new MailDeliveryAuthCodeOAuth2Api(),
])(
	'%p: n8n sees its authenticate, so it offers Custom API Call (the HTTP Request node with this credential)',
	(credential) => {
		// n8n copies each credential type with a spread and offers Custom API Call for nodes whose credential
		// keeps an `authenticate` there (supportsProxyAuth); a class method is left behind by a spread.
		const asN8nSeesIt = { ...credential } as { authenticate?: unknown };
		expect(asN8nSeesIt.authenticate).toBeInstanceOf(Function);
	},
);

/** Every label drawn beside the hover controls of a field (Fixed | Expression, menu, delete), nested ones too. */
function labels(properties: INodeProperties[], nested = false): Array<[string, boolean]> {
	return properties.flatMap((property) => {
		if (!property || property.type === 'notice') return [];
		const own: Array<[string, boolean]> = property.displayName
			? [[property.displayName, nested]]
			: [];
		const children = (property.options ?? []).flatMap((option) => {
			if (option && 'values' in option) return labels(option.values, true);
			if (option && 'type' in option) return labels([option as INodeProperties], true);
			return [];
		});
		return [...own, ...children];
	});
}

/**
 * Longer labels the browser suite measured whole at the narrowest panel, hovered: Ignore Repeated Events (the
 * issue's own name for it) in journey s (test/e2e/browser/repeated-events.mjs); Send and Wait's labels as n8n's own
 * send-and-wait nodes word them in journey t (test/e2e/browser/human-review.mjs).
 */
const MEASURED_WHOLE = [
	'Ignore Repeated Events',
	'Disapprove Button Label',
	'Disapprove Button Style',
];

test('no label is cut: at most 20 characters inside a collection, 23 at the top (measured at the narrowest panel)', () => {
	const tooLong = [...labels(action.properties), ...labels(trigger.properties)]
		.filter(([label, nested]) => label.length > (nested ? 20 : 23))
		.filter(([label]) => !MEASURED_WHOLE.includes(label))
		.map(([label]) => label);
	expect([...new Set(tooLong)]).toEqual([]);
});

test("the trigger's outputs are labelled as the event kinds are named, whole on the canvas (at most 11 characters)", () => {
	const outputs = trigger.outputs as string;
	const draw = (parameter: object) =>
		(
			new Function('$parameter', `return ${outputs.slice(3, -2)}`) as (
				p: object,
			) => Array<{ displayName: string }>
		)(parameter);
	const names = draw({ outputMode: 'perKind', events: ['*'] }).map((output) => output.displayName);
	expect(names).toEqual([
		'Delivered',
		'Bounced',
		'Dropped',
		'Opened',
		'Clicked',
		'Unsubscribe',
		'SpamReport',
		'TaskStatus',
		'Other',
	]);
	// Beside an output not yet connected n8n's canvas has 76 px for its label (measured by journey j).
	expect(names.filter((name) => name.length > 11)).toEqual([]);
});
