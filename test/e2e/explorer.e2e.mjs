// A sample of the history explorer's histories (test/explorer, the same generator and seeds) played on a real n8n
// (line N8N_LINE) against the emulator: executions posted to a webhook, n8n killed (kill -9) or the execution stopped
// once the platform has received the node's n-th request, executions waiting in a Wait node and resumed by its URL,
// Retry through n8n's REST API with the original or the saved workflow, the node pasted again or renamed, Redo After
// a Crash turned on or off as the history's setup says, platform faults. Steps
// the real n8n cannot be held for (a pause at a store write, later runs up to the store's bound, the clock) are left
// to the in-process explorer. After each history: no recipient accepted twice unless Redo After a Crash was on in a
// retry of its execution, and every error says why.
// E2E_HISTORIES (default 2) and E2E_SEED (default: the day of the year) choose the sample.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';

import { sendParameters, startSendStack, stopStack } from './executions.mjs';

const require = createRequire(import.meta.url);
require('../../bench/register.js');
const fc = require('fast-check');
const { historyArbitrary } = require('../explorer/arbitraries.cts');

const line = process.env.N8N_LINE ?? '2';
const histories = Number(process.env.E2E_HISTORIES ?? 2);
const seed = Number(process.env.E2E_SEED ?? Math.floor(Date.now() / 86_400_000) % 366);
const PATH = { send: '/v5/transactional/mail/sends_customised', upsert: '/v5/contacts/upsert' };
let stack;
let credential;
let on;

before(async () => ({ stack, credential, on } = await startSendStack(line)));
after(async () => await stopStack(stack));

const upsertParameters = (options) => ({
	resource: 'contact',
	operation: 'upsert',
	email: '={{ $json.email }}',
	options,
});

/**
 * Webhook → Should Wait → (Waiting, until its URL is called, when the post says so) → People → Split Out → Mail
 * Delivery, set as the history's setup says.
 */
async function publish(name, setup) {
	const options = {
		parallelRequests: setup.parallel,
		timeoutSeconds: 5,
	};
	const parameters =
		setup.operation === 'upsert' ? upsertParameters(options) : sendParameters({ options });
	return await on.publishAnswering(name, parameters, credential, {
		path: PATH[setup.operation],
		shape: (workflow) => {
			const node = workflow.nodes.find((candidate) => candidate.name === 'Mail Delivery');
			if (setup.continueOnError) node.onError = 'continueErrorOutput';
			if (setup.retryOnFail > 1)
				Object.assign(node, {
					retryOnFail: true,
					maxTries: setup.retryOnFail,
					waitBetweenTries: 100,
				});
			if (setup.saveProgress) workflow.settings.saveExecutionProgress = true;
			// The Wait node passes on the resume request: the recipients come from the webhook again.
			workflow.nodes.push(
				{
					id: randomUUID(),
					name: 'Should Wait',
					type: 'n8n-nodes-base.if',
					typeVersion: 2,
					position: [250, 0],
					parameters: {
						conditions: {
							options: { caseSensitive: true, typeValidation: 'loose' },
							combinator: 'and',
							conditions: [
								{
									id: randomUUID(),
									leftValue: "={{ $('Webhook').first().json.body.waits }}",
									rightValue: true,
									operator: { type: 'boolean', operation: 'true', singleValue: true },
								},
							],
						},
						options: {},
					},
				},
				{
					id: randomUUID(),
					name: 'Waiting',
					type: 'n8n-nodes-base.wait',
					typeVersion: 1.1,
					position: [300, -100],
					webhookId: randomUUID(),
					parameters: { resume: 'webhook', options: {} },
				},
				{
					id: randomUUID(),
					name: 'People',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [350, 0],
					parameters: {
						mode: 'manual',
						assignments: {
							assignments: [
								{
									id: randomUUID(),
									name: 'people',
									value: "={{ $('Webhook').first().json.body.people }}",
									type: 'array',
								},
								{
									id: randomUUID(),
									name: 'resumeUrl',
									value: '={{ $execution.resumeUrl }}',
									type: 'string',
								},
							],
						},
						options: {},
					},
				},
			);
			workflow.nodes.find(
				(candidate) => candidate.name === 'Split Out',
			).parameters.fieldToSplitOut = 'people';
			const to = (...nodes) => ({
				main: nodes.map((next) => [{ node: next, type: 'main', index: 0 }]),
			});
			Object.assign(workflow.connections, {
				Webhook: to('Should Wait'),
				'Should Wait': to('Waiting', 'People'),
				Waiting: to('People'),
				People: to('Split Out'),
			});
		},
	});
}

/** Plays one history on real n8n; returns the steps it played and what it saw. */
async function play(setup, steps, index) {
	const name = `explorer ${seed}.${index}`;
	const { id, hookPath, requests } = await publish(name, setup);
	const executions = [];
	const lineageOf = new Map();
	const redoIn = new Set();
	// Redo After a Crash as the saved workflow has it, and as each execution's workflow had it.
	let redo = false;
	const redoOf = new Map();
	let starts = 0;
	let nodeName = 'Mail Delivery';
	const played = [];
	const saved = async (change) => {
		const workflow = await stack.session.api('GET', `/workflows/${id}`);
		change(workflow);
		await stack.session.api('PUT', `/workflows/${id}`, {
			name: workflow.name,
			nodes: workflow.nodes,
			connections: workflow.connections,
			settings: workflow.settings,
		});
	};
	const listed = async () =>
		(await stack.session.api('GET', `/executions?workflowId=${id}&includeData=true`)).data ?? [];
	const newest = async (known) =>
		await on.until(async () => {
			const found = (await listed()).filter((execution) => !known.includes(String(execution.id)));
			return found.length > 0 ? found[0] : false;
		}, 'the new execution');
	/** Waits for the execution to end, wait or crash, as the step's hold says: kill or stop at the n-th request. */
	const follow = async (execution, hold, before) => {
		if (hold && hold.then !== 'pause') {
			const index = hold.point.at === 'request' ? hold.point.index : 1;
			const reached = await on
				.until(
					async () => (await requests()) >= before + index || (await isEnded(execution)),
					'the hold',
				)
				.catch(() => false);
			if (reached && !(await isEnded(execution))) {
				if (hold.then === 'kill') await on.crashAndRestart();
				else
					await stack.session.rest('POST', `/executions/${execution}/stop`).catch(() => undefined);
			}
		}
		await on.until(async () => await isEnded(execution), 'the execution to end, wait or crash');
	};
	const isEnded = async (execution) => {
		const found = (await listed()).find((candidate) => String(candidate.id) === String(execution));
		return found && (found.stoppedAt || found.status === 'waiting') ? found : false;
	};
	for (const step of steps) {
		const of =
			step.of && executions.length > 0 ? executions[(step.of - 1) % executions.length] : undefined;
		const known = (await listed()).map((execution) => String(execution.id));
		const before = await requests();
		if (step.do === 'start') {
			const lineage = ++starts;
			await on.post(hookPath, {
				people: Array.from({ length: Math.min(setup.items, 250) }, (_, i) => ({
					email: `e${seed}x${index}l${lineage}-${i}@example.org`,
				})),
				waits: step.gateWaits === true || step.hold?.then === 'pause',
			});
			const execution = String((await newest(known)).id);
			executions.push(execution);
			lineageOf.set(execution, lineage);
			redoOf.set(execution, redo);
			await follow(execution, step.hold, before);
		} else if (step.do === 'retry' && of) {
			// n8n answers a Retry when the retry ends: a hold kills or stops it meanwhile.
			const answering = stack.session
				.rest('POST', `/executions/${of}/retry`, { loadWorkflow: step.savedWorkflow })
				.catch((error) => ({ refused: error.message }));
			const started = await Promise.race([
				answering,
				on.until(async () => (await listed()).length > known.length, 'the retry'),
			]);
			if (started?.refused) continue;
			const execution = String((await newest(known)).id);
			executions.push(execution);
			lineageOf.set(execution, lineageOf.get(of));
			redoOf.set(execution, step.savedWorkflow ? redo : redoOf.get(of));
			if (redoOf.get(execution)) redoIn.add(lineageOf.get(of));
			await follow(execution, step.hold, before);
			await answering;
		} else if ((step.do === 'resume' || step.do === 'release') && of) {
			const waiting = await isEnded(of);
			if (waiting?.status !== 'waiting') continue;
			const url = waiting.data.resultData.runData.People?.[0]?.data.main[0][0]?.json.resumeUrl;
			if (!url) continue;
			await (await fetch(url)).text();
			await on.until(async () => (await isEnded(of))?.status !== 'waiting', 'the wait to end');
			await follow(of, step.hold, before);
		} else if (step.do === 'fault') {
			await stack.emulator.control('POST', 'fault', {
				path: PATH[setup.operation],
				fault: step.fault === 'hang' ? 'internalError' : step.fault,
				skip: step.skip,
			});
		} else if (step.do === 'recreateNode') {
			await saved(
				(workflow) => (workflow.nodes.find((node) => node.name === nodeName).id = randomUUID()),
			);
		} else if (step.do === 'renameNode') {
			const to = `${nodeName} renamed`;
			await saved((workflow) => {
				workflow.nodes.find((node) => node.name === nodeName).name = to;
				workflow.connections['Split Out'].main[0][0].node = to;
			});
			nodeName = to;
		} else if (step.do === 'redoAfterACrash') {
			redo = step.on;
			await saved((workflow) => {
				const node = workflow.nodes.find((candidate) => candidate.name === nodeName);
				node.parameters.options = { ...node.parameters.options, repeatOnRetry: step.on };
			});
		} else continue;
		played.push({ ...step, ...(of ? { of: executions.indexOf(of) + 1 } : {}) });
	}
	await stack.session.api('POST', `/workflows/${id}/deactivate`);
	return { played, redoIn, executions: await listed() };
}

/** How many times the platform accepted each recipient of this history. */
async function acceptedCounts(prefix, operation) {
	const counts = new Map();
	const count = (email) => counts.set(email, (counts.get(email) ?? 0) + 1);
	if (operation === 'upsert') {
		for (const request of (await stack.emulator.control('GET', 'requests')).requests)
			if (
				request.path === PATH.upsert &&
				[200, 500].includes(request.code) &&
				request.body.email.startsWith(prefix)
			)
				count(request.body.email);
	} else
		for (const mail of (await stack.emulator.control('GET', 'mails')).mails)
			if (mail.email.startsWith(prefix)) count(mail.email);
	return counts;
}

/** Steps real n8n plays (the others need the in-process n8n's hold points or clock). */
const PLAYABLE = new Set([
	'start',
	'retry',
	'resume',
	'release',
	'fault',
	'recreateNode',
	'renameNode',
	'redoAfterACrash',
]);
const playable = (steps) => steps.filter((step) => PLAYABLE.has(step.do)).slice(0, 6);
/** A start that may leave its execution unfinished or failed: held, waiting, or after a fault was planned. */
const unfinished = (steps, index) =>
	steps[index].do === 'start' &&
	(steps[index].hold !== undefined ||
		steps[index].gateWaits === true ||
		steps.slice(0, index).some((step) => step.do === 'fault'));
// The generator's histories, in order, that retry after such a start (n8n refuses to retry a finished execution).
const sample = fc
	.sample(historyArbitrary, { seed, numRuns: 1000 })
	.map(([setup, steps]) => [setup, playable(steps)])
	.filter(
		([setup, steps]) =>
			setup.operation !== 'sendAndWait' &&
			steps.some(
				(step, index) =>
					unfinished(steps, index) && steps.slice(index).some((later) => later.do === 'retry'),
			),
	)
	.slice(0, histories);

for (const [index, [setup, steps]] of sample.entries()) {
	test(`explorer history ${index + 1} of seed ${seed} in real n8n: no recipient twice, every error says why`, async () => {
		const { played, redoIn, executions } = await play(setup, steps, index);
		console.log(`  ${JSON.stringify(setup)}\n  ${JSON.stringify(played)}`);
		console.log(
			`  executions: ${executions.map((execution) => `${execution.id} ${execution.mode} ${execution.status}`).join('; ')}`,
		);
		for (const [email, count] of await acceptedCounts(`e${seed}x${index}l`, setup.operation)) {
			const lineage = Number(/l(\d+)-/.exec(email)[1]);
			assert.ok(count === 1 || redoIn.has(lineage), `${email} accepted ${count} times`);
		}
		for (const execution of executions) {
			const error = execution.data?.resultData?.error;
			if (!error || execution.status === 'crashed') continue;
			assert.ok(error.message, JSON.stringify(error));
			if (/^Not sent: /.test(error.message)) assert.ok(error.description, error.message);
		}
	});
}
