/**
 * Webhook → Save beside an active Mail Delivery Trigger: a save that would silently take the pushes
 * away from the trigger (its address, its sender address, its switches) is refused before any write,
 * naming what holds it, unless the user asks for it with an explicit option.
 */
import type { IDataObject } from 'n8n-workflow';

import { call } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';
import {
	actionWorkflow,
	runWorkflow,
	startTriggerHost,
	type TriggerHost,
	webhookConfiguration,
} from '../harness/n8n.cts';

const env = useEmulator();
const hosts: TriggerHost[] = [];
afterEach(async () => {
	await Promise.all(hosts.splice(0).map(async (host) => await host.close()));
});

async function activeTrigger(parameters: IDataObject = {}) {
	const host = await startTriggerHost(
		parameters,
		env.credentials(),
		{},
		{ webhookId: `wf-${hosts.length}` },
	);
	hosts.push(host);
	if (!(await host.checkExists('trigger'))) await host.create('trigger');
	return host;
}

const config = async () => await webhookConfiguration(env.emulator);
const saves = () =>
	env.view().requests.filter((request) => request.path === '/v5/webhook/save').length;

async function save(updateFields: IDataObject, options: IDataObject = {}) {
	const result = await runWorkflow({
		...actionWorkflow({ resource: 'webhook', operation: 'save', updateFields, options }),
		credentials: env.credentials(),
	});
	return {
		error: result.error() as (Error & { description?: string }) | undefined,
		output: result.output('Mail Delivery'),
	};
}

test('a new default address is refused while a trigger holds it: the error names the trigger and the option; nothing is saved', async () => {
	const trigger = await activeTrigger();
	const before = await config();
	const savesBefore = saves();
	const { error } = await save({ transCallbackUrl: 'https://example.com/other' });
	expect(error?.message).toContain(
		`Not saved: the account's default push address is held by a Mail Delivery Trigger (${trigger.webhookUrl()})`,
	);
	// Named by its workflow, as the trigger's own refusals name it.
	expect(error?.message).toContain(
		`(${trigger.webhookUrl()}) of workflow "Workflow wf-0" (ID wf-wf-0)`,
	);
	expect(error?.message).toContain('Replace Anyway');
	expect(error?.message).not.toContain('token=');
	expect(saves()).toBe(savesBefore);
	expect(await config()).toEqual(before);
});

test('pushes switched off, a trigger sender address replaced, or a kind it receives switched off: each refused', async () => {
	const senderTrigger = await activeTrigger({
		registerFor: 'senders',
		senders: ['news@example.com'],
		events: ['Bounced'],
	});
	const savesBefore = saves();
	expect((await save({ transEnable: false })).error?.message).toMatch(
		/Not saved: turning pushes off would stop every Mail Delivery Trigger/,
	);
	expect(
		(
			await save({
				transCallbackUrlExtra: {
					entries: [{ sender: 'news@example.com', url: 'https://example.com/news' }],
				},
			})
		).error?.message,
	).toContain(
		`the push address of sender news@example.com is held by a Mail Delivery Trigger (${senderTrigger.webhookUrl()})`,
	);
	expect(
		(
			await save({
				transCallbackUrlExtra: { entries: [] },
				transCallbackUrlExtraUpdateMode: 'replace',
			})
		).error?.message,
	).toContain('news@example.com');
	expect((await save({ transEvent: ['Delivered'] })).error?.message).toMatch(/switch off Bounced/);
	expect(saves()).toBe(savesBefore);
});

test('saves that leave the triggers their pushes go through, and the option replaces a trigger address on purpose', async () => {
	const trigger = await activeTrigger({
		registerFor: 'senders',
		senders: ['news@example.com'],
		events: ['Bounced'],
	});
	// Another sender's address and more kinds switched on take nothing away.
	expect(
		(
			await save({
				transCallbackUrlExtra: {
					entries: [{ sender: 'sender@example.com', url: 'https://example.com/tx' }],
				},
				transEvent: ['Bounced', 'Opened'],
			})
		).error,
	).toBeUndefined();
	const { error, output } = await save(
		{
			transCallbackUrlExtra: {
				entries: [{ sender: 'news@example.com', url: 'https://example.com/news' }],
			},
		},
		{ replaceTriggerSettings: true },
	);
	expect(error).toBeUndefined();
	expect(output[0].json.success).toBe(true);
	const extra = (await config()).transCallbackUrlExtra as IDataObject[];
	expect(extra).toContainEqual({ sender: 'news@example.com', url: 'https://example.com/news' });
	expect(JSON.stringify(extra)).not.toContain(trigger.webhookUrl());
});

describe("Webhook → Save and the triggers' record", () => {
	const userSwitches = {
		dropped: false,
		bounced: true,
		delivered: false,
		spamReport: false,
		opened: false,
		clicked: false,
		unsubscribed: false,
	};
	const userConfig = {
		transCallbackUrl: 'https://receiver.example/hook',
		transEvent: userSwitches,
		transEnable: false,
		transCallbackUrlExtra: [{ sender: 'second@example.com', url: 'https://second.example/hook' }],
	};
	const deactivate = async (host: TriggerHost) => {
		await host.remove('trigger');
	};

	test("a switch the user turns on while a trigger is active stays on after the trigger leaves; the trigger's own go back", async () => {
		await call(env.emulator, '/v5/webhook/save', userConfig);
		const trigger = await activeTrigger({ events: ['Delivered'] });
		const { error } = await save({ transEvent: ['Bounced', 'Delivered', 'Opened'] });
		expect(error).toBeUndefined();
		await deactivate(trigger);
		expect(await config()).toEqual({
			...userConfig,
			transEvent: { ...userSwitches, opened: true },
		});
	});

	test('Replace Anyway taking the last address a trigger holds puts back the switches and the flag the triggers turned on (what the save sets stays)', async () => {
		await call(env.emulator, '/v5/webhook/save', userConfig);
		const trigger = await activeTrigger({ events: ['Delivered'] });
		const { error, output } = await save(
			{ transCallbackUrl: 'https://new-receiver.example/hook' },
			{ replaceTriggerSettings: true },
		);
		expect(error).toBeUndefined();
		expect(output[0].json.success).toBe(true);
		const after = await config();
		expect(after).toEqual({ ...userConfig, transCallbackUrl: 'https://new-receiver.example/hook' });
		// The trigger, disconnected, finds nothing of its own to put back when it leaves.
		await deactivate(trigger);
		expect(await config()).toEqual(after);
	});

	test('a Get → Save round trip (URLs as Get shows them, secrets masked) never writes a masked URL; the trigger keeps receiving', async () => {
		await call(env.emulator, '/v5/webhook/save', userConfig);
		await activeTrigger({ registerFor: 'senders', senders: ['news@example.com'] });
		const before = await config();
		const got = (
			await runWorkflow({
				...actionWorkflow({ resource: 'webhook', operation: 'get' }),
				credentials: env.credentials(),
			})
		).output('Mail Delivery')[0].json;
		expect(JSON.stringify(got)).toContain('token=***');
		for (const options of [{}, { replaceTriggerSettings: true }]) {
			const { error } = await save(
				{
					transCallbackUrl: got.transCallbackUrl,
					transCallbackUrlExtra: { entries: got.transCallbackUrlExtra },
					transCallbackUrlExtraUpdateMode: 'replace',
				},
				options,
			);
			expect(error).toBeUndefined();
			expect(await config()).toEqual(before);
		}
	});

	test('a masked URL that no trigger holds now (from an older Get) is refused, naming the field; nothing is saved', async () => {
		const trigger = await activeTrigger();
		const savesBefore = saves();
		const { error } = await save(
			{ transCallbackUrl: `${trigger.webhookUrl()}?token=***#n8n=000000000000` },
			{ replaceTriggerSettings: true },
		);
		expect(error?.message).toMatch(
			/^Field "Default Push URL" holds a trigger's URL with its secret masked \(token=\*\*\*\)/,
		);
		expect(saves()).toBe(savesBefore);
	});
});
