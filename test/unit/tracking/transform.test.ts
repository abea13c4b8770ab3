/** Tracking transforms: the pixel, HTML and text link rewriting, and linear time on pathological input. */
import { decodeHtmlEntities } from '#shared/domain/html';
import { addOpenPixel, openPixelTag, rewriteHtmlLinks, rewriteTextLinks } from '#shared/domain/tracking/transform';

const PIXEL = 'https://links.example.test/t/open/v1.1.abc.def';
/** Wraps every URL it is offered, and records them. */
function tracker(skip: (url: string) => boolean = () => false) {
  const offered: string[] = [];
  const rewrite = (url: string) => {
    offered.push(url);
    return skip(url) ? null : `https://t.example.test/c?u=${encodeURIComponent(url)}&x="y"`;
  };
  return { rewrite, offered };
}
const tracked = (url: string) => `https://t.example.test/c?u=${encodeURIComponent(url)}&amp;x=&quot;y&quot;`;

describe('addOpenPixel', () => {
  it('goes before </body> (any case, the last one), else at the end', () => {
    const tag = openPixelTag(PIXEL);
    expect(addOpenPixel('<html><body><p>Hi</p></BODY></html>', PIXEL)).toBe(`<html><body><p>Hi</p>${tag}</BODY></html>`);
    expect(addOpenPixel('<p>a</p></body><p>b</p></body >', PIXEL)).toBe(`<p>a</p></body><p>b</p>${tag}</body >`);
    expect(addOpenPixel('<p>fragment</p>', PIXEL)).toBe(`<p>fragment</p>${tag}`);
    expect(addOpenPixel('<p>a</p></bodyguard>', PIXEL)).toBe(`<p>a</p></bodyguard>${tag}`);
  });

  it('escapes the URL (in CSS, the characters that would end the url() too)', () => {
    const html = addOpenPixel('', 'https://x.test/?a=1&b="2"&c=\'3\'(4)');
    expect(html).toContain(`src="https://x.test/?a=1&amp;b=&quot;2&quot;&amp;c=&#39;3&#39;(4)"`);
    expect(html).toContain("background-image:url('https://x.test/?a=1&amp;b=%222%22&amp;c=%273%27%284%29')");
  });

  it('is no <img> element outside an Outlook-only conditional comment (SpamAssassin scores a short HTML part with one as image-only)', () => {
    const tag = openPixelTag(PIXEL);
    const outsideComments = tag.replace(/<!--[\s\S]*?-->/g, '');
    expect(outsideComments).not.toMatch(/<img/i);
    expect(outsideComments).toContain(`background-image:url('${PIXEL}')`);
    // Not display:none: a hidden element's background is never loaded.
    expect(outsideComments).not.toMatch(/display\s*:\s*none/);
    expect(tag).toMatch(
      new RegExp(`<!--\\[if mso\\]><img src="${PIXEL.replace(/[.?]/g, '\\$&')}" width="1" height="1"[^>]*><!\\[endif\\]-->`),
    );
  });
});

describe('rewriteHtmlLinks', () => {
  it('rewrites absolute http(s) hrefs of <a> and <area>, whatever the quoting, and re-escapes', () => {
    const { rewrite, offered } = tracker();
    const html =
      `<a href="https://example.com/a">A</a> <A HREF='http://example.com/b' class=x>B</A> <a href=https://example.com/c>C</a>` +
      `<map><area shape="rect" href = "https://example.com/d"></map><a class="btn" data-x='1' href="https://example.com/e"/>`;
    expect(rewriteHtmlLinks(html, rewrite)).toBe(
      `<a href="${tracked('https://example.com/a')}">A</a> <A HREF='${tracked('http://example.com/b').replace(/&quot;/g, '&quot;')}' class=x>B</A> <a href="${tracked('https://example.com/c')}">C</a>` +
        `<map><area shape="rect" href = "${tracked('https://example.com/d')}"></map><a class="btn" data-x='1' href="${tracked('https://example.com/e')}"/>`,
    );
    expect(offered).toEqual([
      'https://example.com/a',
      'http://example.com/b',
      'https://example.com/c',
      'https://example.com/d',
      'https://example.com/e',
    ]);
  });

  it('decodes entities in the href before offering it', () => {
    const { rewrite, offered } = tracker();
    rewriteHtmlLinks(
      '<a href="https://example.com/?a=1&amp;b=2&#38;c=&#x33;&quot;&copy=4">x</a><a href=" https://example.com/sp\nace\t">y</a>',
      rewrite,
    );
    expect(offered).toEqual(['https://example.com/?a=1&b=2&c=3"&copy=4', 'https://example.com/space']);
    expect(decodeHtmlEntities('&lt;&gt;&apos;&unknown;&#0;&#x110000;&amp')).toBe("<>'&unknown;\ufffd\ufffd&amp");
  });

  it('never touches mailto:, tel:, relative links, anchors, placeholders, other tags or other attributes', () => {
    const { rewrite, offered } = tracker();
    const html =
      '<a href="mailto:a@example.com">m</a><a href="tel:+123">t</a><a href="/path">r</a><a href="#top">#</a><a href="{{unsubscribe_url}}">u</a>' +
      '<a href="javascript:alert(1)">j</a><a href="ftp://example.com/">f</a><a href="//example.com/x">p</a><a name="x">n</a>' +
      '<img src="https://example.com/i.png"><link href="https://example.com/s.css"><a data-href="https://example.com/z" title="https://example.com/t">d</a>' +
      '<p>https://example.com/in-text</p><a href="https://">empty</a>';
    expect(rewriteHtmlLinks(html, rewrite)).toBe(html);
    expect(offered).toEqual([]);
  });

  it('keeps what rewrite declines (the unsubscribe link) and only the first href of a tag', () => {
    const { rewrite, offered } = tracker((url) => url.startsWith('https://links.example.test/unsubscribe/'));
    const html =
      '<a href="https://links.example.test/unsubscribe/v1.1.a.b">Unsubscribe</a><a href="https://example.com/1" href="https://example.com/2">x</a>';
    expect(rewriteHtmlLinks(html, rewrite)).toBe(
      `<a href="https://links.example.test/unsubscribe/v1.1.a.b">Unsubscribe</a><a href="${tracked('https://example.com/1')}" href="https://example.com/2">x</a>`,
    );
    expect(offered).toEqual(['https://links.example.test/unsubscribe/v1.1.a.b', 'https://example.com/1']);
  });

  it('skips script, style and ordinary comments; scans conditional comments (Outlook)', () => {
    const { rewrite, offered } = tracker();
    const html =
      '<style>a[href="https://example.com/style"]{}</style><script>"<a href=\'https://example.com/script\'>"</script>' +
      '<!-- <a href="https://example.com/comment"> --><!--[if mso]><a href="https://example.com/mso">o</a><![endif]-->' +
      '<img alt="<a href=\'https://example.com/in-attribute\'>"><a href="https://example.com/real">r</a>';
    rewriteHtmlLinks(html, rewrite);
    expect(offered).toEqual(['https://example.com/mso', 'https://example.com/real']);
  });

  it('leaves URLs over 2000 characters and unterminated markup alone', () => {
    const { rewrite, offered } = tracker();
    const long = `https://example.com/${'x'.repeat(1981)}`;
    expect(long.length).toBe(2001);
    const html = `<a href="${long}">l</a><a href="https://example.com/ok">k</a><a href="https://example.com/open`;
    expect(rewriteHtmlLinks(html, rewrite)).toBe(
      `<a href="${long}">l</a><a href="${tracked('https://example.com/ok')}">k</a><a href="https://example.com/open`,
    );
    expect(offered).toEqual(['https://example.com/ok']);
  });
});

describe('rewriteTextLinks', () => {
  it('rewrites bare URLs, leaving trailing punctuation and unbalanced brackets outside', () => {
    const { rewrite, offered } = tracker();
    const text =
      'See https://example.com/a. Or (https://example.com/b), https://en.wikipedia.org/wiki/Foo_(bar)! "http://example.com/q?x=1&y=2"\n' +
      '<https://example.com/angle> https://example.com/end';
    const out = rewriteTextLinks(text, rewrite);
    expect(offered).toEqual([
      'https://example.com/a',
      'https://example.com/b',
      'https://en.wikipedia.org/wiki/Foo_(bar)',
      'http://example.com/q?x=1&y=2',
      'https://example.com/angle',
      'https://example.com/end',
    ]);
    expect(out).toBe(
      `See ${tracker().rewrite('https://example.com/a')}. Or (${tracker().rewrite('https://example.com/b')}), ${tracker().rewrite('https://en.wikipedia.org/wiki/Foo_(bar)')}! ` +
        `"${tracker().rewrite('http://example.com/q?x=1&y=2')}"\n<${tracker().rewrite('https://example.com/angle')}> ${tracker().rewrite('https://example.com/end')}`,
    );
  });

  it('ignores non-http schemes, URLs inside words, bare schemes, long URLs and declined ones', () => {
    const { rewrite, offered } = tracker((url) => url.includes('unsubscribe'));
    const long = `https://example.com/${'y'.repeat(1990)}`;
    const text = `mailto:a@example.com tel:+1 ftp://example.com xhttps://example.com/no https:// ${long} https://links.example.test/unsubscribe/tok`;
    expect(rewriteTextLinks(text, rewrite)).toBe(text);
    expect(offered).toEqual(['https://links.example.test/unsubscribe/tok']);
  });
});

describe('linear time on pathological input (1 MB each)', () => {
  const MB = 1024 * 1024;
  const inputs: [string, string][] = [
    ['open tags', '<a href='.repeat(MB / 8)],
    ['lone <', '<'.repeat(MB)],
    ['unclosed quotes', '<a href="x '.repeat(MB / 11)],
    ['alternating quotes', `<a href="'`.repeat(MB / 10)],
    ['attributes without end', `<a ${'b=c '.repeat(MB / 4)}`],
    ['entities', `<a href="https://example.com/${'&#'.repeat(MB / 2)}">`],
    ['ampersand names', `<a href="https://example.com/${'&a'.repeat(MB / 2)}">`],
    ['spaces in href', `<a href="https://example.com/${' a'.repeat(MB / 2)}">`],
    ['comments', '<!--'.repeat(MB / 4)],
    ['styles', '<style>'.repeat(MB / 7)],
    ['schemes', 'http://'.repeat(MB / 7)],
    ['schemes and spaces', 'https://a '.repeat(MB / 10)],
    ['trailing dots', `https://example.com/${'.'.repeat(MB)}`],
    ['closing brackets', `https://example.com/${')'.repeat(MB)}`],
    ['many links', '<a href="https://example.com/x">x</a> https://example.com/y '.repeat(MB / 60)],
  ];

  // No timing assertion (speed lives in benchmarks): a backtracking scanner would not finish these 1 MB
  // inputs within the test's timeout; the linear ones do, and keep the text they do not rewrite.
  it.each(inputs)('%s', (_name, input) => {
    expect(rewriteHtmlLinks(input, () => null)).toBe(input);
    expect(rewriteTextLinks(input, () => null)).toBe(input);
    expect(addOpenPixel(input, PIXEL).length).toBeGreaterThan(input.length);
  });
});
