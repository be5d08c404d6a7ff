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

const ourFields = paths(
	ours.properties.filter(
		(property) =>
			(property.displayOptions?.show?.operation as string[] | undefined)?.includes(
				SEND_AND_WAIT_OPERATION,
			) ?? false,
	),
);

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
