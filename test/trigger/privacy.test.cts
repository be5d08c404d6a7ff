/**
 * What a push's request line carries: every push the platform sends shows its target in n8n's and any
 * proxy's access logs. Only what must travel there does: the path and the secret. The record of what the
 * trigger replaced (the user's receiver, with its own secrets) and the workflow's name stay on the platform.
 */

import { expectCode } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';
import { startTriggerHost, type TriggerHost, webhookConfiguration } from '../harness/n8n.cts';

const env = useEmulator();
const TX = '/v5/transactional/mail/sends_customised';
const hosts: TriggerHost[] = [];
afterEach(async () => {
	await Promise.all(hosts.splice(0).map(async (host) => await host.close()));
});

const config = async () => await webhookConfiguration(env.emulator);

const userConfig = {
	transCallbackUrl: 'https://receiver.example/hook?key=users-own-key',
	transEvent: { bounced: true },
	transEnable: false,
	transCallbackUrlExtra: [
		{ sender: 'news@example.com', url: 'https://news.example/hook?key=news-own-key' },
	],
};

async function sendAndFlush(senderMail: string) {
	await expectCode(
		env.emulator,
		TX,
		{ senderMail, subject: 's', content: 'c', messageVersions: [{ to: [{ email: 'a@x.org' }] }] },
		200,
	);
	await env.control('POST', 'flush');
}

test.each([
	['the default address', {}, 'sender@example.com'],
	[
		'a sender address',
		{ registerFor: 'senders', senders: ['news@example.com'] },
		'news@example.com',
	],
])(
	"a push to %s carries only the path and the secret: not the user's receiver it replaced, nor the workflow's name",
	async (_where, parameters, sender) => {
		await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
		const before = await config();
		const host = await startTriggerHost(
			parameters,
			env.credentials(),
			{},
			{
				webhookId: 'wf-a',
				workflowName: 'Payroll bounces (confidential)',
			},
		);
		hosts.push(host);
		await host.activate();
		await sendAndFlush(sender);
		expect(host.executions).toHaveLength(1);
		expect(host.requestLines.length).toBeGreaterThan(0);
		for (const line of host.requestLines)
			expect(line).toMatch(/^POST \/webhook\/wf-a\/events\?token=mdt1[0-9a-f]{48}$/);
		// The record stayed on the platform: deactivation puts everything back exactly.
		expect(await host.deactivate()).toEqual([]);
		expect(await config()).toEqual(before);
	},
);

describe('a URL registered by an earlier version, its record in the query', () => {
	async function legacySetup() {
		await expectCode(env.emulator, '/v5/webhook/save', userConfig, 200);
		const before = await config();
		const host = await startTriggerHost({}, env.credentials(), {}, { webhookId: 'wf-a' });
		hosts.push(host);
		// This n8n's mark, as the trigger writes it today.
		await host.activate();
		const fragment = new URLSearchParams(
			new URL(String((await config()).transCallbackUrl)).hash.slice(1),
		);
		await host.deactivate();
		const legacy = new URL(host.webhookUrl());
		for (const [name, value] of [
			['token', `mdt1${'ab'.repeat(24)}`],
			['n8n', fragment.get('n8n')!],
			['workflow', 'wf-wf-a'],
			['name', 'Workflow wf-a'],
			['prior', '0100000-0-l'],
			['prev', userConfig.transCallbackUrl],
		])
			legacy.searchParams.set(name, value);
		await expectCode(
			env.emulator,
			'/v5/webhook/save',
			{ transCallbackUrl: legacy.toString(), transEvent: { delivered: true }, transEnable: true },
			200,
		);
		return { before, host };
	}

	test('deactivation puts back what it replaced', async () => {
		const { before, host } = await legacySetup();
		expect(await host.deactivate()).toEqual([]);
		expect(await config()).toEqual(before);
	});

	test('activation moves the record out of the query; deactivation then puts everything back', async () => {
		const { before, host } = await legacySetup();
		await host.activate();
		const url = new URL(String((await config()).transCallbackUrl));
		expect([...url.searchParams.keys()]).toEqual(['token']);
		expect(new URLSearchParams(url.hash.slice(1)).get('prev')).toBe(userConfig.transCallbackUrl);
		await host.deactivate();
		expect(await config()).toEqual(before);
	});
});
