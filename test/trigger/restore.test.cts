/**
 * Putting back what a trigger replaced on a platform that will not take it back as it was: a prior value
 * its API now refuses (a cleared "" address, a leading space), or "nothing configured" (null) that it
 * ignores. The trigger never stays on the account: it saves the nearest value the platform takes, reads
 * the configuration back as after a registration, and says in n8n's log what it saved instead.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { startTriggerHost, type TriggerHost, webhookConfiguration } from '../harness/n8n.cts';

const env = useEmulator();
const hosts: TriggerHost[] = [];
let warnings: string[] = [];
let spy: jest.SpyInstance;
beforeEach(() => {
	warnings = [];
	spy = jest
		.spyOn(Container.get(Logger), 'warn')
		.mockImplementation((...args: unknown[]) => void warnings.push(String(args[0])));
});
afterEach(async () => {
	spy.mockRestore();
	await Promise.all(hosts.splice(0).map(async (host) => await host.close()));
});

const config = async () => await webhookConfiguration(env.emulator);

async function workflow(parameters: IDataObject = {}) {
	const host = await startTriggerHost(parameters, env.credentials(), {}, { webhookId: 'wf-a' });
	hosts.push(host);
	return host;
}

const switches = {
	dropped: false,
	bounced: true,
	delivered: false,
	spamReport: false,
	opened: false,
	clicked: false,
	unsubscribed: false,
};
const allOff = Object.fromEntries(Object.keys(switches).map((key) => [key, false]));

describe('a prior value the platform will not take back', () => {
	test.each([
		['a cleared default address ("")', ''],
		['a default address with a leading space', ' https://receiver.example/hook'],
	])(
		'%s: the address is left empty, the switches and the flag as they were, and the log says so',
		async (_what, prior) => {
			// Saved by the platform's own console: its API (webhook/save) refuses both values now.
			await env.control('POST', 'webhook', {
				transCallbackUrl: prior,
				transEvent: switches,
				transEnable: false,
			});
			const host = await workflow();
			await host.activate();
			expect(await host.deactivate()).toEqual([]);
			expect(await config()).toEqual({
				transCallbackUrl: null,
				transEvent: switches,
				transEnable: false,
				transCallbackUrlExtra: null,
			});
			expect(warnings.join('\n')).toContain(
				`the platform refused to take back ${JSON.stringify(prior)} at the account's default push address (code 400); saved nothing there instead`,
			);
		},
	);

	test('a per-sender entry whose URL was "": the entry goes, every other entry stays in its place', async () => {
		const extra = [
			{ sender: 'second@example.com', url: 'https://second.example/hook' },
			{ sender: 'news@example.com', url: '' },
			{ sender: 'third@example.com', url: 'https://third.example/hook' },
		];
		await env.control('POST', 'webhook', {
			transCallbackUrl: 'https://receiver.example/hook',
			transEvent: switches,
			transEnable: false,
			transCallbackUrlExtra: extra,
		});
		const host = await workflow({ registerFor: 'senders', senders: ['news@example.com'] });
		await host.activate();
		expect(await host.deactivate()).toEqual([]);
		expect(await config()).toEqual({
			transCallbackUrl: 'https://receiver.example/hook',
			transEvent: switches,
			transEnable: false,
			transCallbackUrlExtra: [extra[0], extra[2]],
		});
		expect(warnings.join('\n')).toContain(
			'the platform refused to take back "" at the push address of sender news@example.com (code 400); saved nothing there instead',
		);
	});
});

test('a platform that ignores null: the configuration is read back after the release and corrected, so no switch the trigger turned on stays on', async () => {
	await env.control('POST', 'settings', { webhookNull: 'ignore' });
	const host = await workflow({ events: ['Delivered'] });
	await host.activate();
	expect((await config()).transEvent).toMatchObject({ delivered: true });
	expect(await host.deactivate()).toEqual([]);
	const after = await config();
	expect(after.transEvent).toEqual(allOff);
	expect(after.transEnable).toBe(false);
	// No push can reach the trigger's secret any more: the address is marked released.
	expect(after.transCallbackUrl).toBe(`${host.webhookUrl()}?token=mdt1-released`);
	expect(warnings.join('\n')).toMatch(/kept what it was given as null/);
});
