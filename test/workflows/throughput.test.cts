/**
 * Several requests at once against a distant, rate-limited platform: the output is the same as one
 * request at a time, every message is sent exactly once, and "try later" answers are waited out.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const TX = '/v5/transactional/mail/sends_customised';
const rl = (value: string) => ({ __rl: true, mode: 'name', value });
const send = (options: IDataObject) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: { __rl: true, mode: 'name', value: '={{ $json.template ?? "welcome" }}' },
	tagValuesMode: 'json',
	params: '={{ JSON.stringify({ name: $json.name }) }}',
	additionalFields: { category: '={{ $json.category }}' },
	options: { ...options },
});
const people = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({
		json: { email: `p${i}@example.org`, name: `P${i}`, category: i % 3 === 0 ? 'a' : 'b' },
	}));
const accepted = () =>
	env
		.view()
		.mails.map((mail) => mail.email)
		.sort();
const everyoneOnce = (count: number, except: number[] = []) =>
	Array.from({ length: count }, (_, i) => i)
		.filter((i) => !except.includes(i))
		.map((i) => `p${i}@example.org`)
		.sort();
/** The output without request numbers and generated IDs, which depend on which request went first. */
const comparable = (out: INodeExecutionData[]) =>
	out.map(({ json, pairedItem }) => {
		const { request: _request, requests: _requests, uniqueMsgID: _uniqueMsgID, ...rest } = json;
		if (rest.details) {
			const {
				request: _failedRequest,
				requests: _failedRequests,
				...details
			} = rest.details as IDataObject;
			rest.details = details;
		}
		return { json: rest, pairedItem };
	});

test('16 requests at once give the same output as 1 at a time, item for item, pairing included (with a refused request split)', async () => {
	const items = people(1200);
	items[777].json.template = 'missing';
	await env.control('POST', 'settings', { latencyMs: 5, latencyJitterMs: 20 });
	const sequential = await runWorkflow({
		...actionWorkflow(send({ parallelRequests: 1 }), { continueOnFail: true }),
		credentials: env.credentials(),
		items,
	});
	const sequentialMails = accepted();
	env.emulator.reset();
	await env.control('POST', 'settings', { latencyMs: 5, latencyJitterMs: 20 });
	const parallel = await runWorkflow({
		...actionWorkflow(send({ parallelRequests: 16 }), { continueOnFail: true }),
		credentials: env.credentials(),
		items,
	});
	expect(comparable(parallel.output('Mail Delivery'))).toEqual(
		comparable(sequential.output('Mail Delivery')),
	);
	expect(accepted()).toEqual(sequentialMails);
	expect(accepted()).toEqual(everyoneOnce(1200, [777]));
});

test('under a rate limit every message is sent exactly once and the node finishes', async () => {
	await env.control('POST', 'settings', { rateLimitPerSecond: 5, unavailableEvery: 7 });
	const result = await runWorkflow({
		...actionWorkflow(send({ parallelRequests: 8 })),
		credentials: env.credentials(),
		items: people(1500),
	});
	expect(result.error()).toBeUndefined();
	expect(result.output('Mail Delivery').every((item) => item.json.success === true)).toBe(true);
	expect(accepted()).toEqual(everyoneOnce(1500));
	const { throttled } = await env.control('GET', 'requests');
	expect(throttled[429]).toBeGreaterThan(0);
	expect(throttled[503]).toBeGreaterThan(0);
});

test('under a steady limit the run is paced to it: at most 1 request in 10 is refused, every recipient sent once', async () => {
	// About 50 requests against 10 a second, 2 at once with 50 ms answers (40 a second if unpaced).
	await env.control('POST', 'settings', { rateLimitPerSecond: 10, latencyMs: 50 });
	const result = await runWorkflow({
		...actionWorkflow(send({ parallelRequests: 2 })),
		credentials: env.credentials(),
		items: people(5000),
	});
	expect(result.error()).toBeUndefined();
	expect(accepted()).toEqual(everyoneOnce(5000));
	// The record holds the requests the platform processed; the refused ones are counted apart.
	const { throttled, requests } = await env.control('GET', 'requests');
	expect(requests.length).toBeGreaterThanOrEqual(50);
	expect(throttled[429]).toBeLessThanOrEqual(Math.floor((requests.length + throttled[429]) / 10));
});

test('a run after one the platform paced is paced to the rate found from its start: its first requests are not refused, and its hint says so', async () => {
	// One workflow, one credential: the same account at the same address both times.
	const workflow = actionWorkflow(send({}));
	const runOnce = async () => {
		env.emulator.reset();
		await env.control('POST', 'settings', { rateLimitPerSecond: 10, latencyMs: 50 });
		const result = await runWorkflow({
			...workflow,
			credentials: env.credentials(),
			items: people(2500),
		});
		expect(result.error()).toBeUndefined();
		expect(accepted()).toEqual(everyoneOnce(2500));
		const hints = (result.run.data.resultData.runData['Mail Delivery'][0].hints ?? []).map(
			(hint) => hint.message,
		);
		const { throttled, requests } = await env.control('GET', 'requests');
		return { refused: throttled[429] as number, processed: requests.length as number, hints };
	};
	// 26 sends, 16 at once at first: the platform refuses those above its 10 a second until the run is paced.
	const first = await runOnce();
	expect(first.refused).toBeGreaterThanOrEqual(5);
	// The hint counts the sends (one request per 100 recipients of a category; the platform also processed the
	// template's look-up, made before them), and their attempts apart: a refused request went again.
	const sends = first.processed - 1;
	expect(first.hints).toContainEqual(
		expect.stringMatching(
			new RegExp(
				`^Requests in parallel followed the platform: ${sends} requests in ${sends + first.refused} attempts, at most \\d+ at once .* ${first.refused} attempts were refused or not answered`,
			),
		),
	);
	expect(first.hints).toContainEqual(
		expect.stringMatching(
			/^After the platform's first "too many requests" \(HTTP 429\), requests were paced to (9|10|11) a second/,
		),
	);
	// The platform counts the last second's requests: the next run comes after it.
	await new Promise((resolve) => setTimeout(resolve, 1100));
	const after = await runOnce();
	expect(after.refused).toBeLessThanOrEqual(1);
	expect(after.hints).toContainEqual(
		expect.stringMatching(
			/^Requests were paced from the start, at (9|10|11) a second in the end: an earlier run to this platform found the rate it accepts/,
		),
	);
});

test('with the retry budget exhausted, the items of the refused requests fail with an explanation and the rest succeed', async () => {
	await env.control('POST', 'settings', { rateLimitPerSecond: 2 });
	const result = await runWorkflow({
		...actionWorkflow(send({ parallelRequests: 4, retryAttempts: 1 }), { continueOnFail: true }),
		credentials: env.credentials(),
		items: people(600),
	});
	const out = result.output('Mail Delivery');
	const failed = out.filter((item) => item.json.error);
	const sent = out.filter((item) => item.json.success === true);
	expect(failed.length).toBeGreaterThan(0);
	expect(sent.length).toBeGreaterThan(0);
	expect(failed.length + sent.length).toBe(600);
	expect(failed[0].json).toMatchObject({ details: { code: 429 } });
	expect((failed[0].json.details as IDataObject).description).toContain(
		'answered 429 ("try later") to 1 attempt; the node waited 0.0 s in all and gave up. Nothing of that request was sent or changed.',
	);
	expect(accepted()).toEqual(
		sent
			.map((item) => item.json.recipients as string[])
			.flat()
			.sort(),
	);
});

test('Retry-After is honoured', async () => {
	await env.control('POST', 'settings', { rateLimitPerSecond: 1 });
	const started = Date.now();
	const result = await runWorkflow({
		...actionWorkflow(send({ parallelRequests: 2 })),
		credentials: env.credentials(),
		items: people(300),
	});
	expect(result.error()).toBeUndefined();
	// Three requests at one per second: the node waited out the answers' Retry-After (1 s each) instead of failing.
	expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
	expect(accepted()).toEqual(everyoneOnce(300));
});

test('Requests in Parallel outside 0 to 128 is a clear error before any request', async () => {
	for (const value of [129, -1]) {
		const result = await runWorkflow({
			...actionWorkflow(send({ parallelRequests: value })),
			credentials: env.credentials(),
			items: people(2),
		});
		expect(result.error()?.message).toBe(
			`Field "Requests in Parallel" must be a whole number from 0 to 128 (it is ${value}), in item 0 (the 1st input item)`,
		);
	}
	expect(env.view().requests.filter((r) => r.path === TX)).toHaveLength(0);
});

test('parameters without an expression are read once per run, not once per item', async () => {
	const { ExecuteContext } = await import('n8n-core');
	// Every read of a parameter, with or without an expression, goes through this method of n8n-core.
	const reads = jest.spyOn(
		ExecuteContext.prototype as unknown as { _getNodeParameter: (name: string) => unknown },
		'_getNodeParameter',
	);
	try {
		// One expression (To) that only n8n can evaluate (a method call) and a dozen fixed parameters; 1,000 items.
		const parameters = {
			...send({}),
			to: '={{ $json.email.toLowerCase() }}',
			additionalFields: { category: 'a', trackOpen: true },
			params: '{"shop": "Example", "name": "Customer"}',
			templateName: rl('welcome'),
		};
		await runWorkflow({
			...actionWorkflow(parameters),
			credentials: env.credentials(),
			items: people(1000),
		});
		const perItem = reads.mock.calls.filter(([name]) => name === 'to').length;
		expect(perItem).toBe(1000);
		expect(reads.mock.calls.length).toBeLessThan(1000 + 50);
	} finally {
		reads.mockRestore();
	}
	expect(accepted()).toEqual(everyoneOnce(1000));
});
