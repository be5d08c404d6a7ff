/**
 * Texts are cut into text and {{ blocks }} as n8n cuts them: templateChunks (nodes/MailDelivery/items/templateChunks.ts) against
 * @n8n/tournament's own splitExpression, the splitter n8n's expression engines run, on texts made of the
 * characters that matter (braces, backslashes), quirks included.
 */
import { splitExpression } from '@n8n/tournament/dist/ExpressionSplitter';
import fc from 'fast-check';

import { templateChunks } from '../../nodes/MailDelivery/items/templateChunks';

const texts = fc
	.array(fc.constantFrom('{', '}', '{{', '}}', '\\', '\\\\', 'a', ' ', '$json.x'), {
		maxLength: 16,
	})
	.map((parts) => parts.join(''));

test("templateChunks cuts every text as n8n's splitter does", () => {
	fc.assert(
		fc.property(texts, (text) => {
			const chunks = templateChunks(text).map((chunk) =>
				chunk.type === 'text'
					? { type: 'text', text: chunk.text }
					: { type: 'code', text: chunk.code, hasClosingBrackets: chunk.closed },
			);
			expect(chunks).toEqual(splitExpression(text));
		}),
		{ numRuns: 20000 },
	);
});

test('closed blocks say where they are in the text', () => {
	const text = 'Hi {{ name }}, \\{{ not }} {{ $json.x }} and {{ open';
	const closed = templateChunks(text).flatMap((chunk) =>
		chunk.type === 'code' && chunk.closed
			? [{ start: chunk.start, end: chunk.end, inside: chunk.inside }]
			: [],
	);
	expect(closed).toEqual([
		{ start: 3, end: 13, inside: ' name ' },
		{ start: 26, end: 39, inside: ' $json.x ' },
	]);
	expect(text.slice(26, 39)).toBe('{{ $json.x }}');
});
