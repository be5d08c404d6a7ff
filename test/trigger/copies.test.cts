/**
 * Where n8n itself is copied or loses its data. A copy of an n8n made from its user folder (a staging
 * n8n: the same database, instance id and webhook ids, another public address) holds this trigger's record
 * too: it never takes production's address, nor gives it back, while production's trigger answers there.
 * A workflow whose static data is lost while it stays published reads its secret back from the platform.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import axios from 'axios';
import { createHmac } from 'node:crypto';
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
const TX = '/v5/transactional/mail/sends_customised';
const hosts: TriggerHost[] = [];
let logged: string[] = [];
let spies: jest.SpyInstance[] = [];
beforeEach(() => {
	logged = [];
	const logger = Container.get(Logger);
	spies = (['warn', 'error'] as const).map((level) =>
		jest
			.spyOn(logger, level)
			.mockImplementation((...args: unknown[]) => void logged.push(`${level}: ${String(args[0])}`)),
	);
});
afterEach(async () => {
	for (const spy of spies) spy.mockRestore();
	await Promise.all(hosts.splice(0).map(async (host) => await host.close()));
});

async function workflow(
	webhookId: string,
	staticData: IDataObject = {},
	options: TriggerHostOptions = {},
) {
	const host = await startTriggerHost({}, env.credentials(), staticData, {
		webhookId,
		workflowName: 'Orders',
		...options,
	});
	hosts.push(host);
	return host;
}

const config = async () => await webhookConfiguration(env.emulator);
const reads = () =>
	env.view().requests.filter((request) => request.path === '/v5/webhook/get').length;

const userConfig = {
	transCallbackUrl: 'https://receiver.example/hook?key=users-own',
	transEvent: { bounced: true },
	transEnable: false,
};

async function sendAndFlush(email: string) {
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail: 'sender@example.com',
			subject: 's',
			content: 'c',
			messageVersions: [{ to: [{ email }] }],
		},
		200,
	);
	await env.control('POST', 'flush');
}
const emails = (host: TriggerHost) =>
	host.executions.flatMap((execution) => execution.flat()).map((item) => item.json.Email);

describe.each([2, 1] as const)('a copy of this n8n (n8n line %s)', (line) => {
	test("neither takes nor gives back production's address while production answers there; once production is gone, takes it over as after a move", async () => {
		await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
		const before = await config();
		const production = await workflow(`wf-copy-${line}`);
		await production.activate({ line });
		const during = await config();
		// The copy: the same workflow, webhook id, instance and static data, at another address.
		const copy = await workflow(`wf-copy-${line}`, production.staticData);
		expect(copy.baseUrl).not.toBe(production.baseUrl);

		// Unpublished on the copy (n8n 2.x shows it published there without running any hook).
		expect(await copy.deactivate()).toEqual([]);
		expect(await config()).toEqual(during);
		expect(logged.join('\n')).toContain(
			`left ${production.baseUrl} as it is on the platform: this workflow's trigger on another n8n (a copy of this one) still receives its pushes there`,
		);
		const error = await copy.activate({ line }).catch((caught: Error) => caught);
		expect(error).toBeInstanceOf(WebhookPathTakenError);
		expect((error as Error).message).toBe(
			`Cannot publish this workflow: the account's default push address is used by this workflow's trigger on another n8n at ${production.baseUrl}, which still receives its pushes (a copy of this n8n: the same workflows and instance). Unpublish this workflow on the n8n at ${production.baseUrl} (or stop that n8n) first, or set Register For to Chosen Senders.`,
		);
		expect(await config()).toEqual(during);
		await sendAndFlush('p@example.org');
		expect(emails(production)).toEqual(['p@example.org']);
		expect(copy.executions).toEqual([]);

		// Production gone: its address no longer answers, and the copy takes it over.
		await production.close();
		await copy.activate({ line });
		expect(String((await config()).transCallbackUrl)).toContain(copy.webhookUrl());
		expect(logged).toContain(tookOver('wf-wf-copy-' + line, production, copy));
		await sendAndFlush('c@example.org');
		expect(emails(copy)).toEqual(['c@example.org']);
		expect(await copy.deactivate()).toEqual([]);
		expect(await config()).toEqual(before);
	});
});

/** n8n's log line when a trigger takes its address from its own URL where nothing answers any more. */
const tookOver = (workflowId: string, from: TriggerHost, to: TriggerHost) =>
	`warn: Mail Delivery Trigger: workflow "Orders" (ID ${workflowId}) took over the account's default push address from its URL at ${from.baseUrl}, where no trigger answers any more (this workflow published by a copy of this n8n, or by this n8n at an earlier public address); pushes now come to ${to.webhookUrl()}.`;

describe.each([2, 1] as const)('as n8n starts (activation "init", n8n line %s)', (line) => {
	test("a published trigger whose address a copy of this n8n took takes it back once the copy no longer answers, and n8n's log says so; while the copy answers, it is refused and the log names the copy's address", async () => {
		await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
		const before = await config();
		const id = `wf-back-${line}`;
		const production = await workflow(id);
		await production.activate({ line });
		await production.close();
		// A copy of production's user folder starts at another address while production is stopped.
		const copy = await workflow(id, production.staticData);
		await copy.activate({ line, activation: 'init' });
		expect(String((await config()).transCallbackUrl)).toContain(copy.webhookUrl());
		expect(logged).toContain(tookOver(`wf-${id}`, production, copy));
		const held = await config();

		// Production starts again while the copy answers: refused, and the log names the copy's address.
		const restarted = await workflow(id, production.staticData, { port: production.port });
		const refusal = await restarted
			.activate({ line, activation: 'init' })
			.catch((caught: Error) => caught);
		expect(refusal).toBeInstanceOf(WebhookPathTakenError);
		expect(logged).toContain(
			`warn: Mail Delivery Trigger: workflow "Orders" (ID wf-${id}) is not receiving pushes: ${(refusal as Error).message}`,
		);
		expect((refusal as Error).message).toContain(`on another n8n at ${copy.baseUrl},`);
		expect(await config()).toEqual(held);

		// The copy stopped: production, started again, takes its address back and says so.
		await copy.close();
		logged = [];
		await restarted.activate({ line, activation: 'init' });
		expect(String((await config()).transCallbackUrl)).toContain(restarted.webhookUrl());
		expect(logged).toEqual([tookOver(`wf-${id}`, copy, restarted)]);
		await sendAndFlush('back@example.org');
		expect(emails(restarted)).toEqual(['back@example.org']);
		expect(await restarted.deactivate()).toEqual([]);
		expect(await config()).toEqual(before);
	});

	test("a platform that fails as n8n starts changes nothing: the trigger stays registered and receives pushes, and n8n's log says the check could not be made", async () => {
		await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
		const id = `wf-outage-${line}`;
		const production = await workflow(id);
		await production.activate({ line });
		const during = await config();
		await production.close();
		const restarted = await workflow(id, production.staticData, { port: production.port });
		await env.control('POST', 'fault', { path: '/v5/webhook/get', fault: 'network', skip: 0 });
		await restarted.activate({ line, activation: 'init' });
		expect(await config()).toEqual(during);
		expect(logged.join('\n')).toContain(
			`warn: Mail Delivery Trigger: workflow "Orders" (ID wf-${id}) could not check its push address as n8n started (`,
		);
		await sendAndFlush('outage@example.org');
		expect(emails(restarted)).toEqual(['outage@example.org']);
		expect(await restarted.deactivate()).toEqual([]);
	});

	test('a refusal when n8n publishes from the editor is not logged: the editor shows it', async () => {
		await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
		const first = await workflow(`wf-first-${line}`);
		await first.activate({ line });
		const second = await workflow(`wf-second-${line}`);
		await expect(second.activate({ line })).rejects.toThrow(WebhookPathTakenError);
		expect(logged.filter((text) => text.includes('is not receiving pushes'))).toEqual([]);
		expect(await first.deactivate()).toEqual([]);
	});
});

describe('the probe', () => {
	async function probed(header: string | undefined, url: string) {
		return await axios.post(url, [], {
			headers: header === undefined ? {} : { 'x-mail-delivery-probe': header },
			validateStatus: () => true,
		});
	}
	const mac = (key: string, ...parts: string[]) =>
		createHmac('sha256', Buffer.from(key, 'hex')).update(parts.join('\n')).digest('hex');

	test('is answered only with the secret and the key on the platform, starts nothing, and cannot be replayed later', async () => {
		const host = await workflow('wf-probe');
		await host.activate();
		const registered = new URL(String((await config()).transCallbackUrl));
		const key = new URLSearchParams(registered.hash.slice(1)).get('key')!;
		registered.hash = '';
		const url = registered.toString();
		const at = String(Date.now());
		const valid = `n0nce.${at}.${mac(key, 'probe', 'n0nce', at)}`;
		// A stranger holding the URL (an access log shows it, not the key) learns nothing.
		const withoutKey = await probed(
			`n0nce.${at}.${mac('00'.repeat(16), 'probe', 'n0nce', at)}`,
			url,
		);
		expect([withoutKey.status, withoutKey.data.probe]).toEqual([401, undefined]);
		const withoutSecret = await probed(valid, url.replace(/token=[^&#]+/, 'token=mdt1x'));
		expect([withoutSecret.status, withoutSecret.data.probe]).toEqual([401, undefined]);
		const old = String(Date.now() - 6 * 60_000);
		expect((await probed(`n0nce.${old}.${mac(key, 'probe', 'n0nce', old)}`, url)).status).toBe(401);
		const answer = await probed(valid, url);
		expect(answer.status).toBe(200);
		expect(answer.data.probe).toMatchObject({
			url: host.webhookUrl(),
			workflowId: 'wf-wf-probe',
			workflowName: 'Orders',
		});
		expect(host.executions).toEqual([]);
	});
});

describe('static data lost while the workflow stays published (n8n 2.x runs no hook for it)', () => {
	test('the first push reads the secret back from the platform once; pushes are accepted again, and the digest is saved', async () => {
		const published = await workflow('wf-lost');
		await published.activate();
		await published.close();
		// The same workflow at the same address, its static data replaced by a copy from before publication.
		const restarted = await workflow('wf-lost', {}, { port: published.port });
		const readsBefore = reads();
		// A stranger's pushes cannot make it read the configuration more than once.
		for (let attempt = 0; attempt < 5; attempt++) {
			const forged = await axios.post(
				`${restarted.webhookUrl()}?token=mdt1${'0'.repeat(48)}`,
				[{ EventCode: 'Delivered' }],
				{ validateStatus: () => true },
			);
			expect(forged.status).toBe(401);
		}
		await sendAndFlush('after@example.org');
		expect(emails(restarted)).toEqual(['after@example.org']);
		expect(reads() - readsBefore).toBe(1);
		expect(restarted.staticData).toMatchObject({
			'node:Mail Delivery Trigger': { secretDigest: expect.stringMatching(/^[0-9a-f]{64}$/) },
		});
		expect(logged.join('\n')).toContain(
			'workflow "Orders" (ID wf-wf-lost) had lost its secret\'s digest',
		);
	});

	test("a push that comes before n8n saved a new registration's static data (another secret's digest there) is accepted", async () => {
		const published = await workflow('wf-race');
		await published.activate();
		await published.close();
		// n8n 2.x saves static data after publication ends: a push may come while it holds the old digest.
		const stale = { 'node:Mail Delivery Trigger': { secretDigest: 'ab'.repeat(32) } };
		const racing = await workflow('wf-race', stale, { port: published.port });
		await sendAndFlush('early@example.org');
		expect(emails(racing)).toEqual(['early@example.org']);
		expect(logged.filter((line) => line.startsWith('error: '))).toEqual([]);
	});

	test("with no URL of it on the platform, pushes are refused and n8n's log says why, once a minute", async () => {
		const host = await workflow('wf-none');
		for (let attempt = 0; attempt < 3; attempt++) {
			const push = await axios.post(`${host.webhookUrl()}?token=mdt1x`, [{ EventCode: 'Opened' }], {
				validateStatus: () => true,
			});
			expect(push.status).toBe(401);
		}
		const errors = logged.filter((line) => line.startsWith('error: '));
		expect(errors).toHaveLength(1);
		expect(errors[0]).toContain('refuses every push: it keeps no secret');
		expect(errors[0]).toContain('Unpublish and publish it again');
	});
});
