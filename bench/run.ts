/**
 * `npm run bench`: speed and memory figures, printed; no test asserts on time.
 *  1. Emulator: accepting a 100-version × 20-recipient transactional send; pushing 10,000 events.
 *  2. Action node (n8n's engine): 10,000 recipients, one request per item versus combined.
 *  3. Trigger node: a push of N events becoming items inside the node, N = 100 … 10,000.
 */
import { WebhookContext } from 'n8n-core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { INode, INodeExecutionData, IWebhookData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { signatureHeaders } from '../credentials/common';
import { serializeEvents, type EmulatorEvent } from '../emulator/events';
import { startEmulator } from '../emulator/server';
import { MailDeliveryTrigger } from '../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';
import { actionWorkflow, buildAdditionalData, CredentialsStore, nodeTypes, registerNodeType, runWorkflow } from '../test/harness/n8n';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

async function receiver() {
	let events = 0;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			events += (JSON.parse(Buffer.concat(chunks).toString()) as unknown[]).length;
			res.writeHead(200).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => events, close: () => new Promise((r) => server.close(r)) };
}

async function benchEmulator() {
	const emulator = await startEmulator({ seed: true });
	emulator.platform.credits = Number.MAX_SAFE_INTEGER;
	const body = JSON.stringify({
		senderMail: 'sender@example.com', subject: 'Hi {{n}}', content: '<p>{{n}}</p>',
		messageVersions: Array.from({ length: 100 }, (_, v) => ({ to: Array.from({ length: 20 }, (_, r) => ({ email: `v${v}r${r}@example.org` })), params: { n: String(v) } })),
	});
	const times: number[] = [];
	for (let run = 0; run < 15; run++) {
		const started = performance.now();
		const response = await fetch(`${emulator.url}/v5/transactional/mail/sends_customised`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...signatureHeaders(emulator.account.apiKey, emulator.account.apiSecret) },
			body,
		});
		await response.json();
		times.push(performance.now() - started);
	}
	console.log(`Emulator: accept a 100-version × 20-recipient send (2,000 recipients): median ${ms(median(times))} over 15 runs`);

	const sink = await receiver();
	emulator.reset();
	emulator.platform.credits = Number.MAX_SAFE_INTEGER;
	emulator.platform.webhook = { transCallbackUrl: sink.url, transEnable: true, transCallbackUrlExtra: null, transEvent: { delivered: true } };
	emulator.pushes.autoPush = false;
	for (let i = 0; i < 5; i++) {
		await fetch(`${emulator.url}/v5/transactional/mail/sends_customised`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...signatureHeaders(emulator.account.apiKey, emulator.account.apiSecret) },
			body,
		});
	}
	const started = performance.now();
	await emulator.pushes.flush();
	const pushMs = performance.now() - started;
	console.log(`Emulator: push 10,000 events (${emulator.pushes.pushes.length} pushes of ≤1000): ${ms(pushMs)}, ${Math.round(sink.count() / (pushMs / 1000)).toLocaleString('en')} events/s received`);
	await sink.close();
	await emulator.stop();
}

async function benchCombinedSend() {
	const emulator = await startEmulator();
	emulator.platform.credits = Number.MAX_SAFE_INTEGER;
	const credentials = new CredentialsStore();
	credentials.stored = { mailDeliverySignatureApi: { baseUrl: emulator.url, apiKey: emulator.account.apiKey, apiSecret: emulator.account.apiSecret } };
	const items: INodeExecutionData[] = Array.from({ length: 10_000 }, (_, i) => ({ json: { email: `r${i}@example.org`, name: `R${i}` } }));
	const parameters = (combineItems: boolean) => ({
		resource: 'transactionalMail', operation: 'send', senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
		to: '={{ $json.email }}', contentSource: 'template', templateName: { __rl: true, mode: 'name', value: 'welcome' },
		params: '={{ JSON.stringify({ name: $json.name }) }}', options: { combineItems },
	});
	const results: Record<string, { requests: number; ms: number }> = {};
	for (const combine of [false, true]) {
		emulator.reset();
		emulator.platform.credits = Number.MAX_SAFE_INTEGER;
		const started = performance.now();
		const run = await runWorkflow({ ...actionWorkflow(parameters(combine)), credentials, items });
		const elapsed = performance.now() - started;
		if (run.error()) throw run.error();
		results[combine ? 'combined' : 'per item'] = { requests: emulator.requests.length, ms: elapsed };
	}
	const perItem = results['per item'];
	const combined = results.combined;
	console.log(`Action node, 10,000 recipients through n8n's engine:
  one request per item: ${perItem.requests.toLocaleString('en')} requests, ${ms(perItem.ms)}
  combined:             ${combined.requests.toLocaleString('en')} requests, ${ms(combined.ms)}
  ratio:                ${(perItem.requests / combined.requests).toFixed(0)}× fewer requests, ${(perItem.ms / combined.ms).toFixed(1)}× faster`);
	await emulator.stop();
}

async function benchTrigger() {
	const trigger = new MailDeliveryTrigger();
	registerNodeType('n8n-nodes-mail-delivery.mailDeliveryTrigger', trigger);
	const node: INode = {
		id: 't', name: 'Trigger', type: 'n8n-nodes-mail-delivery.mailDeliveryTrigger', typeVersion: 1, position: [0, 0], webhookId: 'w',
		parameters: { registration: 'manual', requireSecret: false, outputMode: 'perKind', options: { addIsoTimes: true } },
	};
	const workflow = new Workflow({ id: 'b', nodes: [node], connections: {}, active: true, nodeTypes, staticData: {}, settings: {} });
	const additionalData = buildAdditionalData(new CredentialsStore());
	const webhookData = { httpMethod: 'POST', node: 'Trigger', path: 'w/events', webhookDescription: trigger.description.webhooks![0], workflowId: 'b', workflowExecuteAdditionalData: additionalData } as IWebhookData;
	const kinds = ['Delivered', 'Bounced', 'Dropped', 'Opened', 'Clicked'];
	const body = (count: number) =>
		Buffer.from(
			serializeEvents(
				Array.from({ length: count }, (_, i): EmulatorEvent => ({
					EventCode: kinds[i % kinds.length], Email: `r${i}@example.org`, EventType: '3', SentMailListName: 'welcome||spring',
					TriggeredDateTimeV2: '2026-11-20 12:00:00', SubmitDateTimeV2: '2026-11-20 11:59:58', UniqueMsgID: `u-${i}`, Guid: 'a4b7c2d1-0000-4000-8000-000000000000',
					MailName: 'spring', MailSeqId: (2505070900222412710n + BigInt(i)).toString(), SenderEmail: 'sender@example.com',
					...(i % kinds.length === 1 ? { Reason: '100', FailedCause: Buffer.from('550 user unknown').toString('base64') } : {}),
				})),
			),
		);
	const once = async (raw: Buffer) => {
		const request = { rawBody: raw, query: {}, headers: {}, body: {} };
		const context = new WebhookContext(workflow, node, { ...additionalData, httpRequest: request, httpResponse: {} } as never, 'trigger', webhookData, [], null);
		const started = performance.now();
		const answer = await trigger.webhook.call(context);
		const elapsed = performance.now() - started;
		return { elapsed, items: (answer.workflowData ?? []).reduce((sum, output) => sum + output.length, 0) };
	};
	console.log('Trigger node: one push becoming items inside the node (median of 30 runs):');
	for (const count of [100, 1000, 10_000]) {
		const raw = body(count);
		const times: number[] = [];
		for (let run = 0; run < 30; run++) {
			const { elapsed, items } = await once(raw);
			if (items !== count) throw new Error(`expected ${count} items, got ${items}`);
			times.push(elapsed);
		}
		const per = median(times);
		console.log(`  ${count.toLocaleString('en').padStart(6)} events (${(raw.length / 1024).toFixed(0)} KiB): ${ms(per)}  (${((per * 1000) / count).toFixed(1)} µs per event)`);
	}
	global.gc?.();
	const before = process.memoryUsage().heapUsed;
	const kept = await once(body(10_000));
	const after = process.memoryUsage().heapUsed;
	console.log(`  heap growth while handling 10,000 events: ${((after - before) / 1024 / 1024).toFixed(1)} MiB (${kept.items} items)`);
}

async function main() {
	process.env.N8N_USER_FOLDER ??= require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'mail-delivery-bench-'));
	await benchEmulator();
	await benchCombinedSend();
	await benchTrigger();
}

void main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
