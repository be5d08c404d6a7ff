import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as campaign from './actions/campaign';
import * as contact from './actions/contact';
import * as contactList from './actions/contactList';
import { router } from './actions/router';
import { toolDescriptionProperties } from './actions/toolDescriptions';
import * as template from './actions/template';
import * as transactionalMail from './actions/transactionalMail';
import * as verifiedSender from './actions/verifiedSender';
import * as webhook from './actions/webhook';
import { authenticationProperty, nodeCredentials } from '../shared/authentication';
import { listSearch, loadOptions } from '../shared/methods';

/**
 * Transactional Mail first, the rest alphabetically: n8n's node creator lists actions in this order, and the
 * send is what users come for (as n8n's Gmail node lists Message first).
 */
const RESOURCE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Transactional Mail', value: 'transactionalMail' },
	{ name: 'Campaign', value: 'campaign' },
	{ name: 'Contact', value: 'contact' },
	{ name: 'Contact List', value: 'contactList' },
	{ name: 'Template', value: 'template' },
	{ name: 'Verified Sender', value: 'verifiedSender' },
	{ name: 'Webhook', value: 'webhook' },
];

const properties: INodeProperties[] = [
	authenticationProperty,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: RESOURCE_OPTIONS,
		default: 'transactionalMail',
	},
	...campaign.description,
	...contact.description,
	...contactList.description,
	...template.description,
	...transactionalMail.description,
	...verifiedSender.description,
	...webhook.description,
	...toolDescriptionProperties,
];

export class MailDelivery implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Mail Delivery',
		name: 'mailDelivery',
		icon: { light: 'file:mailDelivery.svg', dark: 'file:mailDelivery.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle:
			'={{ $parameter["operation"] + ": " + $parameter["resource"] + ($parameter["sandboxMode"] === true ? " (sandbox)" : "") }}',
		description:
			'Send transactional and campaign mail, and manage templates, contacts, lists, senders and webhooks of the mail delivery platform',
		defaults: { name: 'Mail Delivery' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: nodeCredentials,
		properties,
		usableAsTool: true,
	};

	methods = { listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
