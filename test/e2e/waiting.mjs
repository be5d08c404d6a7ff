// Send and Wait for Response in a real n8n: a published workflow (Webhook answering at once → Mail Delivery
// asking → After), its waiting execution read through n8n's public API, the mail's links read from the emulator's
// mail log as the recipient gets them, and requests to them as a browser or a bot makes them.
import { randomUUID } from 'node:crypto';

import { ACTION, AUTHENTICATION_OF, activate, eventually } from './env.mjs';

export const BROWSER =
	'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

export const rl = (value) => ({ __rl: true, mode: 'name', value });

/** The node's parameters: an approval mail to Ada, with `extra` added. */
export const askParameters = (extra = {}) => ({
	resource: 'transactionalMail',
	operation: 'sendAndWait',
	senderMail: rl('sender@example.com'),
	sendTo: 'Ada <ada@example.org>',
	subject: '={{ "Refund of order " + $json.body.order }}',
	message: 'Refund 120 EUR to Grace?',
	...extra,
});

/**
 * Webhook (answers at once) → Mail Delivery (or `nodeName`) → After (n8n's No Operation node, or the node
 * `after` gives: its type, version and parameters).
 */
export function waitingWorkflow({
	name,
	credential,
	parameters,
	settings = {},
	nodeName = 'Mail Delivery',
	after = { type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	workflowSettings = {},
}) {
	const hookPath = `ask-${randomUUID()}`;
	const workflow = {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path: hookPath, responseMode: 'onReceived', options: {} },
			},
			{
				id: randomUUID(),
				name: nodeName,
				type: ACTION,
				typeVersion: 1,
				position: [300, 0],
				parameters: { authentication: AUTHENTICATION_OF[credential.type], ...parameters },
				credentials: { [credential.type]: { id: credential.id, name: credential.name } },
				...settings,
			},
			{ id: randomUUID(), name: 'After', position: [600, 0], ...after },
		],
		connections: {
			Webhook: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
			[nodeName]: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1', ...workflowSettings },
	};
	return { workflow, hookPath };
}

/**
 * Publishes the workflow, posts `body` to its webhook (n8n 2 publishes in the background: retried while 404),
 * and returns the workflow's id. `webhookBase` is where production webhooks are served (a webhook processor).
 */
export async function startAsking({
	session,
	webhookBase,
	workflow,
	hookPath,
	body = { order: 1042 },
}) {
	const id = await activate(session, workflow);
	await eventually(
		async () => {
			const answer = await fetch(`${webhookBase}/webhook/${hookPath}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(body),
			});
			await answer.text();
			return answer.status === 200;
		},
		'the webhook to start the workflow',
		60_000,
	);
	return id;
}

/**
 * An API key of the owner that may only read executions (scope execution:read), as a reader of executions holds
 * one, and a GET through n8n's public API with it (n8n 1.x holds a key to its scopes only with an enterprise
 * licence).
 */
export async function executionReader(session, baseUrl) {
	const scopes = await session.rest('GET', '/api-keys/scopes').catch(() => undefined);
	const key = await session.rest('POST', '/api-keys', {
		label: `execution reader ${Date.now()}`,
		expiresAt: null,
		...(Array.isArray(scopes) ? { scopes: ['execution:read'] } : {}),
	});
	const get = async (route) => {
		const answer = await fetch(`${baseUrl}/api/v1${route}`, {
			headers: { 'X-N8N-API-KEY': key.rawApiKey ?? key.apiKey },
		});
		const text = await answer.text();
		return { status: answer.status, text, json: answer.ok ? JSON.parse(text) : undefined };
	};
	return { get };
}

/** The workflow's executions as the editor lists them (n8n 1.x's public API leaves waiting ones out). */
export async function executionsOf(session, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return (await session.rest('GET', `/executions?filter=${filter}`)).results;
}

/** The workflow's one execution once it has this status, with its data. */
export async function executionOf(session, workflowId, status, timeoutMs = 120_000) {
	const found = await eventually(
		async () =>
			(await executionsOf(session, workflowId)).find((execution) => execution.status === status) ??
			false,
		`an execution of workflow ${workflowId} with status ${status}`,
		timeoutMs,
	);
	return await session.api('GET', `/executions/${found.id}?includeData=true`);
}

/** The JSON of a node's items in an execution (its last run). */
export const outputOf = (execution, node) =>
	(execution.data.resultData.runData[node]?.at(-1)?.data?.main?.[0] ?? []).map((item) => item.json);

/** The response links of the newest mail to `email`, as a mail client reads them (entities decoded). */
export async function mailLinks(emulator, email = 'ada@example.org') {
	const { mails } = await emulator.control('GET', 'mails');
	const mail = mails.filter((candidate) => candidate.email === email).at(-1);
	const links = [...mail.html.matchAll(/<a\b[^>]*\shref="([^"]*)"/g)]
		.map((match) => match[1].replace(/&amp;/g, '&'))
		.filter((link) => link.includes('/webhook-waiting/'));
	return { mail, links };
}

/** A request to a link as a browser (or the given user agent) makes it. */
export async function openLink(link, { method = 'GET', userAgent = BROWSER, body } = {}) {
	const answer = await fetch(link, {
		method,
		headers: userAgent ? { 'User-Agent': userAgent } : { 'User-Agent': '' },
		body,
		redirect: 'manual',
	});
	return { status: answer.status, headers: answer.headers, text: await answer.text() };
}
