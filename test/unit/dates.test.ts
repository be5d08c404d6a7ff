import { eventTimeToIso, toApiDateTime, toApiDay } from '../../nodes/shared/dates';

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
});
