/**
 * The canvas subtitle under the node (issue 46.6), evaluated as n8n's editor evaluates it (its expression,
 * getSimpleParameterValue in 'internal' mode): the operation as people name it in the Operation field, as n8n's
 * Send Email shows "Send and Wait for Response"; the resource where the operation's name does not say it.
 */
import type { INode } from 'n8n-workflow';

import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { resources } from '../../nodes/MailDelivery/actions';
import { ACTION_NODE_TYPE, testWorkflow } from '../harness/n8n.cts';

const description = new MailDelivery().description;

function subtitleOf(parameters: Record<string, unknown>): string {
	const node: INode = {
		id: 'n',
		name: 'Mail Delivery',
		type: ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
	};
	const workflow = testWorkflow([node], {});
	return String(
		workflow.expression.getSimpleParameterValue(node, description.subtitle!, 'internal', {}),
	);
}

test.each([
	['transactionalMail', 'send', false, 'Send'],
	['transactionalMail', 'sendAndWait', false, 'Send and Wait for Response'],
	['transactionalMail', 'send', true, 'Send (sandbox)'],
	['contact', 'upsert', false, 'Create or Update: Contact'],
	['contactList', 'create', true, 'Create: Contact List (sandbox)'],
	['verifiedSender', 'getMany', false, 'Get Many: Verified Sender'],
	['webhook', 'save', false, 'Save: Webhook'],
])('%s → %s (sandbox %s) reads "%s"', (resource, operation, sandboxMode, expected) => {
	expect(subtitleOf({ resource, operation, sandboxMode })).toBe(expected);
});

test('every operation reads as its Operation entry names it, never as its stored value', () => {
	for (const [resource, { operations }] of Object.entries(resources))
		for (const [operation, module] of Object.entries(operations)) {
			const subtitle = subtitleOf({ resource, operation });
			expect(subtitle.startsWith(module.option.name)).toBe(true);
			expect(subtitle).not.toContain(operation);
		}
});
