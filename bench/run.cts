/**
 * `npm run bench`: speed and memory figures, printed; no test asserts on time.
 *  1. Emulator: accepting a 100-version × 20-recipient transactional send; pushing 10,000 events.
 *  2. Action node (n8n's engine): 10,000 recipients, one request per item versus combined.
 *  3. Trigger node: a push of N events becoming items inside the node, N = 100 … 10,000.
 *  4. A distant platform (150 ms per request): combined sends with 1, the default and 16 requests in
 *     parallel, one request per item, and a 10-requests-per-second limit.
 *  5. Peak memory of 1,000 items each with a 1 MB attachment (n8n's filesystem binary mode).
 *  6. What never twice costs: n8n's store calls per run (a claim, the journal of its requests: neverTwice/), and
 *     the entries a run leaves in the node's row, for sends of 1 to 10,000 recipients and 16 at once.
 */
import { Container } from '@n8n/di';
import { BinaryDataService, WebhookContext } from 'n8n-core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { INode, INodeExecutionData, IWebhookData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { signatureHeaders } from '../credentials/common';
import { serializeEvents, type EmulatorEvent } from '../emulator/pushes.cts';
import { startEmulator } from '../emulator/server.cts';
import { MailDeliveryTrigger } from '../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';
import {
	actionWorkflow,
	buildAdditionalData,
	CredentialsStore,
	nodeTypes,
	processedData,
	registerNodeType,
	runWorkflow,
	storeHooks,
} from '../test/harness/n8n.cts';

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
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
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		count: () => events,
		close: () => new Promise((r) => server.close(r)),
	};
}

async function benchEmulator() {
	const emulator = await startEmulator({ seed: true });
	emulator.state.credits = Number.MAX_SAFE_INTEGER;
	const body = JSON.stringify({
		senderMail: 'sender@example.com',
		subject: 'Hi {{n}}',
		content: '<p>{{n}}</p>',
		messageVersions: Array.from({ length: 100 }, (_, v) => ({
			to: Array.from({ length: 20 }, (_, r) => ({ email: `v${v}r${r}@example.org` })),
			params: { n: String(v) },
		})),
	});
	const times: number[] = [];
	for (let run = 0; run < 15; run++) {
		const started = performance.now();
		const response = await fetch(`${emulator.url}/v5/transactional/mail/sends_customised`, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				...signatureHeaders(emulator.account.apiKey, emulator.account.apiSecret),
			},
			body,
		});
		await response.json();
		times.push(performance.now() - started);
	}
	console.log(
		`Emulator: accept a 100-version × 20-recipient send (2,000 recipients): median ${ms(median(times))} over 15 runs`,
	);

	const sink = await receiver();
	emulator.reset();
	emulator.state.credits = Number.MAX_SAFE_INTEGER;
	emulator.state.webhook = {
		transCallbackUrl: sink.url,
		transEnable: true,
		transCallbackUrlExtra: null,
		transEvent: { delivered: true },
	};
	emulator.pushes.autoPush = false;
	for (let i = 0; i < 5; i++) {
		await fetch(`${emulator.url}/v5/transactional/mail/sends_customised`, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				...signatureHeaders(emulator.account.apiKey, emulator.account.apiSecret),
			},
			body,
		});
	}
	const started = performance.now();
	await emulator.pushes.flush();
	const pushMs = performance.now() - started;
	console.log(
		`Emulator: push 10,000 events (${emulator.pushes.pushes.length} pushes of ≤1000): ${ms(pushMs)}, ${Math.round(sink.count() / (pushMs / 1000)).toLocaleString('en')} events/s received`,
	);
	await sink.close();
	await emulator.stop();
}

async function benchCombinedSend() {
	const emulator = await startEmulator();
	emulator.state.credits = Number.MAX_SAFE_INTEGER;
	const credentials = new CredentialsStore();
	credentials.stored = {
		mailDeliverySignatureApi: {
			baseUrl: emulator.url,
			apiKey: emulator.account.apiKey,
			apiSecret: emulator.account.apiSecret,
		},
	};
	const items: INodeExecutionData[] = Array.from({ length: 10_000 }, (_, i) => ({
		json: { email: `r${i}@example.org`, name: `R${i}` },
	}));
	const parameters = (combineItems: boolean) => ({
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
		to: '={{ $json.email }}',
		contentSource: 'template',
		templateName: { __rl: true, mode: 'name', value: 'welcome' },
		tagValuesMode: 'json',
		params: '={{ JSON.stringify({ name: $json.name }) }}',
		options: { combineItems },
	});
	const results: Record<string, { requests: number; ms: number }> = {};
	for (const combine of [false, true]) {
		emulator.reset();
		emulator.state.credits = Number.MAX_SAFE_INTEGER;
		const started = performance.now();
		const run = await runWorkflow({ ...actionWorkflow(parameters(combine)), credentials, items });
		const elapsed = performance.now() - started;
		if (run.error()) throw run.error();
		results[combine ? 'combined' : 'per item'] = {
			requests: emulator.requests.length,
			ms: elapsed,
		};
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
		id: 't',
		name: 'Trigger',
		type: 'n8n-nodes-mail-delivery.mailDeliveryTrigger',
		typeVersion: 2,
		position: [0, 0],
		webhookId: 'w',
		parameters: {
			registration: 'manual',
			requireSecret: false,
			outputMode: 'perKind',
			options: { addIsoTimes: true },
		},
	};
	const workflow = new Workflow({
		id: 'b',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		staticData: {},
		settings: {},
	});
	const additionalData = buildAdditionalData(new CredentialsStore());
	const webhookData = {
		httpMethod: 'POST',
		node: 'Trigger',
		path: 'w/events',
		webhookDescription: trigger.description.webhooks![0],
		workflowId: 'b',
		workflowExecuteAdditionalData: additionalData,
	} as IWebhookData;
	const kinds = ['Delivered', 'Bounced', 'Dropped', 'Opened', 'Clicked'];
	let sent = 0;
	/** A push of `count` events no push before it had (the trigger leaves out repeats). */
	const body = (count: number) => {
		const offset = sent;
		sent += count;
		return Buffer.from(
			serializeEvents(
				Array.from({ length: count }, (_, i): EmulatorEvent => ({
					EventCode: kinds[i % kinds.length],
					Email: `r${i}@example.org`,
					EventType: '3',
					SentMailListName: 'welcome||spring',
					TriggeredDateTimeV2: '2026-11-20 12:00:00',
					SubmitDateTimeV2: '2026-11-20 11:59:58',
					UniqueMsgID: `u-${i}`,
					Guid: 'a4b7c2d1-0000-4000-8000-000000000000',
					MailName: 'spring',
					MailSeqId: (2505070900222412710n + BigInt(offset + i)).toString(),
					SenderEmail: 'sender@example.com',
					...(i % kinds.length === 1
						? { Reason: '100', FailedCause: Buffer.from('550 user unknown').toString('base64') }
						: {}),
				})),
			),
		);
	};
	const once = async (raw: Buffer) => {
		const request = { rawBody: raw, query: {}, headers: {}, body: {} };
		// n8n's answer, already given: the trigger counts each push's events as passed on at the next push.
		const answered = { writableEnded: true, statusCode: 200 };
		const context = new WebhookContext(
			workflow,
			node,
			{ ...additionalData, httpRequest: request, httpResponse: answered } as never,
			'trigger',
			webhookData,
			[],
			null,
		);
		const started = performance.now();
		const answer = await trigger.webhook.call(context);
		const elapsed = performance.now() - started;
		return {
			elapsed,
			items: (answer.workflowData ?? []).reduce((sum, output) => sum + output.length, 0),
		};
	};
	console.log(
		'Trigger node: one push becoming items inside the node (median of 30 runs, each push of new events), Ignore Repeated Events on (the default) / off:',
	);
	for (const count of [100, 1000, 10_000]) {
		const per = [];
		let size = 0;
		for (const ignoreRepeatedEvents of [true, false]) {
			node.parameters.options = { addIsoTimes: true, ignoreRepeatedEvents };
			const times: number[] = [];
			for (let run = 0; run < 30; run++) {
				const raw = body(count);
				size = raw.length;
				const { elapsed, items } = await once(raw);
				if (items !== count) throw new Error(`expected ${count} items, got ${items}`);
				times.push(elapsed);
			}
			per.push(median(times));
		}
		console.log(
			`  ${count.toLocaleString('en').padStart(6)} events (${(size / 1024).toFixed(0)} KiB): ${ms(per[0])} / ${ms(per[1])}  (${((per[0] * 1000) / count).toFixed(1)} / ${((per[1] * 1000) / count).toFixed(1)} µs per event)`,
		);
	}
	node.parameters.options = { addIsoTimes: true };
	global.gc?.();
	const before = process.memoryUsage().heapUsed;
	const kept = await once(body(10_000));
	const after = process.memoryUsage().heapUsed;
	console.log(
		`  heap growth while handling 10,000 events: ${((after - before) / 1024 / 1024).toFixed(1)} MiB (${kept.items} items)`,
	);
}

const sendParameters = (options: Record<string, unknown>) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: { __rl: true, mode: 'name', value: 'welcome' },
	tagValuesMode: 'json',
	params: '={{ JSON.stringify({ name: $json.name }) }}',
	options,
});
const recipients = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({
		json: { email: `r${i}@example.org`, name: `R${i}` },
	}));

async function benchLatency() {
	const latencyMs = 150;
	const emulator = await startEmulator({ recordBodies: false });
	const credentials = new CredentialsStore();
	credentials.stored = {
		mailDeliverySignatureApi: {
			baseUrl: emulator.url,
			apiKey: emulator.account.apiKey,
			apiSecret: emulator.account.apiSecret,
		},
	};
	const run = async (
		count: number,
		options: Record<string, unknown>,
		network: Record<string, number>,
	) => {
		emulator.reset();
		emulator.state.credits = Number.MAX_SAFE_INTEGER;
		Object.assign(emulator.network.settings, network);
		const started = performance.now();
		const result = await runWorkflow({
			...actionWorkflow(sendParameters(options)),
			credentials,
			items: recipients(count),
		});
		const elapsed = performance.now() - started;
		if (result.error()) throw result.error();
		const accepted = new Map<string, number>();
		for (const mail of emulator.state.mails)
			accepted.set(mail.email, (accepted.get(mail.email) ?? 0) + 1);
		const exactlyOnce =
			accepted.size === count && [...accepted.values()].every((times) => times === 1);
		return {
			elapsed,
			requests: emulator.requests.length,
			throttled: emulator.network.throttled[429],
			exactlyOnce,
		};
	};
	console.log(`Distant platform (${latencyMs} ms per request), through n8n's engine:`);
	for (const parallel of [1, 4, 16]) {
		const { elapsed, requests } = await run(10_000, { parallelRequests: parallel }, { latencyMs });
		const limit = (Math.ceil(10_000 / 100) / parallel) * latencyMs;
		console.log(
			`  10,000 recipients combined, ${String(parallel).padStart(2)} in parallel: ${(elapsed / 1000).toFixed(2)} s, ${requests} requests, ${(elapsed / limit).toFixed(2)}× the limit ⌈N/100⌉/${parallel}×${latencyMs} ms = ${(limit / 1000).toFixed(2)} s`,
		);
	}
	const perItem = await run(2_000, { combineItems: false, parallelRequests: 16 }, { latencyMs });
	console.log(
		`  2,000 recipients one request per item, 16 in parallel: ${(perItem.elapsed / 1000).toFixed(2)} s, ${perItem.requests} requests (one at a time, as most nodes send, would take ≥ ${((2000 * latencyMs) / 1000).toFixed(0)} s)`,
	);
	const limited = await run(10_000, {}, { latencyMs, rateLimitPerSecond: 10 });
	console.log(
		`  10,000 recipients under a 10 requests/s limit (default parallelism): ${(limited.elapsed / 1000).toFixed(2)} s, ${limited.requests} requests, ${limited.throttled} answers 429, every recipient sent exactly once: ${limited.exactlyOnce ? 'yes' : 'NO'}`,
	);
	await emulator.stop();
}

async function benchAttachmentMemory() {
	const binaryData = Container.get(BinaryDataService);
	await binaryData.init();
	const emulator = await startEmulator({ recordBodies: false });
	emulator.state.credits = Number.MAX_SAFE_INTEGER;
	const credentials = new CredentialsStore();
	credentials.stored = {
		mailDeliverySignatureApi: {
			baseUrl: emulator.url,
			apiKey: emulator.account.apiKey,
			apiSecret: emulator.account.apiSecret,
		},
	};
	const items: INodeExecutionData[] = [];
	for (let i = 0; i < 1000; i++) {
		const file = Buffer.alloc(1024 * 1024, i % 251);
		const stored = await binaryData.store(
			{ type: 'execution', workflowId: 'bench', executionId: 'attachments' },
			file,
			{ data: '', mimeType: 'application/pdf', fileName: `invoice-${i}.pdf` },
		);
		items.push({ json: { email: `r${i}@example.org`, name: `R${i}` }, binary: { data: stored } });
	}
	const peakDuring = async (work: () => Promise<unknown>) => {
		global.gc?.();
		const base = process.memoryUsage().rss;
		let peak = base;
		const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
		await work();
		clearInterval(sampler);
		peak = Math.max(peak, process.memoryUsage().rss);
		return (peak - base) / 1024 / 1024;
	};
	const atSendTime = await peakDuring(async () => {
		const result = await runWorkflow({
			...actionWorkflow(sendParameters({ attachmentBinaryProperty: 'data' })),
			credentials,
			items,
		});
		if (result.error()) throw result.error();
	});
	// What the node did before: every attachment read and base64-encoded before the first request.
	const eager = await peakDuring(async () => {
		const encoded = [];
		for (const item of items)
			encoded.push((await binaryData.getAsBuffer(item.binary!.data)).toString('base64'));
		return encoded.length;
	});
	console.log(`1,000 items each with a 1 MB attachment (filesystem binary mode), peak memory growth:
  read up front (before):             ${eager.toFixed(0)} MiB
  read at send time (now, 4 at once): ${atSendTime.toFixed(0)} MiB  (${emulator.requests.length} requests; ${(eager / Math.max(1, atSendTime)).toFixed(0)}× less)`);
	await emulator.stop();
}

/** Store calls (each a read and a whole write of the node's row in n8n) and entries left, per run of Send. */
async function benchNeverTwiceCost() {
	const emulator = await startEmulator();
	emulator.state.credits = Number.MAX_SAFE_INTEGER;
	const credentials = new CredentialsStore();
	credentials.stored = {
		mailDeliverySignatureApi: {
			baseUrl: emulator.url,
			apiKey: emulator.account.apiKey,
			apiSecret: emulator.account.apiSecret,
		},
	};
	let calls = 0;
	storeHooks.before = () => void calls++;
	const lines: string[] = [];
	try {
		for (const count of [1, 100, 1_000, 10_000]) {
			const workflow = actionWorkflow({
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
				to: '={{ $json.email }}',
				contentSource: 'template',
				templateName: { __rl: true, mode: 'name', value: 'welcome' },
				options: { missingTagValues: 'send', parallelRequests: 16 },
			});
			const items = Array.from({ length: count }, (_, i) => ({
				json: { email: `w${i}@example.org` },
			}));
			// A second run of the node: the first of an hour also records the hour's entries.
			for (const round of [0, 1]) {
				calls = 0;
				processedData.clear();
				const before = emulator.requests.length;
				const started = performance.now();
				const run = await runWorkflow({
					...workflow,
					credentials,
					items,
					executionContext: { establishedAt: Date.now() + round, source: 'webhook' },
				});
				const elapsed = performance.now() - started;
				if (run.error()) throw run.error();
				const requests = emulator.requests.length - before;
				const entries = [...processedData.values()].reduce((sum, row) => sum + row.length, 0);
				if (round === 1)
					lines.push(
						`  ${count.toLocaleString('en')} recipient${count === 1 ? '' : 's'} (${requests} requests, the template's look-up included): ${calls} store calls, ${entries} entries left in the row, ${ms(elapsed)}`,
					);
			}
		}
	} finally {
		storeHooks.before = undefined;
	}
	console.log(
		`Never twice's cost per run of Send, one n8n process, 16 requests at once (loopback, in-process store):\n${lines.join('\n')}`,
	);
	await emulator.stop();
}

async function main() {
	process.env.N8N_USER_FOLDER ??= require('node:fs').mkdtempSync(
		require('node:path').join(require('node:os').tmpdir(), 'mail-delivery-bench-'),
	);
	// BENCH_ONLY=trigger (or emulator, send, latency, attachments) runs one part.
	const parts: Array<[string, () => Promise<void>]> = [
		['emulator', benchEmulator],
		['send', benchCombinedSend],
		['trigger', benchTrigger],
		['latency', benchLatency],
		['attachments', benchAttachmentMemory],
		['never-twice', benchNeverTwiceCost],
	];
	for (const [name, run] of parts)
		if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === name) await run();
}

void main().then(
	() => process.exit(0),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
