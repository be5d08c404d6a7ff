/**
 * The emulator's address as `npm start` prints it (issue 54.5): a page that leads to the mail log and the
 * settings, not the platform's JSON 404; the settings page shows each setting with what it does and changes it.
 */
import axios from 'axios';

import { expectCode } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';

const env = useEmulator();
const get = (path: string) =>
	axios.get<string>(`${env.emulator.url}${path}`, { maxRedirects: 0, validateStatus: () => true });

test('the emulator’s address answers a page leading to the mail log and the settings', async () => {
	const home = await get('/');
	expect(home.status).toBe(200);
	expect(home.headers['content-type']).toMatch(/^text\/html/);
	expect(home.data).toContain('<h1>Platform emulator</h1>');
	expect(home.data).toContain('<a href="/mails">Mail log</a>');
	expect(home.data).toContain('<a href="/settings">Settings</a>');
	expect((await get('/mails')).data).toContain('<a href="/settings">Settings</a>');
});

test('the settings page shows the latency and the rest with what each does, and its form changes them', async () => {
	const shown = await get('/settings');
	expect(shown.status).toBe(200);
	for (const words of ['Latency (ms)', 'Rate limit', 'Messages', 'What it does'])
		expect(shown.data).toContain(words);
	const saved = await axios.post(
		`${env.emulator.url}/settings`,
		'latencyMs=40&messages=en&clickTrackingByDefault=on&rateLimitPerSecond=-3',
		{
			maxRedirects: 0,
			validateStatus: () => true,
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		},
	);
	expect(saved.status).toBe(303);
	expect(saved.headers.location).toBe('/settings?saved=1');
	const after = await get('/settings?saved=1');
	expect(after.data).toContain('Saved.');
	expect(after.data).toContain('name="latencyMs" id="latencyMs" value="40"');
	expect(after.data).toContain('name="rateLimitPerSecond" id="rateLimitPerSecond" value="0"');
	// The platform answers in English now, after the latency.
	const started = Date.now();
	const refused = await expectCode(env.emulator, '/v5/no/such/operation', {}, 404);
	expect(Date.now() - started).toBeGreaterThanOrEqual(40);
	expect(JSON.stringify(refused)).toMatch(/no operation at/);
});
