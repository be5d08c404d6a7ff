/** Verified senders (API 4.5): get, add, verify (against the DNS answers of /__control/dns), delete. */
import { lower } from '../state.cts';
import { fail } from '../types.cts';
import { EMAIL, ok, sandboxed, type Operation } from './common.cts';

export const verifiedSender: Record<string, Operation> = {
	'/v5/verified_senders/get': {
		schema: { fields: { senderEmail: 'string' }, required: [], sandbox: false },
		handle: ({ state }, b) => {
			const all = [...state.senders.values()];
			return ok({
				mailFromDomains: b.senderEmail
					? all.filter((s) => s.fromDomain === lower(b.senderEmail))
					: all,
			});
		},
	},
	'/v5/verified_senders/add': {
		schema: {
			fields: { senderEmail: 'string', senderType: 'intOrString', sandboxMode: 'boolean' },
			required: ['senderEmail', 'senderType'],
			sandbox: true,
		},
		handle: ({ state }, b, sandbox) => {
			const email = lower(b.senderEmail);
			const domain = email.includes('@') ? email.split('@')[1] : email;
			if (!EMAIL.test(email) || !domain.includes('.'))
				fail(
					400,
					'发件人地址错误',
					'senderEmail must be an address whose domain is not a top-level domain',
				);
			if (!['1', '2'].includes(String(b.senderType)))
				fail(400, '发件人类型错误', 'senderType must be 1 or 2');
			if (state.senders.has(email)) fail(400, '发件人已存在', 'this sender exists');
			if (sandbox) return sandboxed();
			state.senders.set(email, {
				fromDomain: email,
				mxStatus: 0,
				spfStatus: 0,
				dkimStatus: 0,
				dmarcStatus: 0,
				isValidate: 0,
				isServiceDomain: 0,
				senderType: Number(b.senderType),
			});
			return ok();
		},
	},
	'/v5/verified_senders/verify': {
		schema: {
			fields: { fromDomain: 'string', selector: 'string' },
			required: ['fromDomain', 'selector'],
			sandbox: false,
		},
		handle: ({ state }, b) => {
			const target = lower(b.fromDomain);
			const domain = target.includes('@') ? target.split('@')[1] : target;
			const senders = [...state.senders.values()].filter(
				(s) => s.fromDomain === target || s.fromDomain.split('@')[1] === domain,
			);
			if (senders.length === 0) fail(403, '发件人不存在', `no sender for ${b.fromDomain}`);
			const dns = state.dns.get(domain) ?? {
				mx: false,
				spf: false,
				dmarc: false,
				dkimSelectors: [],
			};
			const result = {
				goodMX: dns.mx,
				goodSPF: dns.spf,
				goodDKIM: dns.dkimSelectors.includes(b.selector),
				goodDMARC: dns.dmarc,
			};
			const valid = result.goodMX && result.goodSPF && result.goodDKIM && result.goodDMARC;
			for (const s of senders) {
				Object.assign(s, {
					mxStatus: +result.goodMX,
					spfStatus: +result.goodSPF,
					dkimStatus: +result.goodDKIM,
					dmarcStatus: +result.goodDMARC,
					isValidate: +valid,
				});
			}
			return ok({ valid, ...result });
		},
	},
	'/v5/verified_senders/delete': {
		schema: {
			fields: { senderEmail: 'string', sandboxMode: 'boolean' },
			required: ['senderEmail'],
			sandbox: true,
		},
		handle: ({ state }, b, sandbox) => {
			if (!state.senders.has(lower(b.senderEmail)))
				fail(403, '发件人不存在', `no sender ${b.senderEmail}`);
			if (sandbox) return sandboxed();
			state.senders.delete(lower(b.senderEmail));
			return ok();
		},
	},
};
