import { explainCode } from '../../nodes/MailDelivery/transport/errors';

describe('English explanations of platform codes', () => {
	test('section 7 conditions for campaign creation', () => {
		expect(explainCode('/v5/campaign/mail/sends', 403)).toBe(
			'The platform answered code 403, which for this operation means one of: no contact list matches sendListNames; no contact list matches repelListNames.',
		);
		expect(explainCode('/v5/campaign/mail/sends', 500)).toContain('attaching the file failed (the created task is kept)');
	});

	test('section 7 conditions for transactional send', () => {
		expect(explainCode('/v5/transactional/mail/sends_customised', 403)).toContain('the account has too few mail credits');
		expect(explainCode('/v5/transactional/mail/sends_customised', 400)).toContain("a version's templateName matches no template");
	});

	test('other operations get the generic explanation of the code', () => {
		expect(explainCode('/v5/lists/delete', 403)).toMatch(/^The request was refused: a named list/);
		expect(explainCode('/v5/lists/delete', 401)).toMatch(/^Authentication failed/);
		expect(explainCode('/v5/lists/delete', 418)).toBe('The platform answered code 418, which it does not document.');
	});
});
