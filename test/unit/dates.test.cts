import { eventTimeToIso, toApiDateTime, toApiDay, toApiSendDate } from '../../nodes/shared/dates';

describe('date formats', () => {
	test('date picker values are read in the workflow time zone and sent in UTC', () => {
		expect(toApiDateTime('2026-05-01T10:00:00', 'Europe/Berlin')).toBe('2026-05-01T08:00:00Z');
		expect(toApiDateTime('2026-05-01T10:00:00.000+02:00', 'UTC')).toBe('2026-05-01T08:00:00Z');
		expect(toApiDateTime('2026-05-01 10:00:00', 'UTC')).toBe('2026-05-01T10:00:00Z');
		expect(toApiDateTime(Date.UTC(2026, 4, 1, 10), 'UTC')).toBe('2026-05-01T10:00:00Z');
		expect(toApiDateTime('', 'UTC')).toBeUndefined();
		expect(() => toApiDateTime('next tuesday', 'UTC')).toThrow();
	});

	test('days are the calendar day the user picked', () => {
		expect(toApiDay('2026-05-01', 'Asia/Tokyo')).toBe('2026-05-01');
		expect(toApiDay('2026-05-01T23:30:00', 'America/New_York')).toBe('2026-05-01');
	});

	test('event times become ISO 8601 in the chosen zone', () => {
		expect(eventTimeToIso('2026-05-01 10:00:00', 'Asia/Shanghai')).toBe(
			'2026-05-01T10:00:00+08:00',
		);
		expect(eventTimeToIso('2026-05-01 10:00:00', 'UTC')).toBe('2026-05-01T10:00:00Z');
		expect(eventTimeToIso('yesterday', 'UTC')).toBeUndefined();
	});

	test('numbers are epoch seconds below 10^11 and milliseconds from there, as numbers or as digits', () => {
		expect(toApiDateTime(1767261600, 'UTC')).toBe('2026-01-01T10:00:00Z');
		expect(toApiDateTime(1767261600000, 'UTC')).toBe('2026-01-01T10:00:00Z');
		expect(toApiDateTime('1767261600', 'UTC')).toBe('2026-01-01T10:00:00Z');
		expect(toApiDateTime('1767261600000', 'UTC')).toBe('2026-01-01T10:00:00Z');
		expect(toApiDateTime(1767261600.9, 'UTC')).toBe('2026-01-01T10:00:00Z');
		// Just below 10^11 is still seconds (the year 5138); 10^11 is milliseconds (1973).
		expect(toApiDateTime(99_999_999_999, 'UTC')).toBe('5138-11-16T09:46:39Z');
		expect(toApiDateTime(100_000_000_000, 'UTC')).toBe('1973-03-03T09:46:40Z');
		expect(toApiDay(1767261600, 'UTC')).toBe('2026-01-01');
	});

	test('numbers that name no date are refused', () => {
		for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY, 1e17, 253402300800000])
			expect(() => toApiDateTime(value, 'UTC')).toThrow();
	});

	test('a send date: in the future as given; up to 10 minutes past sends at once (left out); further past refused', () => {
		const now = Date.UTC(2026, 10, 23, 12, 0, 0);
		expect(toApiSendDate(now / 1000 + 3600, 'UTC', now)).toBe('2026-11-23T13:00:00Z');
		expect(toApiSendDate('2026-11-23T11:55:00Z', 'UTC', now)).toBeUndefined();
		expect(toApiSendDate('', 'UTC', now)).toBeUndefined();
		expect(() => toApiSendDate('2026-11-23T11:49:00Z', 'UTC', now)).toThrow(
			'2026-11-23T11:49:00Z is in the past',
		);
		expect(() => toApiSendDate(1767261600, 'UTC', now)).toThrow(
			'2026-01-01T10:00:00Z is in the past',
		);
	});
});
