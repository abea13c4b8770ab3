/** The text alternative derived from HTML (shared/domain/mail/html-text.ts): what a reader sees, nothing of what they do not. */
import { htmlToText } from '#shared/domain/mail/html-text';

describe('htmlToText', () => {
  it('renders blocks, lists, tables, breaks, rules and links; skips head, styles, comments and images', () => {
    const html =
      '<!DOCTYPE html><html><head><title>T</title><style>p{color:red}</style></head><body>' +
      '<h1>Receipt</h1><p>Hello &amp; welcome&nbsp;here,\n   friend.</p><ul><li>One</li><li>Two <b>bold</b></li></ul>' +
      '<table><tr><td>A</td><td>B</td></tr><tr><td>C</td><td>D</td></tr></table>Line<br>break<br><br>gap<hr>' +
      '<a href="https://x.example/">https://x.example/</a> <a href="mailto:a@b.example">write</a> <a href="https://shop.example/o?id=1&amp;s=2">Order</a>' +
      '<!--[if mso]><img src="https://t.example/open"><![endif]--><div style="background-image:url(\'https://t.example/open\')"></div>' +
      '<img src="https://shop.example/logo.png" alt="Logo"><script>alert(1)</script><pre>  keep\n    this</pre>after</body></html>';
    expect(htmlToText(html)).toBe(
      [
        'Receipt',
        '',
        'Hello & welcome here, friend.',
        '',
        '- One',
        '- Two bold',
        '',
        'A B',
        'C D',
        '',
        'Line',
        'break',
        '',
        'gap',
        '',
        '----------',
        '',
        'https://x.example/ write [a@b.example] Order [https://shop.example/o?id=1&s=2]',
        '',
        'keep this',
        '',
        'after',
      ].join('\n'),
    );
  });

  it('decodes the character references text uses', () => {
    expect(htmlToText('<p>&copy; 2026 Acme &mdash; &ldquo;caf&eacute;&rdquo; &amp; &euro;5&hellip; &#8217;&#x2019;&#233;</p>')).toBe(
      '\u00a9 2026 Acme \u2014 \u201ccaf&eacute;\u201d & \u20ac5\u2026 \u2019\u2019\u00e9',
    );
  });

  it('is empty for HTML that shows no text, and keeps a stray < as text', () => {
    expect(htmlToText('<img src="https://x.example/a.png">')).toBe('');
    expect(htmlToText('1 < 2 and <3')).toBe('1 < 2 and <3');
  });

  it('takes linear time on pathological input', () => {
    const inputs = [
      '<a b'.repeat(50_000),
      '<a b="'.repeat(50_000),
      '<script>'.repeat(20_000),
      '<a href="'.repeat(20_000),
      '<p>'.repeat(50_000),
      '<'.repeat(100_000),
      '<!--'.repeat(50_000),
    ];
    for (const input of inputs) expect(typeof htmlToText(input)).toBe('string');
  });
});
