/** HTML escaping: the one escaper of values put into HTML (text or a quoted attribute); and the decoding of character references. Pure. */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `& < > " '` as entities: safe in text and in single- or double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** Named entities worth decoding (in URLs, and the text alternative; the rest are left as written). */
const NAMED: Record<string, string> = {
  amp: '&',
  AMP: '&',
  lt: '<',
  LT: '<',
  gt: '>',
  GT: '>',
  quot: '"',
  QUOT: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  sol: '/',
  quest: '?',
  equals: '=',
  num: '#',
  percnt: '%',
  period: '.',
  comma: ',',
  semi: ';',
  lpar: '(',
  rpar: ')',
  lowbar: '_',
  plus: '+',
  excl: '!',
  commat: '@',
  dollar: '$',
  ast: '*',
  tilde: '~',
  lsqb: '[',
  rsqb: ']',
  lbrack: '[',
  rbrack: ']',
  lcub: '{',
  rcub: '}',
  verbar: '|',
  grave: '`',
  Hat: '^',
  hyphen: '-',
  Tab: '\t',
  NewLine: '\n',
  // Common in text (the text alternative): typography and the euro.
  copy: '\u00a9',
  mdash: '\u2014',
  ndash: '\u2013',
  hellip: '\u2026',
  lsquo: '\u2018',
  rsquo: '\u2019',
  ldquo: '\u201c',
  rdquo: '\u201d',
  euro: '\u20ac',
};

function codePoint(value: number): string {
  if (!Number.isFinite(value) || value === 0 || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(value);
}

/** Decodes character references that end with `;` (numeric, and the named ones above). */
export function decodeHtmlEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});/g, (whole, body: string) => {
    if (body[0] === '#') return codePoint(body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10));
    return NAMED[body] ?? whole;
  });
}
