/**
 * Get Many of campaigns and templates: the platform answers every field, the full HTML body included
 * (about 22 fields a campaign). Simplify (on by default, as n8n's guideline asks for records of more than
 * 10 fields) keeps the fields people and AI agents use; off returns the records as the platform gives them.
 * As an AI tool the node gets the compact shape too, so an agent's context is not filled with HTML.
 */
import type { IDataObject, INodeType } from 'n8n-workflow';

import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { useEmulator } from '../harness/emulator.cts';
import {
	ACTION_NODE_TYPE,
	actionWorkflow,
	registerNodeType,
	runWorkflow,
} from '../harness/n8n.cts';

const env = useEmulator();
const rl = (value: string) => ({ __rl: true, mode: 'name', value });
const TOOL_NODE_TYPE = `${ACTION_NODE_TYPE}Tool`;

beforeAll(() => {
	// What n8n makes of a usableAsTool node (tool-generation/ai-tools.js): the same node under a name ending
	// in "Tool", which is what the "@tool" display condition looks at.
	const node = new MailDelivery();
	const tool = Object.create(node) as INodeType;
	tool.description = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: `${node.description.displayName} Tool`,
	};
	registerNodeType(TOOL_NODE_TYPE, tool);
});

async function records(parameters: IDataObject, asTool = false) {
	const workflow = actionWorkflow(parameters);
	if (asTool) workflow.nodes[1].type = TOOL_NODE_TYPE;
	const result = await runWorkflow({ ...workflow, credentials: env.credentials() });
	const error = result.error();
	if (error) throw error;
	return result.output('Mail Delivery').map((item) => item.json);
}

async function createCampaign() {
	await records({
		resource: 'campaign',
		operation: 'create',
		mailName: 'spring',
		senderMail: rl('news@example.com'),
		sendLists: { list: [{ listName: rl('newsletter') }] },
		subject: 'Spring {{name}}',
		content: `<html><body>${'<p>Spring sale</p>'.repeat(200)}</body></html>`,
		onlySave: true,
	});
}

describe('templates', () => {
	const getMany = { resource: 'template', operation: 'getMany', returnAll: true };

	test('by default: name, subject, the tags the template uses and its date; no HTML', async () => {
		const [template] = await records(getMany);
		expect(template).toEqual({
			templateName: 'welcome',
			templateSubject: 'Welcome, {{name}}',
			tags: ['name'],
			createDate: expect.any(String),
		});
	});

	test('Simplify off: the records as the platform gives them', async () => {
		const [template] = await records({ ...getMany, simplify: false });
		expect(template).toMatchObject({
			templateName: 'welcome',
			templateContent: '<p>Hello {{name}}, welcome aboard.</p>',
		});
		expect(template).not.toHaveProperty('tags');
	});

	test('as an AI tool: the compact shape', async () => {
		const [template] = await records({ resource: 'template', operation: 'getMany' }, true);
		expect(template).not.toHaveProperty('templateContent');
		expect(template.tags).toEqual(['name']);
	});
});

describe('campaigns', () => {
	const getMany = { resource: 'campaign', operation: 'getMany', returnAll: true };

	test('by default at most 10 fields, the status in words, no HTML', async () => {
		await createCampaign();
		const [campaign] = await records(getMany);
		expect(Object.keys(campaign).length).toBeLessThanOrEqual(10);
		expect(campaign).toMatchObject({
			mailName: 'spring',
			subject: 'Spring {{name}}',
			senderMail: 'news@example.com',
			mailStatus: -1,
			status: 'draft',
			rcptListNames: ['newsletter'],
			guid: expect.any(String),
		});
		expect(JSON.stringify(campaign)).not.toContain('<p>');
	});

	test('Simplify off: every field the platform gives, the HTML body included', async () => {
		await createCampaign();
		const [campaign] = await records({ ...getMany, simplify: false });
		expect(Object.keys(campaign).length).toBeGreaterThan(20);
		expect(campaign.mailContent).toContain('<p>Spring sale</p>');
	});

	test('as an AI tool: the compact shape', async () => {
		await createCampaign();
		const [campaign] = await records({ resource: 'campaign', operation: 'getMany' }, true);
		expect(campaign).not.toHaveProperty('mailContent');
		expect(campaign.status).toBe('draft');
	});
});
