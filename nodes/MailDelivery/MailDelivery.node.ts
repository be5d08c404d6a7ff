import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOptions, resources } from './actions';
import { route } from './actions/router';
import { WAITING_TOOLTIP } from './actions/transactionalMail/sendAndWait/tooltip';
import { sendAndWaitWebhook } from './actions/transactionalMail/sendAndWait/webhook';
import { authenticationProperty, nodeCredentials } from '../shared/authentication';
import { listSearch } from './methods';
import { loadOptions } from '../shared/methods';

const RESOURCE_NAMES = {
	transactionalMail: 'Transactional Mail',
	campaign: 'Campaign',
	contact: 'Contact',
	contactList: 'Contact List',
	template: 'Template',
	verifiedSender: 'Verified Sender',
	webhook: 'Webhook',
};

const properties: INodeProperties[] = [
	authenticationProperty,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resourceOptions(RESOURCE_NAMES),
		default: 'transactionalMail',
	},
	...Object.values(resources).flatMap((resource) => resource.description),
];

/**
 * Send and Wait for Response's links (GET opens, POST answers), as n8n's own send-and-wait nodes declare them:
 * waiting webhooks at /webhook-waiting/<execution>/<node id>, never registered on activation (restartWebhook).
 */
const waitingWebhooks: IWebhookDescription[] = (['GET', 'POST'] as const).map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
}));

/**
 * The canvas subtitle: the operation as the Operation field names it, as n8n's Send Email shows "Send and Wait
 * for Response" (n8n's own fallback finds only the first resource's Operation field). Transactional mail is what
 * the node is named for, so its operations read alone; the others name their resource ("Create or Update:
 * Contact"). The editor evaluates it with the node's parameters: a look-up made from the operations here.
 */
const SUBTITLE = `={{ (${JSON.stringify(
	Object.fromEntries(
		Object.entries(resources).flatMap(([resource, { operations }]) =>
			Object.entries(operations).map(([operation, module]) => [
				`${resource}.${operation}`,
				resource === 'transactionalMail'
					? module.option.name
					: `${module.option.name}: ${RESOURCE_NAMES[resource as keyof typeof RESOURCE_NAMES]}`,
			]),
		),
	),
)})[$parameter["resource"] + "." + $parameter["operation"]] ?? $parameter["operation"] }}${'{{ $parameter["sandboxMode"] === true ? " (sandbox)" : "" }}'}`;

export class MailDelivery implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Mail Delivery',
		name: 'mailDelivery',
		icon: { light: 'file:mailDelivery.svg', dark: 'file:mailDelivery.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: SUBTITLE,
		description:
			'Send transactional and campaign mail, and manage templates, contacts, lists, senders and webhooks of the mail delivery platform',
		defaults: { name: 'Mail Delivery' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: nodeCredentials,
		properties,
		usableAsTool: true,
		webhooks: waitingWebhooks,
		waitingNodeTooltip: WAITING_TOOLTIP,
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route(this, resources);
	}

	/** A person's answer to Send and Wait for Response (the node's only webhooks). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await sendAndWaitWebhook.call(this);
	}
}
