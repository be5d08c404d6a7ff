import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOptions, resources } from './actions';
import { route } from './run/router';
import { authenticationProperty, nodeCredentials } from '../shared/authentication';
import { listSearch } from './methods';
import { loadOptions } from '../shared/methods';

const properties: INodeProperties[] = [
	authenticationProperty,
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: resourceOptions({
			transactionalMail: 'Transactional Mail',
			campaign: 'Campaign',
			contact: 'Contact',
			contactList: 'Contact List',
			template: 'Template',
			verifiedSender: 'Verified Sender',
			webhook: 'Webhook',
		}),
		default: 'transactionalMail',
	},
	...Object.values(resources).flatMap((resource) => resource.description),
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
		return await route(this, resources);
	}
}
