// The example workflows `npm start` imports. Only n8n core nodes besides this package's two.
import { randomUUID } from 'node:crypto';

import { PACKAGE_NAME } from './n8n-runtime.mjs';

const ACTION = `${PACKAGE_NAME}.mailDelivery`;
const TRIGGER = `${PACKAGE_NAME}.mailDeliveryTrigger`;
const rl = (value) => ({ __rl: true, mode: 'list', value });
const node = (name, type, typeVersion, position, parameters, extra = {}) => ({
	id: randomUUID(),
	name,
	type,
	typeVersion,
	position,
	parameters,
	...extra,
});
const link = (to) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });

export function exampleWorkflows(credential) {
	const credentials = { mailDeliverySignatureApi: { id: credential.id, name: credential.name } };
	const people = [
		{ email: 'ada@example.org', name: 'Ada' },
		{ email: 'grace@example.org', name: 'Grace' },
		{ email: 'bounce@example.org', name: 'Bounce Test' },
		{ email: 'soft@example.org', name: 'Soft Bounce Test' },
		{ email: 'filtered@example.org', name: 'Filtered Test' },
		{ email: 'linus@example.org', name: 'Linus' },
	];
	return [
		{
			name: 'Mail Delivery: combined transactional send',
			nodes: [
				node('When clicking "Execute workflow"', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
				node('Recipients', 'n8n-nodes-base.set', 3.4, [220, 0], {
					mode: 'raw',
					jsonOutput: JSON.stringify({ people }, null, 2),
					options: {},
				}),
				node('One item per recipient', 'n8n-nodes-base.splitOut', 1, [440, 0], {
					fieldToSplitOut: 'people',
					options: {},
				}),
				node(
					'Send welcome mail',
					ACTION,
					1,
					[660, 0],
					{
						authentication: 'signature',
						resource: 'transactionalMail',
						operation: 'send',
						senderMail: rl('sender@example.com'),
						to: '={{ $json.name }} <{{ $json.email }}>',
						contentSource: 'template',
						templateName: rl('welcome'),
						tagValues: { values: [{ name: 'name', value: '={{ $json.name }}' }] },
						additionalFields: { category: 'welcome' },
						options: { combineItems: true },
					},
					{ credentials },
				),
			],
			connections: {
				'When clicking "Execute workflow"': link('Recipients'),
				Recipients: link('One item per recipient'),
				'One item per recipient': link('Send welcome mail'),
			},
			settings: { executionOrder: 'v1' },
		},
		{
			name: 'Mail Delivery: campaign to a list',
			nodes: [
				node('When clicking "Execute workflow"', 'n8n-nodes-base.manualTrigger', 1, [0, 0], {}),
				node(
					'Create campaign',
					ACTION,
					1,
					[220, 0],
					{
						authentication: 'signature',
						resource: 'campaign',
						operation: 'create',
						mailName: '=Newsletter {{ $now.toFormat("yyyy-MM-dd HH:mm:ss") }}',
						senderMail: rl('news@example.com'),
						sendLists: { list: [{ listName: rl('newsletter') }] },
						subject: 'News of the month',
						content: '<h1>News</h1><p>Read <a href="https://example.org">more</a>.</p>',
						additionalFields: { languageCode: 'en' },
					},
					{ credentials },
				),
				node(
					'Campaign tasks',
					ACTION,
					1,
					[440, 0],
					{
						authentication: 'signature',
						resource: 'campaign',
						operation: 'getMany',
						returnAll: false,
						limit: 10,
					},
					{ credentials },
				),
			],
			connections: {
				'When clicking "Execute workflow"': link('Create campaign'),
				'Create campaign': link('Campaign tasks'),
			},
			settings: { executionOrder: 'v1' },
		},
		{
			name: 'Mail Delivery: events by kind',
			nodes: [
				node(
					'Mail Delivery Trigger',
					TRIGGER,
					2,
					[0, 0],
					{
						authentication: 'signature',
						registration: 'automatic',
						registerFor: 'default',
						outputMode: 'perKind',
						options: { addIsoTimes: true, eventTimeZone: 'UTC' },
					},
					{ credentials, webhookId: randomUUID() },
				),
				...[
					'Delivered',
					'Bounced',
					'Dropped',
					'Opened',
					'Clicked',
					'Unsubscribed',
					'SpamReport',
					'TaskStatus',
					'Other',
				].map((kind, index) =>
					node(`On ${kind}`, 'n8n-nodes-base.noOp', 1, [320, index * 160 - 640], {}),
				),
			],
			connections: {
				'Mail Delivery Trigger': {
					main: [
						'Delivered',
						'Bounced',
						'Dropped',
						'Opened',
						'Clicked',
						'Unsubscribed',
						'SpamReport',
						'TaskStatus',
						'Other',
					].map((kind) => [{ node: `On ${kind}`, type: 'main', index: 0 }]),
				},
			},
			settings: { executionOrder: 'v1' },
			active: true,
		},
	];
}
