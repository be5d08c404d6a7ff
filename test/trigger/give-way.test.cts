/**
 * The demo must not stand in the way (issue 46.5): a trigger with Options → Give Way to Others (the
 * example workflow npm start publishes) lets any other trigger of the account take its push address, so a
 * user's first own trigger publishes without touching the example. The user's own receiver is never lost: the
 * trigger that takes the address keeps what the address held before the yielding one came, and puts it back.
 */
import type { IDataObject } from 'n8n-workflow';

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

async function workflow(webhookId: string, parameters: IDataObject = {}) {
	const host = await startTriggerHost(parameters, env.credentials(), {}, { webhookId });
	hosts.push(host);
	return host;
}
const example = async () => await workflow('example', { options: { giveWay: true } });

const config = async () => await webhookConfiguration(env.emulator);
const emails = (host: TriggerHost) =>
	host.executions.flatMap((execution) => execution.flat()).map((item) => item.json.Email);
async function sendAndFlush(to: string) {
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail: 'sender@example.com',
			subject: 's',
			content: 'c',
			messageVersions: [{ to: [{ email: to }] }],
		},
		200,
	);
	await env.control('POST', 'flush');
}
const userReceiver = {
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
};

test("the user's first own trigger publishes while the example holds the address; the example is left as it is", async () => {
	const demo = await example();
	await activate(demo);
	await sendAndFlush('one@example.org');
	expect(emails(demo)).toEqual(['one@example.org']);
	const mine = await workflow('mine');
	await activate(mine);
	await sendAndFlush('two@example.org');
	expect(emails(mine)).toEqual(['two@example.org']);
	expect(emails(demo)).toEqual(['one@example.org']);
	// The example unpublished later changes nothing: the address is not its own any more.
	const held = await config();
	await demo.remove();
	expect(await config()).toEqual(held);
});

test("the user's own receiver is never lost: the trigger that took over puts back what was there before the example", async () => {
	await expectCode(env.emulator, '/v5/webhook/save', userReceiver, 200);
	const before = await config();
	const demo = await example();
	await activate(demo);
	const mine = await workflow('mine');
	await activate(mine);
	await mine.remove();
	expect(await config()).toEqual(before);
	// And the other way round: the example unpublished first, then the user's trigger.
	await activate(demo);
	await activate(mine);
	await demo.remove();
	await mine.remove();
	expect(await config()).toEqual(before);
});

test('listening for test events takes the address from the example too; when it ends the example holds it again (issue 54.3)', async () => {
	await expectCode(env.emulator, '/v5/webhook/save', userReceiver, 200);
	const before = await config();
	const demo = await example();
	await activate(demo);
	const published = await config();
	const mine = await workflow('mine');
	await activate(mine, 'manual');
	await sendAndFlush('test@example.org');
	expect(emails(mine)).toEqual(['test@example.org']);
	await mine.remove('manual');
	expect(await config()).toEqual(published);
	await sendAndFlush('after@example.org');
	expect(emails(demo)).toEqual(['after@example.org']);
	// The example unpublished later still gives back the user's receiver.
	await demo.remove();
	expect(await config()).toEqual(before);
});

test('the example unpublished while a test listen holds its address: the test ends giving back the user’s receiver', async () => {
	await expectCode(env.emulator, '/v5/webhook/save', userReceiver, 200);
	const before = await config();
	const demo = await example();
	await activate(demo);
	const mine = await workflow('mine');
	await activate(mine, 'manual');
	// Unpublished: its delete hook finds nothing of its own to put back, and its URL stops answering.
	await demo.remove();
	await demo.close();
	await mine.remove('manual');
	expect(await config()).toEqual(before);
});

test('a test URL left behind that had taken the example’s address: publishing it keeps the user’s receiver, not the example', async () => {
	await expectCode(env.emulator, '/v5/webhook/save', userReceiver, 200);
	const before = await config();
	const demo = await example();
	await activate(demo);
	const mine = await workflow('mine');
	await activate(mine, 'manual');
	await env.control('POST', 'fault', { path: '/v5/webhook/get', fault: 'internalError' });
	await mine.remove('manual');
	await activate(mine);
	await mine.remove();
	expect(await config()).toEqual(before);
});

test('a trigger without the option still refuses a second one, naming it', async () => {
	const first = await workflow('first');
	await activate(first);
	const second = await workflow('second');
	await expect(activate(second)).rejects.toThrow(/is used by workflow "Workflow first"/);
});

test('a trigger that gives way publishes without the address when another trigger holds it (as n8n starts)', async () => {
	const mine = await workflow('mine');
	await activate(mine);
	const held = await config();
	const demo = await example();
	await activate(demo);
	expect(await config()).toEqual(held);
	await sendAndFlush('three@example.org');
	expect(emails(mine)).toEqual(['three@example.org']);
	expect(emails(demo)).toEqual([]);
	// Once the address is free again, publishing it again takes it.
	await mine.remove();
	await activate(demo);
	await sendAndFlush('four@example.org');
	expect(emails(demo)).toEqual(['four@example.org']);
});

test.each([
	['a 500 after the platform saved', 'internalError'],
	['a connection dropped before it saved', 'network'],
])(
	"%s, while taking the example's address: n8n's retries finish the take-over, and the user's receiver is still what goes back",
	async (_what, fault) => {
		await expectCode(env.emulator, '/v5/webhook/save', userReceiver, 200);
		const before = await config();
		const demo = await example();
		await demo.activate();
		const mine = await workflow('mine');
		await env.control('POST', 'fault', { path: '/v5/webhook/save', fault });
		await mine.activate();
		await sendAndFlush('five@example.org');
		expect(emails(mine)).toEqual(['five@example.org']);
		expect(await mine.deactivate()).toEqual([]);
		expect(await config()).toEqual(before);
	},
);
