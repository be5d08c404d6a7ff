// A stand-in for OpenAI's Chat Completions API, enough for n8n's AI Agent: it calls the first tool it is offered
// (`rounds` times, 1 by default), then ends with "Done: " and the last tool's answer. And a workflow where such
// an agent's tool is gated by Mail Delivery's Human review tool.
import { randomUUID } from 'node:crypto';
import http from 'node:http';

import { PACKAGE_NAME } from '../../scripts/n8n-runtime.mjs';
import { AUTHENTICATION_OF } from './env.mjs';
import { rl } from './waiting.mjs';

/**
 * The model's next message for a request: a call of the first tool until it has had `rounds` answers from
 * tools, then the end.
 */
function reply(body, rounds) {
	const last = body.messages.at(-1);
	const answers = body.messages.filter((message) => message.role === 'tool').length;
	if (answers >= rounds)
		return { role: 'assistant', content: `Done: ${String(last.content).slice(0, 200)}` };
	const tool = body.tools?.[0]?.function;
	return {
		role: 'assistant',
		content: null,
		tool_calls: [
			{
				id: `call_${randomUUID().slice(0, 8)}`,
				type: 'function',
				function: {
					name: tool.name,
					arguments: JSON.stringify({ toolParameters: {}, hitlParameters: {} }),
				},
			},
		],
	};
}

function send(res, body, message) {
	const finish = message.tool_calls ? 'tool_calls' : 'stop';
	const base = {
		id: `chatcmpl-${randomUUID()}`,
		created: Math.floor(Date.now() / 1000),
		model: body.model,
	};
	if (!body.stream) {
		res.writeHead(200, { 'Content-Type': 'application/json' });
		res.end(
			JSON.stringify({
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message, finish_reason: finish }],
				usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
			}),
		);
		return;
	}
	res.writeHead(200, { 'Content-Type': 'text/event-stream' });
	const chunk = (delta, finishReason = null) =>
		res.write(
			`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
		);
	const calls = message.tool_calls?.map((call, index) => ({ index, ...call }));
	chunk({
		role: 'assistant',
		content: message.content ?? '',
		...(calls ? { tool_calls: calls } : {}),
	});
	chunk({}, finish);
	res.end('data: [DONE]\n\n');
}

export async function startFakeLlm() {
	const llm = { requests: [], rounds: 1 };
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			if (!req.url.endsWith('/chat/completions')) {
				res.writeHead(404).end();
				return;
			}
			const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			llm.requests.push(body);
			send(res, body, reply(body, llm.rounds));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	llm.url = `http://127.0.0.1:${server.address().port}`;
	llm.close = () => new Promise((resolve) => server.close(resolve));
	return llm;
}

/**
 * Webhook (answers at once) → AI Agent, its model the stand-in, its tool "Find campaigns" (Mail Delivery, Get Many)
 * gated by "Human review" (Mail Delivery's Human review tool) asking `<name>@example.org` by mail.
 */
export const agentWorkflow =
	({ credential, openAi }) =>
	(name) => {
		const hookPath = `agent-${randomUUID()}`;
		const credentials = { [credential.type]: { id: credential.id, name: credential.name } };
		const node = (nodeName, type, typeVersion, parameters, extra = {}) => ({
			id: randomUUID(),
			name: nodeName,
			type,
			typeVersion,
			position: [0, 0],
			parameters,
			...extra,
		});
		const workflow = {
			name: `agent ${name}`,
			nodes: [
				node(
					'Webhook',
					'n8n-nodes-base.webhook',
					2,
					{ httpMethod: 'POST', path: hookPath, responseMode: 'onReceived', options: {} },
					{ webhookId: randomUUID() },
				),
				node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, {
					promptType: 'define',
					text: 'List the campaigns',
					options: {},
				}),
				node(
					'OpenAI Chat Model',
					'@n8n/n8n-nodes-langchain.lmChatOpenAi',
					1.2,
					{ model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
					{ credentials: { openAiApi: { id: openAi.id, name: openAi.name } } },
				),
				node(
					'Human review',
					`${PACKAGE_NAME}.mailDeliveryHitlTool`,
					1,
					{
						authentication: AUTHENTICATION_OF[credential.type],
						resource: 'transactionalMail',
						operation: 'sendAndWait',
						senderMail: rl('sender@example.com'),
						sendTo: `${name}@example.org`,
						subject: 'An AI agent asks to run a tool',
						message: '=The agent wants to run this tool: {{ $tool.name }}',
						approvalOptions: { values: { approvalType: 'double' } },
						options: {},
					},
					{ credentials, webhookId: randomUUID() },
				),
				node(
					'Find campaigns',
					`${PACKAGE_NAME}.mailDeliveryTool`,
					1,
					{
						authentication: AUTHENTICATION_OF[credential.type],
						resource: 'campaign',
						operation: 'getMany',
					},
					{ credentials },
				),
			],
			connections: {
				Webhook: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
				'OpenAI Chat Model': {
					ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
				},
				'Human review': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				'Find campaigns': { ai_tool: [[{ node: 'Human review', type: 'ai_tool', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		};
		return { workflow, hookPath };
	};
