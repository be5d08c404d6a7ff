import type { INodeProperties } from 'n8n-workflow';

import { nameLocator } from '../common.descriptions';

export const campaignNameLocator = (description?: string): INodeProperties =>
	nameLocator({
		displayName: 'Campaign Name',
		name: 'mailName',
		searchMethod: 'searchCampaigns',
		placeholder: 'spring-sale',
		description,
	});
