// End-to-end: real n8n (line N8N_LINE) with the built package, against the emulator, no browser.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import {
	activate,
	activateExpectingRefusal,
	authorizationCode,
	eventually,
	createCredential,
	credentialData,
	runAction,
	startStack,
	triggerWorkflow,
} from './env.mjs';

const line = process.env.N8N_LINE ?? '2';
let stack;
const credentials = {};

before(async () => {
	const started = Date.now();
	// With its editor: the first test reads the node list the editor loads.
	stack = await startStack(line, { editor: true });
	console.log(
		`n8n line ${line} ready in ${stack.n8n.startupMs} ms (stack ${Date.now() - started} ms)`,
	);
	for (const type of ['mailDeliverySignatureApi', 'mailDeliveryClientCredentialsOAuth2Api']) {
		credentials[type] = await createCredential(
			stack.session,
			type,
			credentialData(stack.emulator, type),
		);
	}
	const code = await authorizationCode(stack.emulator);
	credentials.mailDeliveryAuthCodeOAuth2Api = await createCredential(
		stack.session,
		'mailDeliveryAuthCodeOAuth2Api',
		credentialData(stack.emulator, 'mailDeliveryAuthCodeOAuth2Api', code),
	);
});

after(async () => {
	await stack?.n8n.stop();
	await stack?.emulator.stop();
});

const get = async (route) =>
	(
		await fetch(`${stack.n8n.baseUrl}${route}`, { headers: { cookie: stack.session.cookie } })
	).json();
const signature = () => credentials.mailDeliverySignatureApi;

test('the package loads: both nodes and all three credentials are known to n8n', async () => {
	const nodes = (await get('/types/nodes.json')).map((type) => type.name);
	assert.ok(nodes.includes('n8n-nodes-mail-delivery.mailDelivery'));
	assert.ok(nodes.includes('n8n-nodes-mail-delivery.mailDeliveryTrigger'));
	const types = (await get('/types/credentials.json')).map((type) => type.name);
	for (const name of [
		'mailDeliverySignatureApi',
		'mailDeliveryClientCredentialsOAuth2Api',
		'mailDeliveryAuthCodeOAuth2Api',
	])
		assert.ok(types.includes(name), name);
});

test('each credential test passes with good secrets and fails clearly with bad ones', async () => {
	// n8n tests a stored credential: store each variant, then test it by id with its data.
	const check = async (type, data) => {
		const stored = await createCredential(stack.session, type, data);
		return await stack.session.rest('POST', '/credentials/test', {
			credentials: { id: stored.id, name: stored.name, type, data },
		});
	};
	for (const type of ['mailDeliverySignatureApi', 'mailDeliveryClientCredentialsOAuth2Api']) {
		const good = await check(type, credentialData(stack.emulator, type));
		assert.equal(good.status, 'OK', `${type}: ${JSON.stringify(good)}`);
		const bad = await check(type, {
			...credentialData(stack.emulator, type),
			apiSecret: 'wrong-secret',
		});
		assert.equal(bad.status, 'Error', `${type}: ${JSON.stringify(bad)}`);
		// n8n 2.x shows this package's rule message; 1.123 its own "Authorization failed" text.
		assert.match(bad.message, /HTTP 401|Authorization failed|code 401/);
		assert.doesNotMatch(bad.message, /wrong-secret/);
	}
	const good = await check(
		'mailDeliveryAuthCodeOAuth2Api',
		credentialData(
			stack.emulator,
			'mailDeliveryAuthCodeOAuth2Api',
			await authorizationCode(stack.emulator),
		),
	);
	assert.equal(good.status, 'OK', JSON.stringify(good));
	const used = await check(
		'mailDeliveryAuthCodeOAuth2Api',
		credentialData(stack.emulator, 'mailDeliveryAuthCodeOAuth2Api', 'not-a-valid-code'),
	);
	assert.equal(used.status, 'Error');
	assert.match(used.message, /authorization code was not accepted/i);
});

test('action workflows reach the emulator for every resource', async () => {
	const rl = (value) => ({ __rl: true, mode: 'name', value });
	const cases = [
		[
			{
				resource: 'campaign',
				operation: 'create',
				mailName: `e2e-${line}`,
				senderMail: rl('news@example.com'),
				sendLists: { list: [{ listName: rl('newsletter') }] },
				subject: 'Hi',
			},
			(items) => items[0].guid,
		],
		[
			{ resource: 'template', operation: 'getMany', returnAll: true },
			(items) => items.some((t) => t.templateName === 'welcome'),
		],
		[
			{ resource: 'contact', operation: 'upsert', email: `e2e-${line}@example.org` },
			(items) => items[0].success === true,
		],
		[
			{ resource: 'contactList', operation: 'getMany', returnAll: true },
			(items) => items.some((l) => l.listName === 'newsletter'),
		],
		[
			{ resource: 'verifiedSender', operation: 'getMany', returnAll: true },
			(items) => items.some((s) => s.fromDomain === 'sender@example.com'),
		],
		[{ resource: 'webhook', operation: 'get' }, (items) => 'transEnable' in items[0]],
	];
	for (const [parameters, check] of cases) {
		const { status, data } = await runAction(stack, {
			name: `e2e ${parameters.resource}`,
			parameters,
			credential: signature(),
		});
		assert.equal(status, 200, `${parameters.resource}: ${JSON.stringify(data).slice(0, 300)}`);
		assert.ok(
			check(Array.isArray(data) ? data : [data]),
			`${parameters.resource}: ${JSON.stringify(data).slice(0, 300)}`,
		);
	}
});

test('a combined send of 250 items takes 3 requests', async () => {
	const before = (await stack.emulator.control('GET', 'requests')).requests.length;
	const people = Array.from({ length: 250 }, (_, i) => ({
		email: `p${i}@example.org`,
		name: `P${i}`,
	}));
	const parameters = {
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
		to: '={{ $json.email }}',
		contentSource: 'template',
		templateName: { __rl: true, mode: 'name', value: 'welcome' },
		tagValuesMode: 'json',
		params: '={{ JSON.stringify({ name: $json.name }) }}',
	};
	const { status, data } = await runAction(
		stack,
		{ name: 'e2e combined send', parameters, credential: signature(), splitField: 'body.people' },
		{ people },
	);
	assert.equal(status, 200, JSON.stringify(data).slice(0, 300));
	assert.equal(data.length, 250);
	const requests = (await stack.emulator.control('GET', 'requests')).requests
		.slice(before)
		.filter((r) => r.path === '/v5/transactional/mail/sends_customised');
	// Requests go out several at once, so the platform may record the short one first.
	assert.deepEqual(
		requests.map((r) => r.body.messageVersions.length).sort((a, b) => b - a),
		[100, 100, 50],
	);
	// The day's transactional report counts them.
	const today = new Date().toISOString().slice(0, 10);
	const stats = await runAction(stack, {
		name: 'e2e stats',
		parameters: {
			resource: 'transactionalMail',
			operation: 'getStats',
			startDate: today,
			endDate: today,
		},
		credential: signature(),
	});
	const rows = Array.isArray(stats.data) ? stats.data : [stats.data];
	assert.ok(
		rows.some((row) => row.statsDate === today && row.sentCount >= 250),
		JSON.stringify(stats.data).slice(0, 300),
	);
});

test("platform tags in pasted fields reach the platform, beside n8n's expressions evaluated by this n8n's engine", async () => {
	const before = (await stack.emulator.control('GET', 'requests')).requests.length;
	const parameters = {
		resource: 'transactionalMail',
		operation: 'send',
		senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
		to: '={{ $json.body.email }}',
		contentSource: 'html',
		// As n8n stores a paste holding {{: an expression.
		subject: '=Order {{orderId}} for {{ $json.body.name }}',
		content: '=<p>Hi {{ firstName }}, your order {{orderId}} is on its way.</p>',
		tagValuesMode: 'json',
		params: '={{ JSON.stringify({ orderId: $json.body.orderId, firstName: $json.body.name }) }}',
	};
	const { status, data } = await runAction(
		stack,
		{ name: 'e2e platform tags', parameters, credential: signature() },
		{ email: 'ada@example.org', name: 'Ada', orderId: 'A-1' },
	);
	assert.equal(status, 200, JSON.stringify(data).slice(0, 300));
	const [request] = (await stack.emulator.control('GET', 'requests')).requests
		.slice(before)
		.filter((r) => r.path === '/v5/transactional/mail/sends_customised');
	const version = request.body.messageVersions[0];
	assert.equal(request.body.subject ?? version.subject, 'Order {{orderId}} for Ada');
	assert.equal(
		request.body.content ?? version.content,
		'<p>Hi {{firstName}}, your order {{orderId}} is on its way.</p>',
	);
});

test("fields read by dragged references reach the platform as this n8n's engine evaluates them", async () => {
	// The Mail Delivery node may read such references from the item without n8n's engine; n8n's Edit Fields
	// evaluates the same references, with this line's default engine, beside it.
	const subject = 'Hi {{ $json["first name"] }}, order {{orderId}} ({{ $json.order.id }})';
	const before = (await stack.emulator.control('GET', 'requests')).requests.length;
	const { status, data } = await runAction(
		stack,
		{
			name: 'e2e item references',
			credential: signature(),
			splitField: 'body.items',
			setFields: {
				n8nTo: '={{ $json.email }}',
				// The tag {{orderId}} is written as text n8n cannot take for a block.
				n8nSubject: `=${subject.replace('{{orderId}}', '{{ "{" + "{orderId}" + "}" }}')}`,
				n8nCity: '={{ $json.customer.city }}',
			},
			parameters: {
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
				to: '={{ $json.email }}',
				contentSource: 'html',
				subject: `=${subject}`,
				content: '=<p>{{ $json.customer.city }}</p>',
				tagValuesMode: 'fields',
				tagValues: {
					values: [
						{
							name: { __rl: true, mode: 'name', value: 'city' },
							value: '={{ $json.customer.city }}',
						},
					],
				},
				// The subject's tag {{orderId}} goes out as the platform's, without a value: not what this checks.
				options: { includeInputFields: true, missingTagValues: 'send' },
			},
		},
		{
			items: [
				{
					email: 'ada@example.org',
					'first name': 'Ada',
					order: { id: 1001 },
					customer: { city: 'Zürich' },
				},
				{
					email: 'grace@example.org',
					'first name': 'Grâce ✓ 日本',
					order: { id: 0.30000000000000004 },
					customer: { city: '' },
				},
				{
					email: 'alan@example.org',
					'first name': '=Alan',
					order: { id: 1e21 },
					customer: { city: 'Wilmslow' },
				},
			],
		},
	);
	assert.equal(status, 200, JSON.stringify(data).slice(0, 300));
	const [request] = (await stack.emulator.control('GET', 'requests')).requests
		.slice(before)
		.filter((r) => r.path === '/v5/transactional/mail/sends_customised');
	const reached = request.body.messageVersions.map((version) => ({
		to: version.to.map((recipient) => recipient.email).join(', '),
		subject: version.subject ?? request.body.subject,
		content: version.content ?? request.body.content,
		city: version.params?.city,
	}));
	const evaluated = data.map((item) => ({
		to: item.n8nTo,
		subject: item.n8nSubject,
		content: `<p>${item.n8nCity}</p>`,
		city: item.n8nCity,
	}));
	assert.deepEqual(reached, evaluated);
	assert.equal(evaluated[1].subject, 'Hi Grâce ✓ 日本, order {{orderId}} (0.30000000000000004)');
});

test('a sandbox operation leaves the emulator unchanged', async () => {
	const state = async () => {
		const { now, ...rest } = await stack.emulator.control('GET', 'state');
		return JSON.stringify(rest);
	};
	const before = await state();
	const { status, data } = await runAction(stack, {
		name: 'e2e sandbox',
		parameters: {
			resource: 'contactList',
			operation: 'create',
			listName: 'sandboxed',
			sandboxMode: true,
		},
		credential: signature(),
	});
	assert.equal(status, 200);
	assert.equal(data.sandboxMode ?? data[0]?.sandboxMode, true);
	assert.equal(await state(), before);
});

test('the client-credentials token is fetched once across executions, and again after it expires', async () => {
	const credential = credentials.mailDeliveryClientCredentialsOAuth2Api;
	const grants = async () => (await stack.emulator.control('GET', 'state')).tokenRequests;
	const startGrants = await grants();
	for (let run = 0; run < 4; run++) {
		const { status } = await runAction(stack, {
			name: `e2e oauth ${run}`,
			parameters: { resource: 'webhook', operation: 'get' },
			credential,
		});
		assert.equal(status, 200);
	}
	assert.equal(await grants(), startGrants + 1);
	await stack.emulator.control('POST', 'clock', { advanceSeconds: 2 * 3600 + 60 });
	const { status, data } = await runAction(stack, {
		name: 'e2e oauth expired',
		parameters: { resource: 'webhook', operation: 'get' },
		credential,
	});
	assert.equal(status, 200, JSON.stringify(data));
	assert.equal(await grants(), startGrants + 2);
	await stack.emulator.control('POST', 'clock', { advanceSeconds: -(2 * 3600 + 60) });
});

test('the authorization-code credential works in a workflow', async () => {
	const { status, data } = await runAction(stack, {
		name: 'e2e auth code',
		parameters: { resource: 'webhook', operation: 'get' },
		credential: credentials.mailDeliveryAuthCodeOAuth2Api,
	});
	assert.equal(status, 200, JSON.stringify(data));
});

test('the trigger registers on activation, turns pushes into executions, and restores the configuration on deactivation', async () => {
	const prior = {
		transCallbackUrl: 'https://someone-else.example/hook',
		transEvent: { bounced: true },
		transEnable: false,
	};
	await runAction(stack, {
		name: 'e2e prior config',
		parameters: {
			resource: 'webhook',
			operation: 'save',
			updateFields: {
				transCallbackUrl: prior.transCallbackUrl,
				transEvent: ['Bounced'],
				transEnable: false,
			},
		},
		credential: signature(),
	});
	const config = async () => {
		const { data } = await runAction(stack, {
			name: 'e2e read config',
			parameters: { resource: 'webhook', operation: 'get' },
			credential: signature(),
		});
		return Array.isArray(data) ? data[0] : data;
	};
	const before = await config();
	const id = await activate(
		stack.session,
		triggerWorkflow({ name: 'e2e trigger', credential: signature() }),
	);
	const registered = new RegExp(`^${stack.n8n.baseUrl}/webhook/.+/events\\?token=`);
	await eventually(
		async () => registered.test(String((await config()).transCallbackUrl)),
		'the trigger to register',
	);
	const recipients = [
		'ok@example.org',
		'bounce@example.org',
		'soft@example.org',
		'filtered@example.org',
	];
	const { status } = await runAction(stack, {
		name: 'e2e send for trigger',
		parameters: {
			resource: 'transactionalMail',
			operation: 'send',
			senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
			messageSource: 'definedHere',
			contentSource: 'html',
			content: '<p>x</p>',
			subject: 's',
			versionsMode: 'json',
			messageVersionsJson: JSON.stringify([{ to: recipients.map((email) => ({ email })) }]),
		},
		credential: signature(),
	});
	assert.equal(status, 200);
	await stack.emulator.control('POST', 'flush');
	let executions = [];
	for (let attempt = 0; attempt < 40; attempt++) {
		executions =
			(await stack.session.api('GET', `/executions?workflowId=${id}&includeData=true`)).data ?? [];
		if (executions.length > 0 && executions.every((e) => e.finished || e.status === 'success'))
			break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	assert.equal(executions.length, 1);
	const items = executions[0].data.resultData.runData['Mail Delivery Trigger'][0].data.main[0];
	assert.deepEqual(items.map((item) => item.json.Email).sort(), [...recipients].sort());
	assert.ok(items.every((item) => /^\d{19}$/.test(item.json.MailSeqId)));

	await stack.session.api('POST', `/workflows/${id}/deactivate`);
	await eventually(
		async () => JSON.stringify(await config()) === JSON.stringify(before),
		'the configuration to be restored',
	);
	assert.deepEqual(await config(), before);
});

test('two trigger workflows on one account: a second one on the same address is refused, one for chosen senders works beside it', async () => {
	const config = async () => {
		const { data } = await runAction(stack, {
			name: 'e2e read config',
			parameters: { resource: 'webhook', operation: 'get' },
			credential: signature(),
		});
		return Array.isArray(data) ? data[0] : data;
	};
	// The platform's own view (Webhook → Get masks the secret a push needs).
	const platform = async () => (await stack.emulator.control('GET', 'state')).webhook;
	const before = await config();
	const a = await activate(
		stack.session,
		triggerWorkflow({ name: 'e2e trigger A', credential: signature() }),
	);
	const registered = new RegExp(`^${stack.n8n.baseUrl}/webhook/.+/events\\?token=mdt1`);
	await eventually(
		async () => registered.test(String((await platform()).transCallbackUrl)),
		'trigger A to register',
	);
	const held = await platform();

	const refused = await activateExpectingRefusal(
		stack.session,
		triggerWorkflow({ name: 'e2e trigger B', credential: signature() }),
	);
	assert.match(refused.message, /default push address is used by workflow \\?"e2e trigger A\\?"/);
	assert.doesNotMatch(refused.message, /token=/);
	assert.deepEqual(await platform(), held);

	const c = await activate(
		stack.session,
		triggerWorkflow({
			name: 'e2e trigger C',
			credential: signature(),
			parameters: { registerFor: 'senders', senders: ['news@example.com'] },
		}),
	);
	await eventually(
		async () =>
			((await platform()).transCallbackUrlExtra ?? []).some(
				(entry) => entry.sender === 'news@example.com' && registered.test(entry.url),
			),
		'trigger C to register',
	);
	assert.equal((await platform()).transCallbackUrl, held.transCallbackUrl);

	// n8n answers an accepted push with the node's own small JSON body.
	const answer = await fetch(held.transCallbackUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify([
			{ EventCode: 'Delivered', Email: 'direct@example.org' },
			{ EventCode: 'Opened' },
		]),
	});
	assert.equal(answer.status, 200);
	assert.deepEqual(await answer.json(), { received: 2, kept: 2 });

	await stack.session.api('POST', `/workflows/${a}/deactivate`);
	await eventually(
		async () => (await config()).transCallbackUrl === before.transCallbackUrl,
		'trigger A to restore the default address',
	);
	await stack.session.api('POST', `/workflows/${c}/deactivate`);
	await eventually(
		async () => JSON.stringify(await config()) === JSON.stringify(before),
		'the configuration to be restored',
	);
	await stack.session.api('POST', `/workflows/${refused.id}/deactivate`).catch(() => undefined);
});
