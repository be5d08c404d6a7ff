import { MailDeliverySignatureApi } from '../../credentials/MailDeliverySignatureApi.credentials';
import { computeSignature, formatApiTimestamp, signatureHeaders } from '../../credentials/common';

describe('signature v1.0', () => {
	test.each([
		['s3cr3t-KEY', '2026-01-01T00:00:00Z', '480F338B4DD3A4B5541FDA121F9CA643CEDD6E6B'],
		['abc', '2026-11-20T12:34:56Z', '9FEA541F9C3481B1C7B3DD90A15FAA6A3F0F64CA'],
	])('secret %s at %s signs as %s', (secret, timestamp, expected) => {
		expect(computeSignature(secret, timestamp)).toBe(expected);
	});

	test('timestamps use the UTC second format YYYY-MM-DDThh:mm:ssZ', () => {
		expect(formatApiTimestamp(new Date('2026-03-04T05:06:07.891Z'))).toBe('2026-03-04T05:06:07Z');
	});

	test('headers carry ApiKey, Timestamp, Authorization and SignatureVersion 1.0', () => {
		const headers = signatureHeaders('key-1', 'abc', new Date('2026-11-20T12:34:56.400Z'));
		expect(headers).toEqual({
			ApiKey: 'key-1',
			Timestamp: '2026-11-20T12:34:56Z',
			Authorization: '9FEA541F9C3481B1C7B3DD90A15FAA6A3F0F64CA',
			SignatureVersion: '1.0',
		});
	});

	test('authenticate makes a fresh timestamp for every request, never a stale one', async () => {
		jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
		try {
			const credential = new MailDeliverySignatureApi();
			const credentials = { baseUrl: 'http://127.0.0.1:1/', apiKey: 'k', apiSecret: 's3cr3t-KEY' };
			const first = await credential.authenticate(credentials, { url: '/v5/webhook/get' });
			jest.setSystemTime(new Date('2026-01-01T00:10:00Z'));
			const second = await credential.authenticate(credentials, { url: '/v5/webhook/get' });
			expect(first.headers).toMatchObject({
				Timestamp: '2026-01-01T00:00:00Z',
				Authorization: '480F338B4DD3A4B5541FDA121F9CA643CEDD6E6B',
			});
			expect(second.headers).toMatchObject({ Timestamp: '2026-01-01T00:10:00Z' });
			expect(second.baseURL).toBe('http://127.0.0.1:1');
			expect(JSON.stringify(second)).not.toContain('s3cr3t-KEY');
		} finally {
			jest.useRealTimers();
		}
	});
});
