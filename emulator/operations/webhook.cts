/** Webhook configuration (API 4.7): get and save; pushes follow it (see pushes.cts). */
import { lower } from '../state.cts';
import { EVENT_SWITCHES, fail } from '../types.cts';
import { HTTP_URL, ok, type Operation } from './common.cts';

/** The seven transEvent switches, from the one event-switch map. */
const SWITCHES = Object.values(EVENT_SWITCHES);

export const webhook: Record<string, Operation> = {
	'/v5/webhook/get': {
		schema: { fields: {}, required: [], sandbox: false },
		handle: ({ state }) => ok({ ...state.webhook }),
	},
	'/v5/webhook/save': {
		schema: {
			fields: {
				transEvent: 'object',
				transCallbackUrl: 'string',
				transCallbackUrlExtra: 'object[]',
				transCallbackUrlExtraUpdateMode: 'string',
				transEnable: 'boolean',
			},
			required: [],
			sandbox: false,
		},
		handle: ({ state }, sent) => {
			// "Only fields that are sent are saved": a field sent as null is saved as null (nothing configured),
			// unless the emulator plays a platform that refuses null, or one that ignores it.
			if (state.webhookNull === 'refuse' && Object.values(sent).some((value) => value === null))
				fail(400, '参数不能为空', 'a field is null');
			const b =
				state.webhookNull === 'ignore'
					? Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== null))
					: sent;
			if (
				b.transCallbackUrl !== undefined &&
				b.transCallbackUrl !== null &&
				!HTTP_URL.test(b.transCallbackUrl)
			)
				fail(400, '回调地址格式错误', 'transCallbackUrl must start with http:// or https://');
			for (const [key, value] of Object.entries(b.transEvent ?? {})) {
				if (!SWITCHES.includes(key))
					fail(400, `未知事件类型: ${key}`, `transEvent has no kind ${key}`);
				if (typeof value !== 'boolean')
					fail(400, '事件开关必须是布尔值', `transEvent.${key} must be true or false`);
			}
			for (const entry of b.transCallbackUrlExtra ?? []) {
				if (typeof entry.sender !== 'string' || !entry.sender)
					fail(400, '缺少发件人', 'transCallbackUrlExtra.sender is required');
				if (typeof entry.url !== 'string' || !HTTP_URL.test(entry.url))
					fail(
						400,
						'回调地址格式错误',
						'transCallbackUrlExtra.url must start with http:// or https://',
					);
			}
			const mode = b.transCallbackUrlExtraUpdateMode ?? 'save';
			if (!['save', 'replace'].includes(mode))
				fail(400, '更新模式错误', 'transCallbackUrlExtraUpdateMode must be save or replace');
			const config = state.webhook;
			// A platform whose column is shorter than the address cuts it without a word (off by default).
			const kept = (url: string) =>
				state.webhookUrlMaxLength > 0 ? url.slice(0, state.webhookUrlMaxLength) : url;
			if (b.transEvent === null) config.transEvent = null;
			else if (b.transEvent !== undefined) {
				const base = config.transEvent ?? Object.fromEntries(SWITCHES.map((k) => [k, false]));
				config.transEvent = { ...base, ...b.transEvent };
			}
			if (b.transCallbackUrl !== undefined)
				config.transCallbackUrl = b.transCallbackUrl === null ? null : kept(b.transCallbackUrl);
			if (b.transEnable !== undefined) config.transEnable = b.transEnable;
			if (b.transCallbackUrlExtra === null) config.transCallbackUrlExtra = null;
			else if (b.transCallbackUrlExtra !== undefined) {
				const incoming = (b.transCallbackUrlExtra as Array<{ sender: string; url: string }>).map(
					(e) => ({ sender: e.sender, url: kept(e.url) }),
				);
				if (mode === 'replace') config.transCallbackUrlExtra = incoming;
				else {
					const merged = [...(config.transCallbackUrlExtra ?? [])];
					for (const entry of incoming) {
						const existing = merged.findIndex((e) => lower(e.sender) === lower(entry.sender));
						if (existing === -1) merged.push(entry);
						else merged[existing] = entry;
					}
					config.transCallbackUrlExtra = merged;
				}
			}
			return ok();
		},
	},
};
