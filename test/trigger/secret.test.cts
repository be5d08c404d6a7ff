/**
 * No one let in: the trigger's secret (the token of its registered URL) is what tells a real push from a
 * forged one, so it never appears in an item or in execution data, the action node's included.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import {
	actionWorkflow,
	runWorkflow,
	startTriggerHost,
	type TriggerHost,
} from '../harness/n8n.cts';

const env = useEmulator();
const hosts: TriggerHost[] = [];
afterEach(async () => {
	await Promise.all(hosts.splice(0).map(async (host) => await host.close()));
});

async function activeTriggers() {
	const onDefault = await startTriggerHost({}, env.credentials(), {}, { webhookId: 'wf-a' });
	const onSender = await startTriggerHost(
		{ registerFor: 'senders', senders: ['news@example.com'] },
		env.credentials(),
		{},
		{ webhookId: 'wf-b' },
	);
	hosts.push(onDefault, onSender);
	await onDefault.activate();
	await onSender.activate();
	const { webhook } = env.view().state;
	const urls = [webhook.transCallbackUrl, webhook.transCallbackUrlExtra![0].url];
	const secrets = urls.map((url) => String(new URL(String(url)).searchParams.get('token')));
	expect(secrets.every((secret) => /^mdt1[0-9a-f]{48}$/.test(secret))).toBe(true);
	// n8n 1.x copies a workflow's static data into every execution's workflowData: no secret there either.
	for (const [index, host] of [onDefault, onSender].entries())
		expect(JSON.stringify(host.staticData)).not.toContain(secrets[index]);
	return { onDefault, onSender, secrets };
}

async function run(parameters: IDataObject) {
	return await runWorkflow({ ...actionWorkflow(parameters), credentials: env.credentials() });
}

test('Webhook → Get shows the trigger URLs with their secret masked, and the secret is nowhere in the execution', async () => {
	const { onDefault, onSender, secrets } = await activeTriggers();
	const result = await run({ resource: 'webhook', operation: 'get' });
	const [item] = result.output('Mail Delivery');
	expect(item.json.transCallbackUrl).toMatch(
		new RegExp(`^${onDefault.webhookUrl()}\\?token=\\*\\*\\*#`),
	);
	const extra = item.json.transCallbackUrlExtra as Array<{ sender: string; url: string }>;
	expect(extra.find((entry) => entry.sender === 'news@example.com')?.url).toMatch(
		new RegExp(`^${onSender.webhookUrl()}\\?token=\\*\\*\\*#`),
	);
	const everything = JSON.stringify(result.run);
	for (const secret of secrets) expect(everything).not.toContain(secret);
	// The masked URL is no key: a push to it is refused.
	const forged = await axios.post(String(item.json.transCallbackUrl), [{ EventCode: 'Bounced' }], {
		validateStatus: () => true,
	});
	expect(forged.status).toBe(401);
	expect(onDefault.executions).toHaveLength(0);
});

test("Webhook → Get keeps the user's own URLs as they are", async () => {
	await run({
		resource: 'webhook',
		operation: 'save',
		updateFields: { transCallbackUrl: 'https://receiver.example/hook?token=users-own' },
	});
	const [item] = (await run({ resource: 'webhook', operation: 'get' })).output('Mail Delivery');
	expect(item.json.transCallbackUrl).toBe('https://receiver.example/hook?token=users-own');
});

test("Webhook → Save: its refusal, its error and its output never carry a trigger's secret", async () => {
	const { secrets } = await activeTriggers();
	const refused = await run({
		resource: 'webhook',
		operation: 'save',
		updateFields: {
			transCallbackUrl: 'https://example.com/other',
			transCallbackUrlExtra: {
				entries: [{ sender: 'news@example.com', url: 'https://x.example' }],
			},
		},
	});
	const error = refused.error() as Error & { description?: string };
	expect(error.message).toContain('Not saved');
	const replaced = await run({
		resource: 'webhook',
		operation: 'save',
		updateFields: { transEnable: false },
		options: { replaceTriggerSettings: true },
	});
	for (const result of [refused, replaced]) {
		const everything = JSON.stringify(result.run);
		for (const secret of secrets) expect(everything).not.toContain(secret);
	}
});

test("the trigger's items carry the events, not the secret of the URL they came to", async () => {
	const { onDefault, secrets } = await activeTriggers();
	const config = (await run({ resource: 'webhook', operation: 'get' })).output('Mail Delivery')[0];
	expect(config.json.transEnable).toBe(true);
	const url = String(env.view().state.webhook.transCallbackUrl);
	await axios.post(url, [{ EventCode: 'Delivered', Email: 'a@example.org' }]);
	expect(onDefault.executions).toHaveLength(1);
	expect(JSON.stringify(onDefault.executions)).not.toContain(secrets[0]);
});
