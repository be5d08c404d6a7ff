/**
 * One account, many workflows: every trigger here runs through n8n-core's HookContext against one
 * emulator account, the way several active workflows (and a test listener) share it in n8n.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { MailDeliveryTrigger } from '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';
import { expectCode } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';
import {
	activate,
	startTriggerHost,
	type TriggerHost,
	webhookConfiguration,
} from '../harness/n8n.cts';

const env = useEmulator();
const TX = '/v5/transactional/mail/sends_customised';
const hosts: TriggerHost[] = [];

afterEach(async () => {
	await Promise.all(hosts.splice(0).map(async (host) => await host.close()));
});

async function workflow(
	webhookId: string,
	parameters: IDataObject = {},
	staticData: IDataObject = {},
	port?: number,
) {
	const host = await startTriggerHost(parameters, env.credentials(), staticData, {
		webhookId,
		port,
	});
	hosts.push(host);
	return host;
}

const config = async () => await webhookConfiguration(env.emulator);
const saves = () =>
	env.view().requests.filter((request) => request.path === '/v5/webhook/save').length;
const emails = (host: TriggerHost) =>
	host.executions.flatMap((execution) => execution.flat()).map((item) => item.json.Email);
async function sendAndFlush(emailsTo: string[], senderMail = 'sender@example.com') {
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail,
			subject: 's',
			content: 'c',
			messageVersions: [{ to: emailsTo.map((email) => ({ email })) }],
		},
		200,
	);
	await env.control('POST', 'flush');
}
/** The user's own receiver and switches, there before any workflow. */
const userConfig = {
	transCallbackUrl: 'https://receiver.example/hook',
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

test('a second workflow on the default address is refused with an explanation; the first keeps receiving', async () => {
	await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
	const a = await workflow('wf-a');
	const b = await workflow('wf-b');
	await activate(a);
	const held = await config();
	await expect(activate(b)).rejects.toThrow(
		`Cannot publish this workflow: the account's default push address is used by workflow "Workflow wf-a" (ID wf-wf-a)`,
	);
	// n8n 2.x shows only the message of an activation error: the remedy must be in it.
	await expect(b.create()).rejects.toMatchObject({
		message: expect.stringMatching(
			/Unpublish "Workflow wf-a" first, or set Register For to Chosen Senders, or move what this workflow does into "Workflow wf-a"/,
		),
	});
	expect(await config()).toEqual(held);
	await sendAndFlush(['x@example.org']);
	expect(emails(a)).toEqual(['x@example.org']);
	expect(emails(b)).toEqual([]);
	// The refusal never shows the secret.
	await b.create().catch((error: Error & { description?: string }) => {
		expect(`${error.message} ${error.description}`).not.toContain('token=');
	});
});

test('A on the default address and B for chosen senders both receive, and each restores its own', async () => {
	await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
	const before = await config();
	const a = await workflow('wf-a', { events: ['Delivered'] });
	const b = await workflow('wf-b', {
		registerFor: 'senders',
		senders: ['news@example.com'],
		events: ['Bounced'],
	});
	await activate(a);
	await activate(b);
	await sendAndFlush(['one@example.org', 'soft@example.org']);
	await sendAndFlush(['two@example.org', 'soft@example.org'], 'news@example.com');
	expect(emails(a)).toEqual(['one@example.org']);
	expect(emails(b)).toEqual(['soft@example.org']);
	await b.remove();
	const afterB = await config();
	expect(afterB.transCallbackUrl).toContain(a.webhookUrl());
	expect(afterB.transCallbackUrlExtra).toEqual(userConfig.transCallbackUrlExtra);
	await sendAndFlush(['three@example.org']);
	expect(emails(a)).toEqual(['one@example.org', 'three@example.org']);
	await a.remove();
	expect(await config()).toEqual(before);
});

test.each([
	['A first', ['a', 'b']],
	['B first', ['b', 'a']],
])(
	'A then B, deactivated %s: the configuration ends exactly as it was before A',
	async (_name, order) => {
		await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
		const before = await config();
		const a = await workflow('wf-a');
		const b = await workflow('wf-b', {
			registerFor: 'senders',
			senders: ['news@example.com', 'new@example.com'],
		});
		await activate(a);
		await activate(b);
		const byName: Record<string, TriggerHost> = { a, b };
		await byName[order[0]].remove();
		// The one still active keeps every switch it needs.
		const between = await config();
		expect(between.transEnable).toBe(true);
		expect(Object.values(between.transEvent as IDataObject)).toEqual(Array(7).fill(true));
		await byName[order[1]].remove();
		expect(await config()).toEqual(before);
	},
);

test('an n8n restart with both workflows active saves nothing and moves no address', async () => {
	const a = await workflow('wf-a');
	const b = await workflow('wf-b', { registerFor: 'senders', senders: ['news@example.com'] });
	await activate(a);
	await activate(b);
	const during = await config();
	const savesBefore = saves();
	// n8n starts again at the same address: the same workflows, their static data from the database.
	await Promise.all([a.close(), b.close()]);
	const a2 = await workflow('wf-a', {}, a.staticData, a.port);
	const b2 = await workflow(
		'wf-b',
		{ registerFor: 'senders', senders: ['news@example.com'] },
		b.staticData,
		b.port,
	);
	for (let round = 0; round < 2; round++) {
		await activate(b2);
		await activate(a2);
	}
	expect(saves()).toBe(savesBefore);
	expect(await config()).toEqual(during);
});

test('listening for test events while production holds the address is refused; production still receives', async () => {
	const production = await workflow('wf-a');
	await activate(production);
	const held = await config();
	await expect(production.listen()).rejects.toThrow(
		"Cannot listen for test events: the account's default push address is used by this workflow's published trigger. Unpublish this workflow while you test (if it is not published, publish and unpublish it once to put back what its trigger replaced)",
	);
	const other = await workflow('wf-b');
	await expect(other.listen()).rejects.toMatchObject({
		message: expect.stringMatching(
			/Unpublish "Workflow wf-a" while you test, or .*Chosen Senders.*, or set Registration to Manual/,
		),
	});
	expect(await config()).toEqual(held);
	await sendAndFlush(['p@example.org']);
	expect(emails(production)).toEqual(['p@example.org']);
});

test("a trigger takes over the user's own receiver and puts it back exactly, per-sender entries in their order", async () => {
	await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
	const before = await config();
	const host = await workflow('wf-a', {
		registerFor: 'senders',
		senders: ['news@example.com', 'new@example.com'],
	});
	await activate(host);
	const during = (await config()).transCallbackUrlExtra as Array<{ sender: string; url: string }>;
	expect(during.map((entry) => entry.sender)).toEqual([
		'second@example.com',
		'news@example.com',
		'third@example.com',
		'new@example.com',
	]);
	expect(during[1].url).toContain(host.webhookUrl());
	await host.remove();
	expect(await config()).toEqual(before);
});

test('deactivation that meets a network error reports it and switches nothing off', async () => {
	const host = await workflow('wf-a');
	await activate(host);
	const during = await config();
	await env.control('POST', 'fault', { path: '/v5/webhook/save', fault: 'network' });
	const savesBefore = saves();
	await expect(host.remove()).rejects.toThrow();
	expect(await config()).toEqual(during);
	expect(saves()).toBe(savesBefore);
	// Still recorded as registered: a later deactivation restores.
	await host.remove();
	expect(await config()).toEqual({
		transEvent: null,
		transCallbackUrl: null,
		transCallbackUrlExtra: null,
		transEnable: null,
	});
});

test('deactivation answered 401 switches nothing off', async () => {
	const host = await workflow('wf-a');
	await activate(host);
	const during = await config();
	await host.close();
	const wrongSecret = env.credentials();
	wrongSecret.stored.mailDeliverySignatureApi.apiSecret = 'wrong';
	const broken = await startTriggerHost({}, wrongSecret, host.staticData, {
		webhookId: 'wf-a',
		port: host.port,
	});
	hosts.push(broken);
	await expect(broken.remove()).rejects.toThrow(/401/);
	expect(await config()).toEqual(during);
});

test('a platform that refuses null: removal saves the nearest values instead and pushes end; the address stays free for others', async () => {
	await env.control('POST', 'settings', { webhookNull: 'refuse' });
	const a = await workflow('wf-a');
	await activate(a);
	await a.remove();
	const after = await config();
	expect(after).toMatchObject({
		transEnable: false,
		transEvent: Object.fromEntries(Object.keys(userConfig.transEvent).map((key) => [key, false])),
	});
	// The address keeps a released mark (no secret): no push is accepted there, and it blocks no one.
	expect(after.transCallbackUrl).toBe(`${a.webhookUrl()}?token=mdt1-released`);
	const b = await workflow('wf-b');
	await activate(b);
	await sendAndFlush(['b@example.org']);
	expect(emails(b)).toEqual(['b@example.org']);
	await b.remove();
	expect((await config()).transEnable).toBe(false);
});

test('manual registration with Require Secret on and an empty Secret refuses to activate and accepts no push', async () => {
	const host = await workflow('wf-a', { registration: 'manual', requireSecret: true, secret: '' });
	await expect(activate(host)).rejects.toThrow('Require Secret is on but the Secret is empty');
	for (const url of [host.webhookUrl(), `${host.webhookUrl()}?token=`]) {
		expect(
			(await axios.post(url, [{ EventCode: 'Opened' }], { validateStatus: () => true })).status,
		).toBe(401);
	}
	expect(host.executions).toHaveLength(0);
	expect(env.view().requests).toHaveLength(0);
});

test('manual registration needs no credential; automatic does', () => {
	const { credentials } = new MailDeliveryTrigger().description;
	expect(credentials!.map((credential) => credential.displayOptions?.show?.registration)).toEqual([
		['automatic'],
		['automatic'],
		['automatic'],
	]);
});

test('an accepted push is answered with how many events came and how many were kept', async () => {
	const host = await workflow('wf-a', { events: ['Bounced'] });
	await activate(host);
	const url = (await config()).transCallbackUrl as string;
	const answer = await axios.post(url, [
		{ EventCode: 'Bounced', Email: 'a@example.org' },
		{ EventCode: 'Delivered', Email: 'a@example.org' },
		{ EventCode: 'Bounced', Email: 'b@example.org' },
	]);
	expect(answer.data).toEqual({ received: 3, kept: 2 });
	const none = await axios.post(url, [{ EventCode: 'Delivered' }]);
	expect(none.data).toEqual({ received: 1, kept: 0 });
	expect(host.executions).toHaveLength(1);
});

describe('a refusal names what the user can act on', () => {
	test('the holding workflow by its current name after a rename (its trigger answers with it), and its ID', async () => {
		const a = await workflow('wf-a');
		await activate(a);
		await a.close();
		// Renamed in the editor: n8n serves the same trigger under the new name, and runs no hook for it.
		const renamed = await startTriggerHost({}, env.credentials(), a.staticData, {
			webhookId: 'wf-a',
			port: a.port,
			workflowName: 'Orders (renamed)',
		});
		hosts.push(renamed);
		const b = await workflow('wf-b');
		await expect(activate(b)).rejects.toThrow(
			`Cannot publish this workflow: the account's default push address is used by workflow "Orders (renamed)" (ID wf-wf-a). Unpublish "Orders (renamed)" first, or set Register For to Chosen Senders, or move what this workflow does into "Orders (renamed)".`,
		);
	});

	test('a holder that no longer answers (its n8n lost its user folder, or the workflow was deleted): said so, with Replace Anyway among the remedies', async () => {
		const a = await workflow('wf-a');
		await activate(a);
		await a.close();
		const b = await workflow('wf-b');
		await expect(activate(b)).rejects.toThrow(
			`Cannot publish this workflow: the account's default push address is used by workflow "Workflow wf-a" (ID wf-wf-a), which does not answer at ${a.baseUrl}. Unpublish "Workflow wf-a" first, or set Register For to Chosen Senders, or if that workflow no longer exists, free the address with the Mail Delivery node's Webhook → Save (option Replace Anyway).`,
		);
	});
});
