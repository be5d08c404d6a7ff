import type { INode } from 'n8n-workflow';

import {
	assertValid,
	findProblems,
	LIMITS,
	rules,
} from '../../nodes/MailDelivery/helpers/validation';

const node = {
	name: 'Mail Delivery',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	id: '1',
} as INode;

describe('field rules', () => {
	test('required rejects missing, null, blank', () => {
		for (const value of [undefined, null, '', '   '])
			expect(rules.required(value)).toBe('is required');
		expect(rules.required('x')).toBeUndefined();
	});

	test('maxChars counts characters, not bytes or UTF-16 units', () => {
		expect(rules.maxChars(3)('héé')).toBeUndefined();
		expect(rules.maxChars(3)('😀😀😀')).toBeUndefined();
		expect(rules.maxChars(3)('abcd')).toBe('is 4 characters long; the limit is 3 characters');
	});

	test('maxBytes counts UTF-8 bytes', () => {
		expect(rules.maxBytes(4)('abcd')).toBeUndefined();
		expect(rules.maxBytes(4)('ééé')).toBe('is 6 bytes long (UTF-8); the limit is 4 bytes');
	});

	test('lettersAndDigits allows only A-Z, a-z, 0-9', () => {
		expect(rules.lettersAndDigits('Spring2026')).toBeUndefined();
		expect(rules.lettersAndDigits('spring-2026')).toMatch(/only letters and digits/);
		expect(rules.lettersAndDigits('ünï')).toMatch(/only letters and digits/);
	});

	test('maxItems, nonEmptyList, email, httpUrl, oneOf', () => {
		expect(rules.maxItems(2)([1, 2, 3])).toBe('has 3 entries; the limit is 2');
		expect(rules.nonEmptyList([])).toBe('needs at least one entry');
		expect(rules.nonEmptyList(undefined)).toBe('needs at least one entry');
		expect(rules.email('a@b.co')).toBeUndefined();
		expect(rules.email('not-an-address')).toBe('"not-an-address" is not a valid email address');
		expect(rules.httpUrl('ftp://x')).toBe('"ftp://x" must start with http:// or https://');
		expect(rules.httpUrl('https://x.example/hook')).toBeUndefined();
		expect(rules.oneOf(['1', '2'])('3')).toBe('"3" is not one of 1, 2');
	});

	test('paths walk arrays and name the exact entry', () => {
		const body = {
			messageVersions: [
				{ to: [{ email: 'a@b.co' }] },
				{ to: [{ email: 'a@b.co', name: 'x'.repeat(101) }] },
			],
		};
		expect(
			findProblems(body, { 'messageVersions[].to[].name': [rules.maxChars(LIMITS.recipientName)] }),
		).toEqual([
			{
				text: 'Field "messageVersions[1].to[0].name" is 101 characters long; the limit is 100 characters',
				apiPath: 'messageVersions[1].to[0].name',
			},
		]);
	});

	test('a labelled path names the field as the panel shows it, and the request field in the description', () => {
		const body = {
			messageVersions: [
				{ to: [{ email: 'ada@example.org' }, { email: 'margaret(at)example.org' }] },
			],
		};
		const check = () =>
			assertValid(
				node,
				body,
				{ 'messageVersions[].to[].email': { label: 'To', rules: [rules.email] } },
				4,
			);
		expect(check).toThrow(
			'Field "To" "margaret(at)example.org" is not a valid email address, in item 4 (the 5th input item)',
		);
		expect(check).toThrow(
			expect.objectContaining({
				description:
					'Nothing was sent to the platform (API field messageVersions[0].to[1].email, positions counted from 0 within this item).',
			}),
		);
	});

	test('assertValid throws one error naming field, limit and item, listing all problems', () => {
		const body = { mailName: 'x'.repeat(201), subject: 'y'.repeat(401) };
		expect(() =>
			assertValid(
				node,
				body,
				{ mailName: [rules.maxChars(200)], subject: [rules.maxChars(400)] },
				7,
			),
		).toThrow(
			'Field "mailName" is 201 characters long; the limit is 200 characters, in item 7 (the 8th input item)',
		);
		try {
			assertValid(
				node,
				body,
				{ mailName: [rules.maxChars(200)], subject: [rules.maxChars(400)] },
				7,
			);
		} catch (error) {
			expect((error as { description: string }).description).toContain(
				'Field "subject" is 401 characters long',
			);
		}
	});
});
