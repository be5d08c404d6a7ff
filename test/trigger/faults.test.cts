/**
 * The account's one push address is the user's: whatever fails while a trigger registers, and whatever
 * n8n does about it (its retries, the delete hook it calls after a failed attempt, the static data it
 * saves or does not save, a restart at another address, the end of test listening), the user's
 * configuration comes back exactly when the trigger leaves. Every lifecycle here is n8n's own (see
 * test/harness/n8n/trigger.cts); every fault is the emulator's, on the request it is planned for.
 */
import axios from 'axios';
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { WebhookPathTakenError } from 'n8n-workflow';

import { expectCode } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';
import {
	startTriggerHost,
	type TriggerHost,
	type TriggerHostOptions,
	webhookConfiguration,
} from '../harness/n8n.cts';

const env = useEmulator();
const GET = '/v5/webhook/get';
const SAVE = '/v5/webhook/save';
const hosts: TriggerHost[] = [];

afterEach(async () => {
	await Promise.all(hosts.splice(0).map(async (host) => await host.close()));
});

async function workflow(
	webhookId: string,
	parameters: IDataObject = {},
	staticData: IDataObject = {},
	options: TriggerHostOptions = {},
) {
	const host = await startTriggerHost(parameters, env.credentials(), staticData, {
		webhookId,
		...options,
	});
	hosts.push(host);
	return host;
}

const config = async () => await webhookConfiguration(env.emulator);
const requests = (path: string) =>
	env.view().requests.filter((request) => request.path === path).length;
const fault = async (path: string, kind: string, skip = 0) =>
	await env.control('POST', 'fault', { path, fault: kind, skip });

/** The user's own receivers and switches, there before any workflow. */
const userConfig = {
	transCallbackUrl: 'https://receiver.example/hook?key=users-own',
	transEvent: {
		dropped: false,
		bounced: true,
		delivered: false,
		spamReport: false,
		opened: false,
		clicked: false,
		unsubscribed: false,
	},
	transEnable: false,
	transCallbackUrlExtra: [
		{ sender: 'second@example.com', url: 'https://second.example/hook' },
		{ sender: 'news@example.com', url: 'https://news.example/hook' },
		{ sender: 'third@example.com', url: 'https://third.example/hook' },
	],
};
const forSenders = { registerFor: 'senders', senders: ['news@example.com', 'new@example.com'] };

/** A push straight to every URL the account holds for this trigger is accepted (its secret was saved). */
async function receives(host: TriggerHost) {
	const current = await config();
	const urls = [
		current.transCallbackUrl,
		...((current.transCallbackUrlExtra as Array<{ url: string }> | null) ?? []).map((e) => e.url),
	].filter((url): url is string => typeof url === 'string' && url.startsWith(host.baseUrl));
	expect(urls.length).toBeGreaterThan(0);
	for (const url of urls) {
		const answer = await axios.post(url, [{ EventCode: 'Opened' }], { validateStatus: () => true });
		expect(answer.status).toBe(200);
	}
}

const FAULTS = ['network', 'badGateway', 'internalError', 'resetAfter'];
/** The requests an activation makes: checkExists reads; create reads, saves, reads again; then the retry's. */
const AT = [
	[GET, 0],
	[GET, 1],
	[GET, 2],
	[GET, 3],
	[SAVE, 0],
	[SAVE, 1],
] as const;
const cases = FAULTS.flatMap((kind) =>
	AT.flatMap(([path, skip]) =>
		[{}, forSenders].map((parameters) => ({ kind, path, skip, parameters })),
	),
);

describe('one fault at any request of an activation (n8n 2.41: five attempts)', () => {
	test.each(cases)(
		'$kind at $path #$skip ($parameters.registerFor): published, then exactly the user configuration back',
		async ({ kind, path, skip, parameters }) => {
			await expectCode(env.emulator, SAVE, userConfig, 200);
			const before = await config();
			await fault(path, kind, skip);
			const host = await workflow('wf-a', parameters);
			await host.activate();
			env.emulator.network.faults.splice(0);
			await receives(host);
			expect(await host.deactivate()).toEqual([]);
			expect(await config()).toEqual(before);
		},
	);
});

describe('one fault at any request of an activation (n8n 1.123: the user activates again)', () => {
	test.each(cases)(
		'$kind at $path #$skip ($parameters.registerFor): the second activation publishes, deactivation restores',
		async ({ kind, path, skip, parameters }) => {
			await expectCode(env.emulator, SAVE, userConfig, 200);
			const before = await config();
			await fault(path, kind, skip);
			const host = await workflow('wf-a', parameters);
			await host.activate({ line: 1 }).catch(async () => await host.activate({ line: 1 }));
			env.emulator.network.faults.splice(0);
			await receives(host);
			expect(await host.deactivate()).toEqual([]);
			expect(await config()).toEqual(before);
		},
	);
});

describe('one fault while deactivating (n8n 2.41 tries three times)', () => {
	test.each(FAULTS.flatMap((kind) => [GET, SAVE].map((path) => ({ kind, path }))))(
		'$kind at $path: exactly the user configuration back',
		async ({ kind, path }) => {
			await expectCode(env.emulator, SAVE, userConfig, 200);
			const before = await config();
			const host = await workflow('wf-a', forSenders);
			await host.activate();
			await fault(path, kind);
			expect(await host.deactivate()).toEqual([]);
			expect(await config()).toEqual(before);
		},
	);
});

test('any run of faults: whenever an activation ends published, deactivation puts back exactly what was there', async () => {
	const step = fc.record({
		path: fc.constantFrom(GET, SAVE),
		kind: fc.constantFrom(...FAULTS),
		skip: fc.integer({ min: 0, max: 6 }),
	});
	let id = 0;
	await fc.assert(
		fc.asyncProperty(
			fc.array(step, { maxLength: 5 }),
			fc.boolean(),
			fc.constantFrom<1 | 2>(1, 2),
			async (faults, senders, line) => {
				env.emulator.reset();
				await expectCode(env.emulator, SAVE, userConfig, 200);
				const before = await config();
				for (const planned of faults) await fault(planned.path, planned.kind, planned.skip);
				const host = await workflow(`wf-${id++}`, senders ? forSenders : {});
				// Published in the end: n8n's own retries, then the user's, until it works.
				for (let attempt = 0; ; attempt++) {
					const done = await host.activate({ line }).then(
						() => true,
						() => false,
					);
					if (done) break;
					expect(attempt).toBeLessThan(faults.length);
				}
				env.emulator.network.faults.splice(0);
				await receives(host);
				expect(await host.deactivate()).toEqual([]);
				expect(await config()).toEqual(before);
				await host.close();
			},
		),
		{ numRuns: 60 },
	);
});

test('a save answered 500 after it went through is this trigger\'s own on the retry, never "what was there before"', async () => {
	await expectCode(env.emulator, SAVE, userConfig, 200);
	const before = await config();
	const host = await workflow('wf-a');
	// The delete hook n8n calls after the failed attempt fails too: the retry finds its own URL.
	await fault(SAVE, 'internalError');
	await fault(GET, 'network', 2);
	await host.activate();
	expect(String((await config()).transCallbackUrl)).toContain(host.webhookUrl());
	expect(await host.deactivate()).toEqual([]);
	expect(await config()).toEqual(before);
	// A second cycle without faults keeps it so: nothing was recorded wrongly.
	await host.activate();
	await host.deactivate();
	expect(await config()).toEqual(before);
});

test.each([2, 1] as const)(
	'an activation that failed for good (n8n line %s) leaves the record on the platform: the next one restores exactly',
	async (line) => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const before = await config();
		const host = await workflow('wf-a');
		// The first save goes through but is answered 500; from then on every read fails, the delete
		// hook's included: every attempt fails with this trigger's URL on the platform.
		await fault(SAVE, 'internalError');
		for (let skip = 2; skip < 12; skip++) await fault(GET, 'badGateway', skip);
		await expect(host.activate({ line })).rejects.toThrow();
		env.emulator.network.faults.splice(0);
		expect(String((await config()).transCallbackUrl)).toContain(host.webhookUrl());
		await host.activate({ line });
		await receives(host);
		await host.deactivate();
		expect(await config()).toEqual(before);
	},
);

test.each([
	[200, {}],
	[200, forSenders],
	[70, {}],
	[70, forSenders],
])(
	'a platform that keeps only %s characters of a URL: refused at once, saying so, and the user configuration stays exactly (%p)',
	async (length, parameters) => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const before = await config();
		await env.control('POST', 'settings', { webhookUrlMaxLength: length });
		const host = await workflow('wf-a', parameters, {}, { workflowName: 'Order events' });
		const error = (await host.activate().catch((caught: Error) => caught)) as Error;
		expect(error).toBeInstanceOf(WebhookPathTakenError);
		expect(error.message).toMatch(
			new RegExp(
				`^Cannot publish this workflow: the platform kept only ${length} of the \\d+ characters of its URL at `,
			),
		);
		expect(await config()).toEqual(before);
	},
);

describe('n8n restarted with another public address', () => {
	test('activation takes over its own older URL without losing the record; deactivation restores', async () => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const before = await config();
		const first = await workflow('wf-a', forSenders);
		await first.activate();
		await first.close();
		// The same workflow and database, now reached at another address (another port here).
		const moved = await workflow('wf-a', forSenders, first.staticData);
		expect(moved.baseUrl).not.toBe(first.baseUrl);
		expect(await moved.checkExists()).toBe(false);
		await moved.activate();
		const during = await config();
		const urls = (during.transCallbackUrlExtra as Array<{ sender: string; url: string }>).map(
			(entry) => entry.url,
		);
		expect(urls.filter((url) => url.includes(first.baseUrl))).toEqual([]);
		expect(urls.filter((url) => url.startsWith(moved.webhookUrl()))).toHaveLength(2);
		await receives(moved);
		expect(await moved.deactivate()).toEqual([]);
		expect(await config()).toEqual(before);
	});

	test('deactivation right after the restart (no activation in between) restores too', async () => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const before = await config();
		const first = await workflow('wf-a');
		await first.activate();
		await first.close();
		const moved = await workflow('wf-a', {}, first.staticData);
		expect(await moved.deactivate()).toEqual([]);
		expect(await config()).toEqual(before);
	});

	test('the static data lost too (a new secret): still its own, taken over and restored', async () => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const before = await config();
		const first = await workflow('wf-a');
		await first.activate();
		await first.close();
		const moved = await workflow('wf-a', {}, {});
		await moved.activate();
		await receives(moved);
		await moved.deactivate();
		expect(await config()).toEqual(before);
	});
});

describe('test listening', () => {
	test.each([
		[GET, 'internalError'],
		[GET, 'badGateway'],
		[SAVE, 'badGateway'],
		[SAVE, 'network'],
	])(
		'stopping while %s fails (%s) does not throw; the URL left behind is taken back on publish',
		async (path, kind) => {
			await expectCode(env.emulator, SAVE, userConfig, 200);
			const before = await config();
			const host = await workflow('wf-a');
			await host.listen();
			const listening = String((await config()).transCallbackUrl);
			expect(listening).toContain(host.webhookUrl('manual'));
			await fault(path, kind);
			await host.stopListening();
			expect(host.unhandled).toEqual([]);
			// Left behind: the platform still holds the test URL.
			expect((await config()).transCallbackUrl).toBe(listening);
			await host.activate();
			expect(String((await config()).transCallbackUrl)).toContain(host.webhookUrl());
			await receives(host);
			await host.deactivate();
			expect(await config()).toEqual(before);
		},
	);

	test('a URL left behind is taken back by the next test listen, and the stop after it restores', async () => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const before = await config();
		const host = await workflow('wf-a', forSenders);
		await host.listen();
		await fault(SAVE, 'network');
		await host.stopListening();
		expect(await config()).not.toEqual(before);
		await host.listen();
		await host.stopListening();
		expect(await config()).toEqual(before);
	});

	test("another workflow's test URL left behind still refuses this one, naming it", async () => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const other = await workflow('wf-b', {}, {}, { workflowName: 'Bounces (draft)' });
		await other.listen();
		await fault(SAVE, 'network');
		await other.stopListening();
		const host = await workflow('wf-a', {}, {}, { workflowName: 'Orders' });
		await expect(host.activate()).rejects.toThrow(/used by workflow "Bounces \(draft\)"/);
	});
});

describe('two triggers at once', () => {
	test('two workflows on one address activating together: one wins, the other is refused naming it and puts back what it changed', async () => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const before = await config();
		await env.control('POST', 'settings', { latencyMs: 40 });
		const a = await workflow('wf-a', {}, {}, { workflowName: 'Orders A' });
		const b = await workflow('wf-b', {}, {}, { workflowName: 'Orders B' });
		const results = await Promise.allSettled([a.activate(), b.activate()]);
		await env.control('POST', 'settings', { latencyMs: 0 });
		const won = results.map((result) => result.status === 'fulfilled');
		expect(won.filter(Boolean)).toHaveLength(1);
		const [winner, loser] = won[0] ? [a, b] : [b, a];
		const refusal = (
			results.find((result) => result.status === 'rejected') as PromiseRejectedResult
		).reason as Error;
		expect(refusal).toBeInstanceOf(WebhookPathTakenError);
		expect(refusal.message).toContain(won[0] ? 'workflow "Orders A"' : 'workflow "Orders B"');
		expect(String((await config()).transCallbackUrl)).toContain(winner.webhookUrl());
		await loser.deactivate();
		await receives(winner);
		await winner.deactivate();
		expect(await config()).toEqual(before);
	});

	test('the same workflow imported into another n8n on the same account is refused, not taken over', async () => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const before = await config();
		const here = await workflow('wf-a', {}, {}, { workflowName: 'Orders' });
		await here.activate();
		const held = await config();
		const there = await workflow(
			'wf-a',
			{},
			{},
			{
				workflowName: 'Orders',
				instanceId: 'another-installation',
			},
		);
		await expect(there.activate()).rejects.toThrow(
			/used by workflow "Orders" \(ID wf-wf-a\) on another n8n/,
		);
		expect(await config()).toEqual(held);
		await here.deactivate();
		expect(await config()).toEqual(before);
	});
});

describe('a second trigger on a taken address', () => {
	test('is refused at once (no retry), by the holding workflow name, with the remedies that apply', async () => {
		const a = await workflow('wf-a', {}, {}, { workflowName: 'Order events' });
		await a.activate();
		const reads = requests(GET);
		const b = await workflow('wf-b', { outputMode: 'perKind' }, {}, { workflowName: 'Second' });
		const error = await b.activate().catch((caught: Error) => caught);
		expect(error).toBeInstanceOf(WebhookPathTakenError);
		expect((error as Error).message).toBe(
			'Cannot publish this workflow: the account\'s default push address is used by workflow "Order events" (ID wf-wf-a). Unpublish "Order events" first, or set Register For to Chosen Senders, or move what this workflow does into "Order events".',
		);
		// One attempt: checkExists and create read once each, and n8n's delete hook once.
		expect(requests(GET) - reads).toBe(3);
		expect(`${(error as Error).message}`).not.toMatch(/token=|One Output per Event Kind/);
	});

	test('a trigger already for chosen senders is not told to choose senders', async () => {
		const a = await workflow(
			'wf-a',
			{ registerFor: 'senders', senders: ['news@example.com'] },
			{},
			{ workflowName: 'News' },
		);
		await a.activate();
		const b = await workflow('wf-b', forSenders, {}, { workflowName: 'Second' });
		await expect(b.activate()).rejects.toThrow(
			'Cannot publish this workflow: the push address of sender news@example.com is used by workflow "News" (ID wf-wf-a). Unpublish "News" first, or remove news@example.com from Sender Names or IDs, or move what this workflow does into "News".',
		);
	});
});

describe('settings the trigger cannot register', () => {
	test("Chosen Senders Only with no sender is refused before any request: the user's switches stay as they were", async () => {
		await expectCode(env.emulator, SAVE, userConfig, 200);
		const before = await config();
		const saves = requests(SAVE);
		const host = await workflow('wf-a', { registerFor: 'senders', senders: [] });
		const error = await host.activate().catch((caught: Error) => caught);
		expect(error).toBeInstanceOf(WebhookPathTakenError);
		expect((error as Error).message).toBe(
			'Cannot publish this workflow: Register For is Chosen Senders Only, but Sender Names or IDs is empty',
		);
		expect(requests(SAVE)).toBe(saves);
		await host.deactivate();
		expect(await config()).toEqual(before);
	});

	test('Require Secret given by an expression is read as meant: "true" with an empty Secret is refused, never every push accepted', async () => {
		const host = await workflow('wf-m', {
			registration: 'manual',
			requireSecret: '={{ "true" }}',
			secret: '',
		});
		await expect(host.activate()).rejects.toThrow('Require Secret is on but the Secret is empty');
		const answer = await axios.post(
			host.webhookUrl(),
			[{ EventCode: 'Bounced', Email: 'x@example.org' }],
			{
				validateStatus: () => true,
			},
		);
		expect(answer.status).not.toBe(200);
		expect(host.executions).toHaveLength(0);
	});
});
