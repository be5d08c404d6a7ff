// What the end-to-end suites do around executions of a real n8n (test/e2e/env.mjs starts it): publish a workflow
// whose webhook answers at once, post to it, wait for an execution to finish or to be marked crashed, kill n8n as a
// crash would (kill -9, its task runner too) and start it again on the same user folder, and count what the
// emulator accepted. Every wait has a deadline far beyond a loaded machine's (n8n's own start is the longest).
import { execSync } from 'node:child_process';

import { setupOwner, startN8n } from '../../scripts/n8n-runtime.mjs';
import {
	actionWorkflow,
	activate,
	createCredential,
	credentialData,
	eventually,
	startStack,
} from './env.mjs';

export const TX = '/v5/transactional/mail/sends_customised';
export const rl = (value) => ({ __rl: true, mode: 'name', value });
/** A send of the seeded template to each item's email (its {{name}} goes out empty: these sends test faults). */
export const sendParameters = (extra = {}) => ({
	resource: 'transactionalMail',
	operation: 'send',
	senderMail: rl('sender@example.com'),
	to: '={{ $json.email }}',
	contentSource: 'template',
	templateName: rl('welcome'),
	...extra,
	options: { missingTagValues: 'send', ...extra.options },
});
export const people = (count, prefix) =>
	Array.from({ length: count }, (_, i) => ({ email: `${prefix}${i}@example.org` }));

/** Helpers bound to a stack (`stack.n8n` and `stack.session` change when n8n is started again). */
export function executionsOf(stack, line) {
	const requestsSince = async (from) =>
		(await stack.emulator.control('GET', 'requests')).requests.slice(from);
	return {
		requestsSince,
		/** How often the platform accepted a message for each address with this prefix. */
		async acceptedCounts(prefix) {
			const counts = new Map();
			for (const mail of (await stack.emulator.control('GET', 'mails')).mails)
				if (mail.email.startsWith(prefix))
					counts.set(mail.email, (counts.get(mail.email) ?? 0) + 1);
			return counts;
		},
		/** n8n killed as by a crash (its task runner too), then started again on the same user folder and port. */
		async crashAndRestart(startOptions = {}) {
			const { pid } = stack.n8n;
			try {
				execSync(`pkill -9 -P ${pid}`);
			} catch {
				// no child process
			}
			const exited = new Promise((resolve) => stack.n8n.child.once('exit', resolve));
			process.kill(pid, 'SIGKILL');
			await exited;
			stack.n8n = await startN8n({
				editor: false,
				line,
				userFolder: stack.userFolder,
				port: Number(new URL(stack.n8n.baseUrl).port),
				...startOptions,
			});
			stack.session = await setupOwner(stack.n8n.baseUrl);
		},
		/**
		 * The execution of workflow `id` that `which` picks, once it has finished (or crashed); `timeoutMs` for one
		 * that runs long (a loop of a thousand runs of the node takes minutes on a busy machine).
		 */
		async finishedExecution(id, which, what, timeoutMs = 120_000) {
			return await eventually(
				async () => {
					const found = (
						await stack.session.api('GET', `/executions?workflowId=${id}&includeData=true`)
					).data?.find(which);
					return found?.stoppedAt ? found : false;
				},
				what,
				timeoutMs,
			);
		},
		/** At least `count` executions of workflow `id` ended (none running or waiting): all of them. */
		async finishedExecutions(id, count) {
			return await eventually(
				async () => {
					const found =
						(await stack.session.api('GET', `/executions?workflowId=${id}&includeData=true`))
							.data ?? [];
					return found.length >= count && found.every((execution) => execution.stoppedAt)
						? found
						: false;
				},
				`${count} executions to end`,
				120_000,
			);
		},
		/** The running execution of workflow `id`, as the editor's executions list shows it. */
		async runningExecution(id) {
			return await eventually(
				async () => {
					const filter = encodeURIComponent(
						JSON.stringify({ workflowId: id, status: ['running'] }),
					);
					const { results = [] } = await stack.session.rest('GET', `/executions?filter=${filter}`);
					return results[0] ?? false;
				},
				'the running execution',
				120_000,
			);
		},
		until: async (check, what) => await eventually(check, what, 120_000),
		/** The crashed execution of workflow `id`, once n8n marked it so after its restart. */
		async crashedExecution(id) {
			const [crashed] = await eventually(
				async () => {
					const found =
						(await stack.session.api('GET', `/executions?workflowId=${id}`)).data?.filter(
							(execution) => ['crashed', 'error'].includes(execution.status),
						) ?? [];
					return found.length > 0 ? found : false;
				},
				'n8n to mark the execution crashed',
				120_000,
			);
			return crashed;
		},
		/**
		 * Publishes Webhook (answering at once: a test kills or stops n8n while the node runs) → Split Out of
		 * body.people → Mail Delivery, changed by `shape` before it is published; returns the workflow's id, its webhook
		 * path, the workflow and a count of the node's requests to `path` since.
		 */
		async publishAnswering(name, parameters, credential, { path = TX, shape = () => {} } = {}) {
			const { workflow, hookPath } = actionWorkflow({
				name,
				parameters,
				credential,
				splitField: 'body.people',
			});
			workflow.nodes.find((node) => node.name === 'Webhook').parameters.responseMode = 'onReceived';
			shape(workflow);
			const from = (await stack.emulator.control('GET', 'requests')).requests.length;
			const id = await activate(stack.session, workflow);
			const requests = async () =>
				(await requestsSince(from)).filter((r) => r.path === path).length;
			return { id, hookPath, workflow, requests };
		},
		/** Posts a body to a published workflow's webhook, once n8n serves it. */
		async post(hookPath, body) {
			await eventually(
				async () => {
					const answer = await fetch(`${stack.n8n.baseUrl}/webhook/${hookPath}`, {
						method: 'POST',
						headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify(body),
					});
					await answer.text();
					return answer.status === 200;
				},
				'the webhook to take the push',
				120_000,
			);
		},
	};
}

/** A real n8n of the line and the emulator, with a signature credential and the executions helper over them. */
export async function startSendStack(line) {
	const stack = await startStack(line);
	try {
		const credential = await createCredential(
			stack.session,
			'mailDeliverySignatureApi',
			credentialData(stack.emulator, 'mailDeliverySignatureApi'),
		);
		return { stack, credential, on: executionsOf(stack, line) };
	} catch (error) {
		await stopStack(stack);
		throw error;
	}
}

export async function stopStack(stack) {
	await stack?.n8n.stop();
	await stack?.emulator.stop();
}
