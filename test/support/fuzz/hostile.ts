/**
 * Hostile input as fast-check arbitraries: JSON values of every type and size (the raw JSON text, so a
 * value can be nested deeper than JSON.stringify could write it), path segments and query values that no
 * client library would send. Each carries a short label for reports.
 */
import fc from 'fast-check';

/** A JSON value as text, and what it is in a few words. */
export interface Hostile {
  label: string;
  json: string;
}

const json = (value: unknown, label?: string): Hostile => {
  const text = JSON.stringify(value) ?? 'null';
  return { label: label ?? excerpt(text), json: text };
};

export function excerpt(text: string, max = 80): string {
  const printable = JSON.stringify(text.length > max ? text.slice(0, max) : text).slice(1, -1);
  return text.length > max ? `${printable}… (${text.length} chars)` : printable;
}

/** Strings that have broken parsers, keys, headers, templates and pages elsewhere. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\nX-Injected: 1',
  '\t',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u2028\u2029',
  '\ufeff',
  '\ud800',
  '\udfff',
  'a\u202eb',
  'é',
  '\u{1d518}',
  '🙂',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  "' OR '1'='1",
  '../../../../etc/passwd',
  '%00',
  '%',
  '{{x}}',
  '{{',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as the literal text ${7*7}
  '${7*7}',
  '__proto__',
  'constructor',
  'null',
  'true',
  '-1',
  '1e400',
  'NaN',
  'msg_00000000000000000000000000',
  '@',
  'a@b@c',
  '=cmd|calc',
  'x'.repeat(257),
];

/** Lengths at which limits usually sit (and far past them); big ones are rarer. */
const HUGE_LENGTHS = [255, 256, 257, 1_025, 4_097, 70_000, 200_000, 1_100_000];

const hugeString: fc.Arbitrary<Hostile> = fc
  .tuple(fc.constantFrom(...HUGE_LENGTHS), fc.constantFrom('x', 'é', '🙂', '\u0000', '\ud800'))
  .map(([length, unit]) => ({
    label: `${JSON.stringify(unit)} x ${length}`,
    json: JSON.stringify(unit.repeat(Math.ceil(length / unit.length))),
  }));

const controlString = fc.string({
  unit: fc.integer({ min: 0, max: 31 }).map((code) => String.fromCharCode(code)),
  minLength: 1,
  maxLength: 8,
});

const hostileString: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS).map((s) => json(s)) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => json(s)) },
  { weight: 1, arbitrary: controlString.map((s) => json(s)) },
  { weight: 2, arbitrary: hugeString },
);

/** Numbers JSON can carry, and the texts that parse to numbers no code expects. */
const hostileNumber: fc.Arbitrary<Hostile> = fc.oneof(
  // JSON's and DynamoDB's edges: the document client refuses integers past 2^53, DynamoDB magnitudes under 1e-130.
  fc
    .constantFrom(
      '0',
      '-0',
      '-1',
      '1.5',
      '1e400',
      '-1e400',
      '1e-400',
      '5e-324',
      '1e-131',
      '9007199254740992',
      '-9007199254740993',
      '1e300',
      '1.7976931348623157e308',
      '100000000000000000000',
      '0.1e1',
    )
    .map((text) => ({ label: text, json: text })),
  fc.integer().map((n) => json(n)),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => json(n)),
);

/** Nested `levels` deep, written as text (JSON.stringify overflows the stack near 10,000 levels). */
export function deepJson(levels: number, kind: 'array' | 'object'): Hostile {
  const text = kind === 'array' ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  return { label: `${kind} nested ${levels} deep`, json: text };
}

const deepValue: fc.Arbitrary<Hostile> = fc
  .tuple(fc.constantFrom(17, 33, 200, 20_000, 500_000), fc.constantFrom<'array' | 'object'>('array', 'object'))
  .map(([levels, kind]) => deepJson(levels, kind));

const scalar = fc.oneof(fc.constantFrom(...NASTY_STRINGS.slice(0, 20)), fc.integer(), fc.boolean(), fc.constant(null));

const hostileContainer: fc.Arbitrary<Hostile> = fc.oneof(
  fc.array(scalar, { maxLength: 5 }).map((value) => json(value)),
  fc
    .dictionary(
      fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'prototype', '', ' ', '$where', 'a.b', 'k'.repeat(300)),
        fc.string({ maxLength: 8 }),
      ),
      scalar,
      { maxKeys: 5 },
    )
    .map((value) => json(value)),
  fc.constantFrom(10_000, 100_000).map((count) => ({ label: `array of ${count} items`, json: `[${Array(count).fill('1').join(',')}]` })),
  fc
    .constantFrom(5_000, 50_000)
    .map((count) => ({ label: `object of ${count} keys`, json: `{${Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',')}}` })),
);

/** Any JSON value a field should not get: wrong type, size, depth, characters. */
export const hostileValue: fc.Arbitrary<Hostile> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(json(true), json(false), json(null), json({}), json([])) },
  { weight: 2, arbitrary: hostileContainer },
  { weight: 2, arbitrary: deepValue },
);

/**
 * Bodies that are not what any operation takes: broken or odd JSON, other types, deep and huge bodies.
 * `text` is sent as is (a Buffer when the bytes are not UTF-8).
 */
export interface HostileBody {
  label: string;
  body: string | Buffer;
  contentType?: string;
}

const BROKEN_BODIES: HostileBody[] = [
  { label: 'empty', body: '' },
  { label: 'whitespace', body: ' \n\t ' },
  { label: '{', body: '{' },
  { label: 'unterminated string', body: '{"a":"' },
  { label: 'trailing comma', body: '{"a":1,}' },
  { label: 'single quotes', body: "{'a':1}" },
  { label: 'two objects', body: '{}{}' },
  { label: 'NaN literal', body: '{"a":NaN}' },
  { label: 'comment', body: '{/* x */}' },
  { label: 'BOM then {}', body: '\ufeff{}' },
  { label: 'NUL', body: '\u0000' },
  { label: 'duplicate keys', body: '{"a":1,"a":2}' },
  { label: 'lone surrogate escape key', body: '{"\\ud800":1}' },
  { label: 'invalid UTF-8', body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]) },
  { label: 'UTF-16 body', body: Buffer.from('{"a":1}', 'utf16le') },
  { label: 'null', body: 'null' },
  { label: 'true', body: 'true' },
  { label: 'number', body: '42' },
  { label: 'string', body: '"x"' },
  { label: 'array', body: '[]' },
  { label: 'array of objects', body: '[{}, {}]' },
  { label: '__proto__ pollution', body: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}' },
  { label: 'form-encoded', body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  { label: 'text/plain JSON', body: '{}', contentType: 'text/plain' },
  { label: 'no content-type', body: '{}', contentType: '' },
  {
    label: 'multipart',
    body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
    contentType: 'multipart/form-data; boundary=x',
  },
  { label: 'charset latin1', body: '{"a":"\u00e9"}', contentType: 'application/json; charset=latin1' },
];

export const hostileBody: fc.Arbitrary<HostileBody> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...BROKEN_BODIES) },
  { weight: 2, arbitrary: deepValue.map((value) => ({ label: `body: ${value.label}`, body: value.json })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(1_000_000, 3_000_000)
      .map((length) => ({ label: `body: a string of ${length} characters`, body: JSON.stringify('x'.repeat(length)) })),
  },
);

/** A body over the 6 MB request limit (rare: sending it takes a moment). */
export const oversizedBody: HostileBody = { label: 'body over 6 MB', body: `{"a":"${'x'.repeat(6 * 1024 * 1024 + 10)}"}` };

/** Percent-encodes what encodeURIComponent cannot (lone surrogates), byte by byte as UTF-8 with U+FFFD. */
function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
}

/** Segments sent as they are: odd or broken percent-encoding, dot segments, encoded slashes. */
const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%00',
  '%0d%0a',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%C0%AE',
  '%ED%A0%80',
  '%FF',
  '~',
  '*',
  '%E4%B8%AD'.repeat(90),
  '%25',
  '%u0041',
  '+',
  ';x=1',
];

const ID_PREFIXES = ['msg', 'acc', 'key', 'sup', 'dom', 'wh', 'whd', 'evt', 'ten', 'smtp', 'inb', 'tpl', 'auto', 'run', 'mig', 'att'];

/**
 * Path segments where an id goes: valid-looking unknown ids, ids of `foreign` things, strings of every
 * kind. At most 12,000 characters: a request line over Node's 16 KB header limit is refused by the HTTP
 * parser before any route (431, tested on its own).
 */
export function hostileSegment(foreign: readonly string[]): fc.Arbitrary<{ label: string; segment: string }> {
  const encoded = (value: string) => ({ label: excerpt(value), segment: encodeSegment(value) });
  return fc.oneof(
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...ID_PREFIXES), fc.ulid()).map(([prefix, body]) => encoded(`${prefix}_${body}`)) },
    {
      weight: 1,
      arbitrary: foreign.length
        ? fc.constantFrom(...foreign).map((id) => ({ label: `another account's ${id}`, segment: encodeSegment(id) }))
        : fc.constant(encoded('nothing')),
    },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS.filter((s) => s !== '')).map(encoded) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map(encoded) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((segment) => ({ label: `raw ${excerpt(segment)}`, segment })) },
    { weight: 1, arbitrary: fc.constantFrom(255, 256, 257, 2_000, 12_000).map((length) => encoded('a'.repeat(length))) },
  );
}

/** Query values: the same strings as segments, plus numbers written oddly. */
export const hostileQueryValue: fc.Arbitrary<{ label: string; value: string }> = fc.oneof(
  { weight: 3, arbitrary: hostileSegment([]).map(({ label, segment }) => ({ label, value: segment })) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('0', '-1', '1.5', '1e3', '101', '99999999999999999999', ' 5', '5 ', '0x10', 'Infinity', '', '[]', '{}')
      .map((value) => ({ label: JSON.stringify(value), value: encodeURIComponent(value) })),
  },
  { weight: 1, arbitrary: fc.constantFrom(3_000, 12_000).map((length) => ({ label: `"x" x ${length}`, value: 'x'.repeat(length) })) },
);
