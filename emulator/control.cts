/**
 * The control interface under /__control (README, "Control interface"): everything a test, the demo or
 * a script needs to drive the emulator over HTTP. It works on the parts it is given, not on the server.
 */
import type { Account, Auth } from './auth.cts';
import type { Delivery } from './delivery.cts';
import type { Network, NetworkSettings } from './network.cts';
import type { PushDispatcher } from './pushes.cts';
import { stateSnapshot, type State } from './state.cts';
import type { Fault, RequestRecord } from './types.cts';

export interface AnswerSettings {
	/** Messages in Chinese as the platform sends them, or in English. */
	messages: 'zh' | 'en';
	/** Business errors: HTTP 200 with the code in the body, or the HTTP status mirroring it. */
	errorHttpStatus: 'ok' | 'mirror';
}

/** What the control interface reads and drives; the emulator's parts as they are now (a reset replaces some). */
export interface Controlled {
	readonly state: State;
	readonly delivery: Delivery;
	readonly auth: Auth;
	readonly network: Network;
	readonly pushes: PushDispatcher;
	readonly settings: AnswerSettings;
	readonly account: Account;
	readonly requests: readonly RequestRecord[];
	readonly url: string;
	readonly redirectUri: string;
	reset(): void;
}

/** Answers one control request: [HTTP status, JSON body]. */
export async function control(
	target: Controlled,
	url: URL,
	raw: string,
	method: string,
): Promise<[number, unknown]> {
	const input = raw ? (JSON.parse(raw) as Record<string, any>) : {};
	const { state, delivery, pushes, network } = target;
	switch (`${method} ${url.pathname}`) {
		case 'POST /__control/reset':
			target.reset();
			return [200, { ok: true }];
		case 'GET /__control/state':
			return [200, stateSnapshot(state, target.auth.tokenRequests)];
		case 'GET /__control/account':
			return [200, { ...target.account, redirectUri: target.redirectUri, baseUrl: target.url }];
		case 'POST /__control/clock':
			if (typeof input.advanceSeconds === 'number')
				state.clockOffsetMs += input.advanceSeconds * 1000;
			if (typeof input.set === 'string') state.clockOffsetMs = Date.parse(input.set) - Date.now();
			delivery.processDue();
			return [200, { now: new Date(state.now()).toISOString() }];
		case 'POST /__control/events':
			try {
				return [
					200,
					delivery.causeEvent(String(input.kind), String(input.email), input.extra ?? {}),
				];
			} catch (error) {
				return [400, { error: (error as Error).message }];
			}
		case 'POST /__control/flush': {
			delivery.processDue();
			const before = pushes.pushes.length;
			await pushes.flush();
			return [200, { pushes: pushes.pushes.slice(before).map(({ body: _body, ...rest }) => rest) }];
		}
		case 'GET /__control/pushes':
			return [
				200,
				{
					pushes: pushes.pushes.map(({ body, ...rest }) =>
						url.searchParams.get('bodies') === '1' ? { ...rest, body } : rest,
					),
					discarded: pushes.discarded,
					pending: pushes.pending,
				},
			];
		case 'GET /__control/requests':
			return [
				200,
				{
					requests: target.requests,
					throttled: network.throttled,
					peakUnderWay: network.peakUnderWay,
					lateAnswers: network.lateAnswers,
					arrivals: network.arrivals,
					connections: network.connections,
				},
			];
		case 'GET /__control/mails':
			return [200, { mails: state.mails }];
		case 'POST /__control/settings':
			if (input.autoPush !== undefined) pushes.autoPush = Boolean(input.autoPush);
			if (input.pushRetries !== undefined) pushes.retries = Number(input.pushRetries);
			if (input.retryDelayMs !== undefined) pushes.retryDelayMs = Number(input.retryDelayMs);
			if (input.pushTimeoutMs !== undefined) pushes.answerTimeoutMs = Number(input.pushTimeoutMs);
			if (input.messages !== undefined) target.settings.messages = input.messages;
			if (input.errorHttpStatus !== undefined)
				target.settings.errorHttpStatus = input.errorHttpStatus;
			if (input.credits !== undefined) state.credits = Number(input.credits);
			if (input.pageSizeCap !== undefined) state.pageSizeCap = Number(input.pageSizeCap);
			if (input.clickTrackingByDefault !== undefined)
				state.clickTrackingByDefault = Boolean(input.clickTrackingByDefault);
			for (const key of Object.keys(network.settings) as Array<keyof NetworkSettings>) {
				if (input[key] !== undefined) network.settings[key] = Number(input[key]);
			}
			if (input.refusedValues !== undefined)
				state.refusedValues = input.refusedValues as Record<string, unknown[]>;
			if (input.duplicateMailNames !== undefined)
				state.duplicateMailNames = input.duplicateMailNames === 'accept' ? 'accept' : 'refuse';
			if (input.webhookNull !== undefined)
				state.webhookNull = ['refuse', 'ignore'].includes(input.webhookNull)
					? input.webhookNull
					: 'accept';
			if (input.webhookUrlMaxLength !== undefined)
				state.webhookUrlMaxLength = Number(input.webhookUrlMaxLength);
			return [200, { ok: true }];
		case 'POST /__control/webhook':
			// The configuration as the platform's own console (or an older, laxer API) saved it: unchecked,
			// so values webhook/save now refuses ("", a leading space) can be there before a trigger comes.
			state.webhook = {
				transEvent: input.transEvent ?? null,
				transCallbackUrl: input.transCallbackUrl ?? null,
				transCallbackUrlExtra: input.transCallbackUrlExtra ?? null,
				transEnable: input.transEnable ?? null,
			};
			return [200, { ok: true }];
		case 'POST /__control/fault':
			network.faults.push({
				path: String(input.path),
				fault: input.fault as Fault,
				skip: Number(input.skip ?? 0),
			});
			return [200, { ok: true }];
		case 'DELETE /__control/faults':
			// Faults planned and not yet played are dropped (a suite's test starts from none).
			network.faults.length = 0;
			return [200, { ok: true }];
		case 'POST /__control/dns':
			state.dns.set(String(input.domain), {
				mx: !!input.mx,
				spf: !!input.spf,
				dmarc: !!input.dmarc,
				dkimSelectors: input.dkimSelectors ?? [],
			});
			return [200, { ok: true }];
		default:
			return [404, { error: `no control operation ${method} ${url.pathname}` }];
	}
}
