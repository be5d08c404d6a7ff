/**
 * The mail log as recipients read it (GET /mails, /mails/<n>) and the platform's click tracking: with it on, every
 * link is rewritten to the platform's tracking address, except one marked `ef:disable-tracking` (API 4.6), which
 * stays exactly as written; a tracking address records a Clicked event and redirects.
 */
import axios from 'axios';

import { expectCode } from '../harness/client.cts';
import { useEmulator } from '../harness/emulator.cts';

const env = useEmulator({ messages: 'en' });
const TX = '/v5/transactional/mail/sends_customised';
const page = (path: string) =>
	axios.get(`${env.emulator.url}${path}`, { maxRedirects: 0, validateStatus: () => true });

const CONTENT =
	'<p>Hi {{name}}</p><a href="https://shop.example/offer?a=1&amp;b=2">Offer</a> <a ef:disable-tracking href="https://n8n.example/webhook-waiting/1/n?approved=true&amp;signature=abc">Approve</a>';
const sendWith = async (extra: object) =>
	await expectCode(
		env.emulator,
		TX,
		{
			senderMail: 'sender@example.com',
			subject: 'Hello {{name}}',
			content: CONTENT,
			params: { name: 'Ada' },
			messageVersions: [{ to: [{ email: 'ada@example.org' }] }],
			...extra,
		},
		200,
	);

test('with trackClick 1, links are rewritten to tracking addresses but those marked ef:disable-tracking', async () => {
	await sendWith({ trackClick: 1 });
	const [mail] = env.view().mails;
	expect(mail.trackedLinks).toEqual(['https://shop.example/offer?a=1&b=2']);
	expect(mail.html).toContain('<p>Hi Ada</p><a href="/t/0/0">Offer</a>');
	expect(mail.html).toContain(
		'<a ef:disable-tracking href="https://n8n.example/webhook-waiting/1/n?approved=true&amp;signature=abc">',
	);
	const tracked = await page('/t/0/0');
	expect([tracked.status, tracked.headers.location]).toEqual([
		302,
		'https://shop.example/offer?a=1&b=2',
	]);
	expect(env.view().events.filter((event) => event.EventCode === 'Clicked')).toHaveLength(1);
});

test('without trackClick the account default decides (off unless clickTrackingByDefault); trackClick 0 tracks nothing', async () => {
	await sendWith({});
	expect(env.view().mails[0].trackedLinks).toBeUndefined();
	await env.control('POST', 'settings', { clickTrackingByDefault: true });
	await sendWith({});
	expect(env.view().mails[1].trackedLinks).toHaveLength(1);
	await sendWith({ trackClick: 0 });
	expect(env.view().mails[2].trackedLinks).toBeUndefined();
});

test('the mail log pages show each message as its recipient reads it', async () => {
	await sendWith({});
	const log = await page('/mails');
	expect(log.status).toBe(200);
	expect(log.headers['content-type']).toMatch(/^text\/html/);
	expect(log.data).toContain('<a href="/mails/0">Hello Ada</a>');
	const shown = await page('/mails/0');
	expect(shown.data).toContain('<b id="mail-subject">Hello Ada</b>');
	expect(shown.data).toContain('<p>Hi Ada</p>');
	expect((await page('/mails/7')).status).toBe(404);
});
