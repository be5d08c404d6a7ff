import fc from 'fast-check';

import {
	enrichEvent,
	eventsFromParsedBody,
	parsePush,
	quoteUnsafeIntegers,
} from '../../nodes/MailDeliveryTrigger/pushParsing';

describe('push bodies', () => {
	test('MailSeqId above 2^53 keeps every digit, as a string', () => {
		const push = parsePush(
			'[{"EventCode":"Delivered","MailSeqId":2505070900222412710,"Count":42}]',
		);
		expect(push).toEqual({
			ok: true,
			events: [{ EventCode: 'Delivered', MailSeqId: '2505070900222412710', Count: 42 }],
		});
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
		expect(JSON.parse(quoteUnsafeIntegers(text))).toEqual({
			UA: 'x:12345678901234567890,',
			n: '12345678901234567890',
		});
		expect(JSON.parse(quoteUnsafeIntegers('{"s":"a\\"b 99999999999999999999"}'))).toEqual({
			s: 'a"b 99999999999999999999',
		});
	});

	test("reusing n8n's parsed body: every MailSeqId digit comes from the raw text, in order", () => {
		const raw =
			'[{"EventCode":"Delivered","MailSeqId":2505070900222412710},{"EventCode":"Opened"},{"MailSeqId":"2505070900222412711","UA":"\\"MailSeqId\\":1"},{"MailSeqId":2505070900222412712}]';
		const parsed = JSON.parse(raw);
		expect(parsed[0].MailSeqId).toBe(2505070900222412800);
		expect(parsePush(raw, parsed)).toEqual({
			ok: true,
			events: [
				{ EventCode: 'Delivered', MailSeqId: '2505070900222412710' },
				{ EventCode: 'Opened' },
				{ MailSeqId: '2505070900222412711', UA: '"MailSeqId":1' },
				{ MailSeqId: '2505070900222412712' },
			],
		});
	});

	test.each([
		['a nested object', '[{"MailSeqId":2505070900222412710,"x":{"MailSeqId":1}}]'],
		[
			'a key that only looks like MailSeqId',
			'[{"a\\"MailSeqId":2505070900222412710,"MailSeqId":2505070900222412711}]',
		],
		['another integer beyond 2^53', '[{"MailSeqId":1,"n":12345678901234567890}]'],
	])('the parsed body is not reused when it would lose or misplace digits: %s', (_name, raw) => {
		expect(parsePush(raw, JSON.parse(raw))).toEqual(parsePush(raw));
		expect(eventsFromParsedBody(JSON.parse(raw), raw)).toBeUndefined();
	});

	test('one event object alone is accepted', () => {
		expect(parsePush('{"EventCode":"Opened"}')).toEqual({
			ok: true,
			events: [{ EventCode: 'Opened' }],
		});
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
		const event = {
			EventCode: 'Bounced',
			FailedCause: Buffer.from('550 user unknown').toString('base64'),
			TriggeredDateTimeV2: '2026-05-01 10:00:00',
		};
		expect(enrichEvent(event, { decodeFailedCause: true, isoTimeZone: 'Asia/Shanghai' })).toEqual({
			...event,
			FailedCauseText: '550 user unknown',
			TriggeredDateTimeV2Iso: '2026-05-01T10:00:00+08:00',
		});
		expect(enrichEvent(event, { decodeFailedCause: false })).toBe(event);
	});
});

describe('push edge cases: both ways of reading a push agree', () => {
	/** Both paths: the raw text alone, and the raw text beside n8n's own parse of it. */
	const bothWays = (raw: string) => [parsePush(raw), parsePush(raw, JSON.parse(raw))];

	test.each([
		[
			'MailSeqId written twice',
			'{"EventCode":"Opened","MailSeqId":2505070900222412710,"MailSeqId":2505070900222412711}',
			['2505070900222412711'],
		],
		[
			'twice in one event, and spelled with an escape in the next',
			'[{"MailSeqId":1,"MailSeqId":2505070900222412710},{"MailSeq\\u0049d":2505070900222412711}]',
			['2505070900222412710', '2505070900222412711'],
		],
		[
			'a small value written last',
			'[{"MailSeqId":2505070900222412710,"MailSeqId":7},{"MailSeqId":2505070900222412712}]',
			['7', '2505070900222412712'],
		],
	])('duplicate keys follow JSON (the last one wins) on every path: %s', (_name, raw, ids) => {
		for (const push of bothWays(raw)) {
			expect(push.ok).toBe(true);
			if (push.ok) expect(push.events.map((event) => event.MailSeqId)).toEqual(ids);
		}
	});

	test('a nested value becomes its JSON text: every event n8n stores is flat', () => {
		const raw =
			'[{"EventCode":"Opened","Extra":{"a":[1,2],"n":12345678901234567890},"List":[]},{"EventCode":"Clicked"}]';
		for (const push of bothWays(raw)) {
			expect(push).toEqual({
				ok: true,
				events: [
					{
						EventCode: 'Opened',
						Extra: '{"a":[1,2],"n":"12345678901234567890"}',
						List: '[]',
					},
					{ EventCode: 'Clicked' },
				],
			});
		}
	});

	test('nesting 100,000 levels deep is refused, not stored as an execution n8n cannot read back', () => {
		const depth = 100_000;
		const raw = `[{"EventCode":"Opened"},{"EventCode":"Clicked","X":${'['.repeat(depth)}${']'.repeat(depth)}}]`;
		for (const push of bothWays(raw))
			expect(push).toEqual({
				ok: false,
				problem: 'Entry 1 of the body nests field X deeper than 32 levels',
			});
	});

	test.each([
		['plain text', 'Mailbox full', 'Mailbox full'],
		['a word that happens to use only base64 letters', 'user', 'user'],
		['base64 of bytes that are no text', Buffer.from([0xff, 0xfe, 0x00, 0x81]).toString('base64')],
		['base64 of text with control characters', Buffer.from('a\u0000\u0007b').toString('base64')],
	])(
		'a FailedCause that is not base64 of text is kept as text (%s)',
		(_name, cause, text = cause) => {
			const event = { EventCode: 'Bounced', FailedCause: cause };
			expect(enrichEvent({ ...event }, { decodeFailedCause: true }).FailedCauseText).toBe(text);
		},
	);

	test('a FailedCause in base64 of UTF-8 text is decoded', () => {
		const text = '550 5.1.1 <ü@example.org>: 用户不存在';
		const event = { EventCode: 'Bounced', FailedCause: Buffer.from(text).toString('base64') };
		expect(enrichEvent(event, { decodeFailedCause: true }).FailedCauseText).toBe(text);
	});
});

describe('codes in words', () => {
	test.each([
		['Bounced', '100', 'Hard bounce'],
		['Bounced', '101', 'Soft bounce'],
		['Dropped', '110', 'Hard bounce history'],
		['Dropped', '111', 'Send policy'],
		['Dropped', '112', 'Expired'],
		['Dropped', '210', 'Unsubscribed'],
	])('%s with Reason %s also says ReasonText "%s"; the raw Reason stays', (kind, reason, words) => {
		const event = enrichEvent(
			{ EventCode: kind, Reason: reason, EventType: '3' },
			{ decodeFailedCause: true },
		);
		expect(event).toMatchObject({ Reason: reason, ReasonText: words });
	});

	test.each([
		['3', 'Transactional'],
		[3, 'Transactional'],
		['5', 'Marketing'],
	])('EventType %p also says EventTypeText "%s"', (type, words) => {
		expect(
			enrichEvent({ EventCode: 'Opened', EventType: type }, { decodeFailedCause: true }),
		).toEqual({ EventCode: 'Opened', EventType: type, EventTypeText: words });
	});

	test("an unsubscribe's own reason, or a code the API does not document, gets no words", () => {
		for (const event of [
			{ EventCode: 'Unsubscribed', Reason: '100', EventType: '7' },
			{ EventCode: 'Bounced', Reason: '999' },
		])
			expect(enrichEvent({ ...event }, { decodeFailedCause: true })).toEqual(event);
	});
});

/** A big integer in a generated event (a class, so that an event with a key "big" is not taken for one). */
class Big {
	constructor(readonly big: bigint) {}
}

describe('fuzz: generated push bodies', () => {
	const scalar = fc.oneof(
		fc.string(),
		fc.integer(),
		fc.double({ noNaN: true, noDefaultInfinity: true }),
		fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((big) => new Big(big)),
		fc.boolean(),
		fc.constant(null),
	);
	// Keys include MailSeqId and look-alikes a raw-text scan could confuse; values are mostly flat.
	const key = fc.oneof(
		{ weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
		{
			weight: 2,
			arbitrary: fc.constantFrom('MailSeqId', 'a"MailSeqId', 'MailSeqId ', 'x\\', 'EventCode'),
		},
	);
	const value = fc.oneof(
		{ weight: 9, arbitrary: scalar },
		{
			weight: 1,
			arbitrary: fc.dictionary(fc.constantFrom('MailSeqId', 'n'), scalar, { maxKeys: 2 }),
		},
	);
	const event = fc.dictionary(key, value, { maxKeys: 6 });
	// Serializes like the platform: big integers as bare JSON integers.
	const write = (value: unknown): string =>
		JSON.stringify(value, (_key, v) => (v instanceof Big ? `__BIG__${v.big}__` : v)).replace(
			/"__BIG__(-?\d+)__"/g,
			'$1',
		);
	// Integers that a number holds exactly stay numbers; others keep their digits as text. An event's
	// own MailSeqId is always text; a nested value becomes its JSON text (events are flat).
	const normalize = (v: unknown, topLevelMailSeqId: boolean): unknown => {
		if (v instanceof Big) {
			const { big } = v;
			return String(Number(big)) === big.toString() && !topLevelMailSeqId
				? Number(big)
				: big.toString();
		}
		if (topLevelMailSeqId && typeof v === 'number') return String(v);
		if (v && typeof v === 'object')
			return Object.fromEntries(
				Object.entries(v).map(([k, inner]) => [k, normalize(inner, false)]),
			);
		return v;
	};
	const expected = (value: unknown): unknown =>
		JSON.parse(
			JSON.stringify(
				Object.fromEntries(
					Object.entries(value as object).map(([k, v]) => {
						const normal = normalize(v, k === 'MailSeqId');
						return [k, normal && typeof normal === 'object' ? JSON.stringify(normal) : normal];
					}),
				),
			),
		);

	const parsedByN8n = (text: string): unknown => {
		try {
			return JSON.parse(text);
		} catch {
			return undefined;
		}
	};

	test("10,000 bodies, read both ways (reusing n8n's parsed body, and parsing the raw text): none crashes, each valid event comes out exactly once and unchanged", () => {
		fc.assert(
			fc.property(
				fc.oneof(
					{
						weight: 6,
						arbitrary: fc
							.array(event, { maxLength: 8 })
							.map((events) => ({ valid: true, events, text: write(events) })),
					},
					{
						weight: 1,
						arbitrary: event.map((single) => ({
							valid: true,
							events: [single],
							text: write(single),
						})),
					},
					{ weight: 2, arbitrary: fc.string().map((text) => ({ valid: false, events: [], text })) },
					{
						weight: 1,
						arbitrary: fc
							.array(scalar, { minLength: 1, maxLength: 4 })
							.map((values) => ({ valid: false, events: [], text: write(values) })),
					},
				),
				(input) => {
					for (const push of [
						parsePush(input.text),
						parsePush(input.text, parsedByN8n(input.text)),
					]) {
						if (!input.valid) {
							// Random text may still be JSON; either way it never throws and never half-parses.
							if (push.ok) expect(Array.isArray(push.events)).toBe(true);
							continue;
						}
						expect(push.ok).toBe(true);
						if (push.ok) expect(push.events).toEqual(input.events.map(expected));
					}
				},
			),
			{ numRuns: 10_000 },
		);
	});
});

test('a push full of backslashes is read in one pass: a stranger with the URL cannot stall the trigger with it', () => {
	// 80,000 escaped backslashes in a value: the old key check backtracked over them for seconds (~4 s for 40,000).
	const value = '\\\\'.repeat(80_000);
	const raw = `[{"EventCode":"Delivered","Email":"a@example.org","Note":"${value}","MailSeqId":2505070900222412710}]`;
	const started = Date.now();
	const push = parsePush(raw, JSON.parse(raw));
	// Not a speed target: the old check took many seconds here, the scan takes milliseconds; 3 s tells them apart
	// on a loaded machine too.
	expect(Date.now() - started).toBeLessThan(3000);
	expect(push).toMatchObject({ ok: true, events: [{ MailSeqId: '2505070900222412710' }] });
});
