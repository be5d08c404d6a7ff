// The workflow the n8n benches measure in: a Webhook that answers at once (the figures come from the execution
// record, not from the HTTP answer), a Code node making the posted number of items, then the measured node.
import { randomUUID } from 'node:crypto';

import { eventually } from '../test/e2e/env.mjs';

/** Items `{ email, name, order }` (and `extra` fields) for the `n` the webhook was posted, made in a Code node. */
export const itemsCode = (extra = {}) =>
	[
		'const n = $input.first().json.body.n;',
		'const items = new Array(n);',
		`for (let i = 0; i < n; i++) items[i] = { json: { email: 'r' + i + '@example.org', name: 'R' + i, ${Object.entries(
			extra,
		)
			.map(([key, value]) => `${key}: ${JSON.stringify(value)}, `)
			.join('')}order: i } };`,
		'return items;',
	].join('\n');

/** Webhook (on `hookPath`) → Items (`code`) → `measured`, a node named Measured. */
export const measuredBehindWebhook = ({ name, hookPath, code, measured }) => ({
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
			name: 'Items',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [200, 0],
			parameters: { jsCode: code },
		},
		measured,
	],
	connections: {
		Webhook: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
		Items: { main: [[{ node: 'Measured', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
});

/**
 * Posts `{ n }` to the workflow's webhook: the run of `n` items starts. n8n 2 publishes in the background: until the
 * webhook is registered it answers 404 and runs nothing, so the post is made again until it is taken.
 */
export async function postItemCount(url, n) {
	const answer = await eventually(
		async () => {
			const attempt = await fetch(url, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ n }),
			});
			await attempt.text();
			return attempt.status === 404 ? false : attempt;
		},
		'the webhook to be live',
		60_000,
	);
	if (!answer.ok) throw new Error(`webhook answered ${answer.status}`);
}
