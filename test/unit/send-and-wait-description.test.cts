/**
 * Send and Wait for Response as n8n itself reads it, with n8n's own code from the main line's install: its
 * parameters named as n8n's send-and-wait nodes name them (n8n-nodes-base getSendAndWaitProperties, so people,
 * templates and n8n's tool generation find them), its webhooks as theirs, and n8n's Human review tool generated for
 * the node (n8n tool-generation/hitl-tools.js: any node type with webhooks and an operation option sendAndWait).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import type {
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { MailDeliveryTrigger } from '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';
import { actionWorkflow, testWorkflow } from '../harness/n8n.cts';
import { installedN8n } from '../harness/n8nInstall.cts';

const ours = new MailDelivery().description;

/** What n8n's own code (the main line's install) makes of the description: test/harness/hitl-probe.cjs. */
const probe = (() => {
	const { base, nodeBin } = installedN8n('2');
	const output = execFileSync(
		nodeBin,
		[path.join(__dirname, '..', 'harness', 'hitl-probe.cjs'), path.join(base, 'node_modules')],
		{ input: JSON.stringify(ours), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
	);
	return JSON.parse(/^PROBE (.*)$/m.exec(output)![1]) as {
		properties: INodeProperties[];
		webhooks: INodeTypeDescription['webhooks'];
		hasSendAndWaitOperation: boolean;
		hitlTool: INodeTypeDescription;
	};
})();

/** Every parameter path a description declares (collections and fixed collections walked), with its label. */
function labels(properties: INodeProperties[], prefix = '', found = new Map<string, string>()) {
	for (const property of properties) {
		if (property.type === 'notice') continue;
		const at = `${prefix}${property.name}`;
		if (!found.has(at)) found.set(at, property.displayName);
		if (property.type === 'collection')
			labels(property.options as INodeProperties[], `${at}.`, found);
		if (property.type === 'fixedCollection')
			for (const group of property.options as INodePropertyCollection[])
				labels(group.values, `${at}.${group.name}.`, found);
	}
	return found;
}

/** Every parameter path a description declares (collections and fixed collections walked), with its options. */
function paths(properties: INodeProperties[], prefix = ''): Map<string, string[] | undefined> {
	const found = new Map<string, string[] | undefined>();
	for (const property of properties) {
		if (property.type === 'notice') continue;
		const at = `${prefix}${property.name}`;
		const values =
			property.type === 'options'
				? (property.options as INodePropertyOptions[]).map((option) => String(option.value)).sort()
				: undefined;
		found.set(at, [...(found.get(at) ?? []), ...(values ?? [])].sort());
		if (property.type === 'collection')
			for (const [key, value] of paths(property.options as INodeProperties[], `${at}.`))
				found.set(key, value);
		if (property.type === 'fixedCollection')
			for (const group of property.options as INodePropertyCollection[])
				for (const [key, value] of paths(group.values, `${at}.${group.name}.`))
					found.set(key, value);
	}
	return found;
}

const ourProperties = ours.properties.filter(
	(property) =>
		(property.displayOptions?.show?.operation as string[] | undefined)?.includes(
			SEND_AND_WAIT_OPERATION,
		) ?? false,
);
const ourFields = paths(ourProperties);

test("every parameter of n8n's send-and-wait nodes is here by the same name, options with the same values", () => {
	const theirs = paths(probe.properties);
	const missing = [...theirs.keys()].filter((name) => !ourFields.has(name));
	expect(missing).toEqual([]);
	const differing = [...theirs]
		.filter(([name, values]) => values?.length && ourFields.get(name)?.join() !== values.join())
		.map(([name, values]) => `${name}: n8n ${values!.join()}, here ${ourFields.get(name)?.join()}`);
	expect(differing).toEqual([]);
});

test("the webhooks are n8n's send-and-wait webhooks: GET and POST at the node's id, waiting (restartWebhook)", () => {
	expect(ours.webhooks).toEqual(probe.webhooks);
});

test("every parameter of n8n's send-and-wait nodes is labelled as n8n labels it (Disapprove Button Label beside Approve Button Label)", () => {
	const ourLabels = labels(ourProperties);
	// Kept apart: "Append n8n Attribution", which n8n-node lint (strict) refuses (title case wants "N8n"), and the
	// answer page's "Response Form …" labels, which the browser suite measured cut at the narrowest panel (journey t).
	const keptApart = [
		'options.appendAttribution',
		'options.responseFormTitle',
		'options.responseFormDescription',
		'options.responseFormButtonLabel',
		'options.responseFormCustomCss',
	];
	const differing = [...labels(probe.properties)]
		.filter(([name, label]) => ourLabels.get(name) !== label && !keptApart.includes(name))
		.map(([name, label]) => `${name}: n8n "${label}", here "${ourLabels.get(name)}"`);
	expect(differing).toEqual([]);
});

test('every Options and Approval Options of both nodes offers its entries with n8n’s one spelling, "Add option"', () => {
	const placeholders = [...ours.properties, ...new MailDeliveryTrigger().description.properties]
		.filter((property) => ['options', 'approvalOptions'].includes(property.name))
		.map((property) => property.placeholder);
	expect(placeholders.length).toBeGreaterThan(10);
	expect([...new Set(placeholders)]).toEqual([
		probe.properties.find((p) => p.name === 'approvalOptions')?.placeholder,
	]);
	expect(placeholders[0]).toBe('Add option');
});

/** What the Options list offers for a response type, as the editor shows it (display options of the list). */
function offered(responseType: string): string[] {
	const options = ourProperties.find((property) => property.name === 'options')!;
	return (options.options as INodeProperties[])
		.filter((option) => {
			const shown = option.displayOptions?.show?.['/responseType'] as string[] | undefined;
			return !shown || shown.includes(responseType);
		})
		.map((option) => option.displayName);
}

test('Options: what a person in the loop needs in front; the platform’s reports and how the request is sent, each a group that says what it is for', () => {
	const groups = ['Platform Reports', 'Sending the Mail'];
	const front = ['Limit Wait Time', 'Append Attribution', 'Reply To', 'Sender Name'];
	expect(offered('approval')).toEqual([
		'Limit Wait Time',
		'Confirm on a Page',
		...front.slice(1),
		...groups,
	]);
	expect(offered('freeText')).toEqual([
		'Limit Wait Time',
		'Message Button Label',
		'Form Title',
		'Form Description',
		'Form Button Label',
		'Form Custom CSS',
		...front.slice(1),
		...groups,
	]);
	const options = ourProperties.find((property) => property.name === 'options')!;
	const sending = (options.options as INodeProperties[]).find((o) => o.name === 'sending')!;
	expect(sending.description).toMatch(/defaults suit almost every workflow/);
	const [notice, ...fields] = (sending.options as INodePropertyCollection[])[0].values;
	expect([notice.type, notice.displayName]).toEqual(['notice', sending.description]);
	expect(fields.map((value) => value.displayName)).toEqual([
		'Retry Attempts',
		'Max Wait (Seconds)',
		'Timeout (Seconds)',
		'Redo After a Crash',
	]);
});

test('the waiting node says who it waits for and until when, as n8n’s editor evaluates it (parameters only)', () => {
	const tooltip = (options: object) => {
		const { nodes, connections } = actionWorkflow({
			resource: 'transactionalMail',
			operation: 'sendAndWait',
			options,
		});
		const workflow = testWorkflow(nodes, connections);
		return String(
			workflow.expression.getSimpleParameterValue(
				workflow.getNode('Mail Delivery')!,
				ours.waitingNodeTooltip!,
				'internal',
				{},
			),
		);
	};
	const limit = (values: object) => ({ limitWaitTime: { values } });
	expect(tooltip({})).toBe(
		'Execution will continue once the person answers the mail. It waits without a time limit (Options → Limit Wait Time).',
	);
	expect(tooltip(limit({ resumeAmount: 45, resumeUnit: 'minutes' }))).toBe(
		'Execution will continue once the person answers the mail, or without an answer after 45 minutes.',
	);
	// One of a unit is said in the singular (issue 54.4: "after 1 minutes").
	expect(tooltip(limit({ resumeAmount: 1, resumeUnit: 'minutes' }))).toMatch(
		/, or without an answer after 1 minute\.$/,
	);
	expect(tooltip(limit({ resumeAmount: 1, resumeUnit: 'days' }))).toMatch(/after 1 day\.$/);
	expect(tooltip(limit({ resumeAmount: 1 }))).toMatch(/after 1 hour\.$/);
	expect(
		tooltip(limit({ limitType: 'atSpecifiedTime', maxDateAndTime: '2026-12-01T10:00:00' })),
	).toMatch(/, or without an answer at 2026-12-01T10:00:00\.$/);
	expect(tooltip(limit({ resumeAmount: '={{ $json.days }}', resumeUnit: 'days' }))).toMatch(
		/, or without an answer at its time limit\.$/,
	);
	// Another operation: no text.
	expect(
		String(
			testWorkflow(
				actionWorkflow({ resource: 'transactionalMail', operation: 'send' }).nodes,
				{},
			).expression.getSimpleParameterValue(
				actionWorkflow({ resource: 'transactionalMail', operation: 'send' }).nodes[1],
				ours.waitingNodeTooltip!,
				'internal',
				{},
			),
		),
	).toBe('');
});

test('the Human review tool’s Description says what it is for when it guards another tool', () => {
	// The Human review tool's operation is Send and Wait for Response (a hidden parameter): its Description is that one's.
	const description = probe.hitlTool.properties.find(
		(property) =>
			property.name === 'toolDescription' &&
			(property.displayOptions?.show?.operation as string[] | undefined)?.includes(
				SEND_AND_WAIT_OPERATION,
			),
	);
	expect(description?.default).toMatch(/Human review tool between an AI agent and another tool/);
});

test('n8n files it under Human in the Loop and makes its Human review tool', () => {
	expect(probe.hasSendAndWaitOperation).toBe(true);
	const description = probe.hitlTool;
	expect(description.name).toBe('mailDeliveryHitlTool');
	const hidden = (name: string) =>
		description.properties.find((property) => property.name === name && property.type === 'hidden')
			?.default;
	expect([hidden('resource'), hidden('operation'), hidden('responseType')]).toEqual([
		'transactionalMail',
		SEND_AND_WAIT_OPERATION,
		'approval',
	]);
});
