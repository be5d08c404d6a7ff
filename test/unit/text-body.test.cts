/**
 * A body written as text becomes safe HTML (issue 40, item 4): what a reader of the mail sees is what the
 * person typed, line for line, with links they can click, and nothing from the input can add markup.
 */
import { htmlFromText } from '../../nodes/MailDelivery/helpers/textBody';

test('characters show as typed: <, >, &, quotes are escaped, so a value cannot add markup', () => {
	expect(htmlFromText('5 < 6 & "7" > \'4\'')).toBe(
		'<p>5 &lt; 6 &amp; &quot;7&quot; &gt; &#39;4&#39;</p>',
	);
	expect(htmlFromText('<script>alert(1)</script><img src=x onerror=alert(1)>')).toBe(
		'<p>&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</p>',
	);
});

test('line breaks are kept; a blank line (or several) starts a new paragraph; Windows line ends too', () => {
	expect(htmlFromText('Hi Ada,\n\nYour order ships today.\nThanks!\r\n\r\n\r\nThe shop')).toBe(
		'<p>Hi Ada,</p>\n<p>Your order ships today.<br>\nThanks!</p>\n<p>The shop</p>',
	);
	expect(htmlFromText('\n\n  \n')).toBe('');
});

test('web addresses become links; the punctuation that ends a sentence stays outside', () => {
	expect(htmlFromText('Track it at https://example.com/t?id=1&x=2.')).toBe(
		'<p>Track it at <a href="https://example.com/t?id=1&amp;x=2">https://example.com/t?id=1&amp;x=2</a>.</p>',
	);
	expect(htmlFromText('(see http://example.com/a_(b)), or https://example.com/c!')).toBe(
		'<p>(see <a href="http://example.com/a_(b)">http://example.com/a_(b)</a>), or <a href="https://example.com/c">https://example.com/c</a>!</p>',
	);
	// Only web addresses: nothing else becomes a link.
	expect(htmlFromText('javascript:alert(1) mailto:a@example.org')).toBe(
		'<p>javascript:alert(1) mailto:a@example.org</p>',
	);
});

test('platform tags stay as written, also inside a link, for the platform to fill in', () => {
	expect(htmlFromText('Hi {{name}},\ntrack: https://example.com/track/{{tracking}}')).toBe(
		'<p>Hi {{name}},<br>\ntrack: <a href="https://example.com/track/{{tracking}}">https://example.com/track/{{tracking}}</a></p>',
	);
});
