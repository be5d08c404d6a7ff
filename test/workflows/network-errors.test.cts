/**
 * A request that gets no answer (a dropped connection, a platform that never answers, an address that
 * cannot be reached) fails in the node's own words, after the Timeout the user can set, and says
 * plainly whether mail may have gone out; its text never contradicts itself.
 */
import type { IDataObject } from 'n8n-workflow';

import { useEmulator } from '../harness/emulator.cts';
import { people, rl, sendToEachItem, TX } from '../harness/fixtures.cts';
import { actionWorkflow, runWorkflow } from '../harness/n8n.cts';

const env = useEmulator();
const send = (options: IDataObject = {}) => sendToEachItem({ options });
type Failure = Error & { description?: string };
/** n8n's own words for a dropped connection, which tell the user to send again at once. */
const N8N_WORDS =
	/retry the request immediately|perhaps it is offline|perhaps the server is offline/;

test('a connection dropped after the platform processed the send: titled by the node, and the text never says nothing was sent', async () => {
	await env.control('POST', 'fault', { path: TX, fault: 'resetAfter' });
	const result = await runWorkflow({
		...actionWorkflow(send()),
		credentials: env.credentials(),
		items: people(6),
	});
	const error = result.error() as Failure;
	expect(error.message).toBe(
		'6 of 6 items not confirmed as sent: the connection to the platform broke before it answered',
	);
	expect(error.message).not.toMatch(N8N_WORDS);
	expect(error.description).not.toMatch(/no item was sent/i);
	expect(error.description).toContain('Items 0–5 may have been sent.');
	expect(error.description).toContain('mail may have gone out');
	// Every part is a sentence of its own, so the editor's one paragraph still reads right.
	expect(error.description).toMatch(
		/under way \(socket hang up\)[^\n]*\.\nThe platform may still have/,
	);
	// The platform did process it: six messages went out, once.
	expect(env.view().mails).toHaveLength(6);
});

test('a request that is never answered fails after the Timeout set in Options, saying mail may have gone out', async () => {
	await env.control('POST', 'fault', { path: TX, fault: 'hang' });
	const started = Date.now();
	const result = await runWorkflow({
		...actionWorkflow(send({ timeoutSeconds: 1 })),
		credentials: env.credentials(),
		items: people(3),
	});
	const elapsed = Date.now() - started;
	expect(elapsed).toBeGreaterThanOrEqual(1000);
	// Not n8n's own 300 s: the option is honoured (a loaded machine adds seconds, not minutes).
	expect(elapsed).toBeLessThan(120_000);
	const error = result.error() as Failure;
	expect(error.message).toBe(
		'3 of 3 items not confirmed as sent: the platform did not answer within 1 s (Timeout)',
	);
	expect(error.message).not.toMatch(N8N_WORDS);
	expect(error.description).toContain('Items 0–2 may have been sent.');
	expect(error.description).toContain('mail may have gone out');
	expect(env.view().mails).toHaveLength(3);
});

test('with On Error = Continue, each item of a timed-out request says so in its own result', async () => {
	await env.control('POST', 'fault', { path: TX, fault: 'hang' });
	const result = await runWorkflow({
		...actionWorkflow(send({ timeoutSeconds: 1 }), { continueOnFail: true }),
		credentials: env.credentials(),
		items: people(2),
	});
	const [first] = result.output('Mail Delivery');
	expect(first.json.error).toBe('The platform did not answer within 1 s (Timeout)');
	expect((first.json.details as IDataObject).description).toContain('mail may have gone out');
});

test('an address where nothing answers: the node says the platform could not be reached and that nothing was sent', async () => {
	const credentials = env.credentials();
	credentials.stored.mailDeliverySignatureApi.baseUrl = 'http://127.0.0.1:9';
	const result = await runWorkflow({
		...actionWorkflow({ resource: 'webhook', operation: 'get' }, { continueOnFail: true }),
		credentials,
	});
	const [item] = result.output('Mail Delivery');
	expect(item.json.error).toBe('The platform could not be reached');
	expect(item.json.error).not.toMatch(N8N_WORDS);
	expect((item.json.details as IDataObject).description).toContain('ECONNREFUSED');
	const sent = await runWorkflow({
		...actionWorkflow(send()),
		credentials,
		items: people(2),
	});
	const error = sent.error() as Failure;
	expect(error.message).toBe('2 of 2 items not sent: the platform could not be reached');
	expect(error.description).toContain('Nothing of that request reached the platform');
	expect(error.description).not.toContain('may have');
});

test('a campaign created but not answered (the connection dropped): the error of a per-item operation says what may have happened, in its own terms', async () => {
	await env.control('POST', 'fault', { path: '/v5/campaign/mail/sends', fault: 'resetAfter' });
	const result = await runWorkflow({
		...actionWorkflow({
			resource: 'campaign',
			operation: 'create',
			mailName: 'spring',
			senderMail: rl('news@example.com'),
			sendLists: { list: [{ listName: rl('newsletter') }] },
			subject: 'Hi',
		}),
		credentials: env.credentials(),
	});
	const error = result.error() as Failure;
	expect(error.message).toBe('The connection to the platform broke before it answered');
	// The campaign was in fact created: the user must check before creating it again.
	expect(error.description).toContain(
		'The platform may still have processed that request (the campaign may have been created, and its mail sent): check before sending it again.',
	);
	expect(env.view().state.tasks.map((task) => task.mailName)).toContain('spring');
});

test('"try later" to every attempt: the text says the request was not processed, and nowhere that it may have been', async () => {
	await env.control('POST', 'settings', { unavailableEvery: 1 });
	const result = await runWorkflow({
		...actionWorkflow(send({ retryAttempts: 2, retryMaxWaitSeconds: 5 })),
		credentials: env.credentials(),
		items: people(2),
	});
	const error = result.error() as Failure;
	expect(error.description).toContain('Nothing of that request was sent or changed.');
	expect(error.description).not.toMatch(/may (still )?have (been )?(processed|sent)/i);
	expect(env.view().mails).toHaveLength(0);
});
