// The node as an AI tool, the way an agent meets it: n8n's MCP Server Trigger serves the Mail Delivery tool,
// and a real MCP client (the official SDK, over Streamable HTTP) lists it and calls it. And the node as n8n's
// Human review tool: an AI agent (its chat model a stand-in for OpenAI's API, test/e2e/fake-llm.mjs) whose tool
// call waits until a person approves it by mail.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { PACKAGE_NAME } from '../../scripts/n8n-runtime.mjs';
import {
	activate,
	createCredential,
	credentialData,
	eventually,
	runAction,
	startStack,
} from './env.mjs';
import { agentWorkflow, startFakeLlm } from './fake-llm.mjs';
import { executionOf, mailLinks, openLink, outputOf, startAsking } from './waiting.mjs';

const line = process.env.N8N_LINE ?? '2';
const MCP_PATH = `mail-delivery-${randomUUID().slice(0, 8)}`;
let stack;
let client;
let credential;

const rl = (value) => ({ __rl: true, mode: 'list', value });

before(async () => {
	// With its editor: a test reads the node list the editor loads (the Human review tool n8n makes).
	stack = await startStack(line, { editor: true });
	credential = await createCredential(
		stack.session,
		'mailDeliverySignatureApi',
		credentialData(stack.emulator, 'mailDeliverySignatureApi'),
	);
	const credentials = { mailDeliverySignatureApi: { id: credential.id, name: credential.name } };
	const workflow = {
		name: 'Mail Delivery as an MCP tool',
		nodes: [
			{
				id: randomUUID(),
				name: 'MCP Server Trigger',
				type: '@n8n/n8n-nodes-langchain.mcpTrigger',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { path: MCP_PATH },
			},
			{
				id: randomUUID(),
				name: 'Send welcome mail',
				type: `${PACKAGE_NAME}.mailDeliveryTool`,
				typeVersion: 1,
				position: [0, 200],
				credentials,
				parameters: {
					authentication: 'signature',
					resource: 'transactionalMail',
					operation: 'send',
					senderMail: rl('sender@example.com'),
					to: "={{ $fromAI('to', 'Recipients, separated by commas', 'string') }}",
					contentSource: 'template',
					templateName: rl('welcome'),
					// The template's {{name}}: a message without a value for it fails by default.
					tagValues: { values: [{ name: rl('name'), value: 'friend' }] },
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: 'Find campaigns',
				type: `${PACKAGE_NAME}.mailDeliveryTool`,
				typeVersion: 1,
				position: [200, 200],
				credentials,
				parameters: { authentication: 'signature', resource: 'campaign', operation: 'getMany' },
			},
		],
		connections: {
			'Send welcome mail': {
				ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]],
			},
			'Find campaigns': { ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
	await activate(stack.session, workflow);
	// n8n 2 publishes in the background: connect once the MCP endpoint answers.
	client = await eventually(
		async () => {
			const candidate = new Client({ name: 'mail-delivery-e2e', version: '1.0.0' });
			try {
				await candidate.connect(
					new StreamableHTTPClientTransport(new URL(`${stack.n8n.baseUrl}/mcp/${MCP_PATH}`)),
				);
				return candidate;
			} catch {
				return false;
			}
		},
		'the MCP Server Trigger to answer',
		60_000,
	);
});

after(async () => {
	await client?.close().catch(() => {});
	await stack?.n8n.stop();
	await stack?.emulator.stop();
});

const mails = async () => (await stack.emulator.control('GET', 'mails')).mails;
const textOf = (result) => result.content.map((part) => part.text ?? '').join('\n');

test('the tools are listed with descriptions that say real mail goes out, what To accepts and what comes back', async () => {
	const { tools } = await client.listTools();
	const send = tools.find((tool) => tool.name === 'Send_welcome_mail');
	assert.ok(send, `tools listed: ${tools.map((tool) => tool.name).join(', ')}`);
	assert.match(send.description, /Sends real email/);
	assert.match(
		send.description,
		/separated by commas, each an address or "Name <address>", at most 20/,
	);
	assert.match(send.description, /Returns success, the recipients, the request's uniqueMsgID/);
	assert.deepEqual(Object.keys(send.inputSchema.properties ?? {}), ['to']);
	const find = tools.find((tool) => tool.name === 'Find_campaigns');
	assert.match(find.description, /Returns at most Limit tasks/);
});

test('a call sends exactly one mail and returns its result', async () => {
	const before = (await mails()).length;
	const result = await client.callTool({
		name: 'Send_welcome_mail',
		arguments: { to: 'Ada <ada@example.org>' },
	});
	assert.notEqual(result.isError, true, textOf(result));
	assert.match(textOf(result), /"success":\s*true/);
	assert.match(textOf(result), /uniqueMsgID/);
	const after = await mails();
	assert.equal(after.length, before + 1);
	assert.equal(after.at(-1).email, 'ada@example.org');
	// The agent gets the ID that the platform's events about this mail will carry.
	assert.ok(textOf(result).includes(after.at(-1).uniqueMsgID), textOf(result));
});

test('a bad address comes back as a clear error naming the field, and the session goes on', async () => {
	const before = (await mails()).length;
	const result = await client.callTool({
		name: 'Send_welcome_mail',
		arguments: { to: 'margaret(at)example.org' },
	});
	assert.match(
		textOf(result),
		/Field "To" "margaret\(at\)example\.org" is not a valid email address/,
	);
	assert.equal((await mails()).length, before);
	const again = await client.callTool({
		name: 'Send_welcome_mail',
		arguments: { to: 'grace@example.org' },
	});
	assert.match(textOf(again), /"success":\s*true/);
	assert.equal((await mails()).length, before + 1);
});

test('the campaigns an agent finds come in their compact shape: no HTML body in its context', async () => {
	const created = await runAction(stack, {
		name: 'campaign with a long body',
		credential,
		parameters: {
			resource: 'campaign',
			operation: 'create',
			mailName: `mcp-${randomUUID().slice(0, 6)}`,
			senderMail: { __rl: true, mode: 'name', value: 'news@example.com' },
			onlySave: true,
			subject: 'Spring',
			content: `<html><body>${'<p>Spring sale</p>'.repeat(200)}</body></html>`,
		},
	});
	assert.equal(created.status, 200, JSON.stringify(created.data));
	const result = await client.callTool({ name: 'Find_campaigns', arguments: {} });
	const text = textOf(result);
	assert.notEqual(result.isError, true, text);
	assert.match(text, /"status":\s*"draft"/);
	assert.doesNotMatch(text, /Spring sale|mailContent/);
});

test('n8n offers the node as a Human review tool (Human in the Loop), with the send-and-wait fields', async () => {
	const types = await (
		await fetch(`${stack.n8n.baseUrl}/types/nodes.json`, {
			headers: { cookie: stack.session.cookie },
		})
	).json();
	const review = types.find((type) => type.name === `${PACKAGE_NAME}.mailDeliveryHitlTool`);
	assert.ok(review, 'n8n made no mailDeliveryHitlTool');
	assert.equal(review.displayName, 'Mail Delivery');
	assert.deepEqual(
		review.outputs.map((output) => [output.displayName, output.type]),
		[['Human review', 'ai_tool']],
	);
	const names = review.properties.map((property) => property.name);
	for (const name of ['sendTo', 'subject', 'message', 'approvalOptions', 'senderMail'])
		assert.ok(names.includes(name), `the Human review tool has no ${name}`);
	assert.equal(
		review.properties.find((property) => property.name === 'operation').default,
		'sendAndWait',
	);
});

describe('an AI agent gated by the Human review tool', () => {
	let llm;
	let agent;

	before(async () => {
		llm = await startFakeLlm();
		const openAi = await createCredential(stack.session, 'openAiApi', {
			apiKey: 'sk-test',
			url: `${llm.url}/v1`,
			header: false,
		});
		agent = agentWorkflow({ credential, openAi });
	});
	after(async () => await llm?.close());

	for (const [answer, expected] of [
		['approves', /"tasks"|"status"/],
		['declines', /User rejected the tool call to Find campaigns/],
	])
		test(`the tool call waits for the person's mail; the person ${answer}`, async () => {
			const { workflow, hookPath } = agent(answer);
			const id = await startAsking({
				session: stack.session,
				webhookBase: stack.n8n.baseUrl,
				workflow,
				hookPath,
			});
			await executionOf(stack.session, id, 'waiting', 60_000);
			const { mail, links } = await mailLinks(stack.emulator, `${answer}@example.org`);
			assert.match(mail.html, /The agent wants to run this tool: Find_campaigns/);
			// Approve and Disapprove, each confirmed on its page.
			const link = answer === 'approves' ? links[1] : links[0];
			assert.match((await openLink(link)).text, /<form method="POST">/);
			assert.match((await openLink(link, { method: 'POST' })).text, /Got it, thanks/);
			const done = await executionOf(stack.session, id, 'success', 60_000);
			// The model's second turn got the tool's result (the campaigns), or the person's refusal.
			const toolMessage = llm.requests
				.at(-1)
				.messages.findLast((message) => message.role === 'tool');
			assert.match(String(toolMessage?.content), expected);
			assert.match(outputOf(done, 'AI Agent')[0].output, /^Done:/);
		});

	test("the agent's second call of the tool needs a new answer: the first mail's Approve does not give it", async () => {
		llm.rounds = 2;
		try {
			const { workflow, hookPath } = agent('twice');
			const id = await startAsking({
				session: stack.session,
				webhookBase: stack.n8n.baseUrl,
				workflow,
				hookPath,
			});
			await executionOf(stack.session, id, 'waiting', 60_000);
			const first = (await mailLinks(stack.emulator, 'twice@example.org')).links[1];
			assert.match((await openLink(first, { method: 'POST' })).text, /Got it, thanks/);
			// The agent calls the tool again: a second mail, and the run waits for its answer.
			const second = await eventually(async () => {
				const { links } = await mailLinks(stack.emulator, 'twice@example.org');
				return links[1] !== first ? links[1] : false;
			}, 'the second mail');
			await executionOf(stack.session, id, 'waiting', 60_000);
			// Still signed as n8n signs it (n8n lets it through): the node refuses it as a link of another wait.
			const stale = await openLink(first, { method: 'POST' });
			assert.equal(stale.status, 410);
			assert.match(stale.text, /No action required/);
			assert.equal((await executionOf(stack.session, id, 'waiting')).status, 'waiting');
			assert.match((await openLink(second, { method: 'POST' })).text, /Got it, thanks/);
			await executionOf(stack.session, id, 'success', 60_000);
			const tools = llm.requests.at(-1).messages.filter((message) => message.role === 'tool');
			assert.equal(tools.length, 2);
		} finally {
			llm.rounds = 1;
		}
	});
});
