import fc from 'fast-check';

import { enrichEvent, parsePush, quoteUnsafeIntegers } from '../../nodes/MailDeliveryTrigger/events';

describe('push bodies', () => {
	test('MailSeqId above 2^53 keeps every digit, as a string', () => {
		const push = parsePush('[{"EventCode":"Delivered","MailSeqId":2505070900222412710,"Count":42}]');
		expect(push).toEqual({ ok: true, events: [{ EventCode: 'Delivered', MailSeqId: '2505070900222412710', Count: 42 }] });
		expect(String(JSON.parse('2505070900222412710'))).not.toBe('2505070900222412710');
	});

	test('integers a number holds exactly stay numbers; MailSeqId is always a string', () => {
		expect(parsePush('{"a":9007199254740992,"b":9007199254740993,"MailSeqId":12}')).toEqual({
			ok: true,
			events: [{ a: 9007199254740992, b: '9007199254740993', MailSeqId: '12' }],
		});
	});

	test('digits inside strings are never touched', () => {
		const text = '{"UA":"x:12345678901234567890,","n":12345678901234567890}';
		expect(JSON.parse(quoteUnsafeIntegers(text))).toEqual({ UA: 'x:12345678901234567890,', n: '12345678901234567890' });
		expect(JSON.parse(quoteUnsafeIntegers('{"s":"a\\"b 99999999999999999999"}'))).toEqual({ s: 'a"b 99999999999999999999' });
	});

	test('one event object alone is accepted', () => {
		expect(parsePush('{"EventCode":"Opened"}')).toEqual({ ok: true, events: [{ EventCode: 'Opened' }] });
	});

	test.each([
		['not json', 'The body is not valid JSON'],
		['"text"', 'The body must be a JSON array of event objects, or one event object'],
		['42', 'The body must be a JSON array of event objects, or one event object'],
		['null', 'The body must be a JSON array of event objects, or one event object'],
		['[{"EventCode":"Opened"}, 3]', 'Entry 1 of the body is not an event object'],
		['[[]]', 'Entry 0 of the body is not an event object'],
	])('%s is refused: %s', (body, problem) => {
		expect(parsePush(body)).toEqual({ ok: false, problem });
	});

	test('FailedCause is kept and decoded; ISO times added for the chosen zone', () => {
		const event = { EventCode: 'Bounced', FailedCause: Buffer.from('550 user unknown').toString('base64'), TriggeredDateTimeV2: '2026-05-01 10:00:00' };
		expect(enrichEvent(event, { decodeFailedCause: true, isoTimeZone: 'Asia/Shanghai' })).toEqual({
			...event,
			FailedCauseText: '550 user unknown',
			TriggeredDateTimeV2Iso: '2026-05-01T10:00:00+08:00',
		});
		expect(enrichEvent(event, { decodeFailedCause: false })).toBe(event);
	});
});

describe('fuzz: generated push bodies', () => {
	const scalar = fc.oneof(
		fc.string(),
		fc.integer(),
		fc.double({ noNaN: true, noDefaultInfinity: true }),
		fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((big) => ({ big })),
		fc.boolean(),
		fc.constant(null),
	);
	const event = fc.dictionary(fc.string({ maxLength: 12 }), scalar, { maxKeys: 6 });
	// Serializes like the platform: big integers as bare JSON integers.
	const write = (value: unknown): string =>
		JSON.stringify(value, (_key, v) => (v && typeof v === 'object' && 'big' in v ? `__BIG__${(v as { big: bigint }).big}__` : v)).replace(
			/"__BIG__(-?\d+)__"/g,
			'$1',
		);
	// Integers that a number holds exactly stay numbers; others keep their digits as text.
	const expected = (value: unknown): unknown =>
		JSON.parse(
			JSON.stringify(value, (key, v) => {
				if (v && typeof v === 'object' && 'big' in v) {
					const big = (v as { big: bigint }).big;
					return String(Number(big)) === big.toString() ? (key === 'MailSeqId' ? big.toString() : Number(big)) : big.toString();
				}
				return key === 'MailSeqId' && typeof v === 'number' ? String(v) : v;
			}),
		);

	test('10,000 bodies: none crashes, each valid event comes out exactly once and unchanged', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					{ weight: 6, arbitrary: fc.array(event, { maxLength: 8 }).map((events) => ({ valid: true, events, text: write(events) })) },
					{ weight: 1, arbitrary: event.map((single) => ({ valid: true, events: [single], text: write(single) })) },
					{ weight: 2, arbitrary: fc.string().map((text) => ({ valid: false, events: [], text })) },
					{ weight: 1, arbitrary: fc.array(scalar, { minLength: 1, maxLength: 4 }).map((values) => ({ valid: false, events: [], text: write(values) })) },
				),
				(input) => {
					const push = parsePush(input.text);
					if (!input.valid) {
						// Random text may still be JSON; either way it never throws and never half-parses.
						if (push.ok) expect(Array.isArray(push.events)).toBe(true);
						return;
					}
					expect(push.ok).toBe(true);
					if (push.ok) expect(push.events).toEqual(input.events.map(expected));
				},
			),
			{ numRuns: 10_000 },
		);
	});
});
