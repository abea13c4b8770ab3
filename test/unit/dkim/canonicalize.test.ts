/** Relaxed canonicalization (RFC 6376 §3.4.2, §3.4.4; examples of §3.4.5). */
import { parseHeaderFields, relaxedBody, relaxedHeader, splitMessage } from '#shared/lib/dkim/canonicalize';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

test('RFC 6376 §3.4.5 example, relaxed', () => {
  const message = latin1('A: X\r\nB : Y\t\r\n\tZ  \r\n\r\n C \r\nD \t E\r\n\r\n\r\n');
  const { headers, body } = splitMessage(message);
  expect(headers.map((h) => relaxedHeader(h.line))).toEqual(['a:X', 'b:Y Z']);
  expect(relaxedBody(body).toString('latin1')).toBe(' C\r\nD E\r\n');
});

test('header: name lowercased, unfolded, whitespace runs as one space, trimmed; only SP and HTAB are whitespace', () => {
  expect(relaxedHeader('Subject:   Hello \r\n\t  World\t ')).toBe('subject:Hello World');
  expect(relaxedHeader('X-A: \xa0caf\xc3\xa0\xa0')).toBe('x-a:\xa0caf\xc3\xa0\xa0');
});

test('body: empty stays empty, a missing final line break is added, bare LF counts as a line break', () => {
  expect(relaxedBody(latin1('')).length).toBe(0);
  expect(relaxedBody(latin1('\r\n\r\n')).length).toBe(0);
  expect(relaxedBody(latin1('a')).toString('latin1')).toBe('a\r\n');
  expect(relaxedBody(latin1('a  b \nc\n\n')).toString('latin1')).toBe('a b\r\nc\r\n');
  expect(relaxedBody(latin1('x\xa0 \r\n')).toString('latin1')).toBe('x\xa0\r\n');
});

test('split: header fields with their continuation lines, body after the first empty line, line break style', () => {
  const crlf = splitMessage(latin1('From: a@b.test\r\nSubject: one\r\n two\r\n\r\nbody\r\n\r\nmore'));
  expect(crlf.headers).toEqual([
    { key: 'from', line: 'From: a@b.test' },
    { key: 'subject', line: 'Subject: one\r\n two' },
  ]);
  expect(crlf.body.toString('latin1')).toBe('body\r\n\r\nmore');
  expect(crlf.eol).toBe('\r\n');

  const lf = splitMessage(latin1('From: a@b.test\n\nbody\n'));
  expect(lf.body.toString('latin1')).toBe('body\n');
  expect(lf.eol).toBe('\n');

  const headersOnly = splitMessage(latin1('From: a@b.test\r\n'));
  expect(headersOnly.headers).toHaveLength(1);
  expect(headersOnly.body.length).toBe(0);
});

test('field names keep no trailing whitespace', () => {
  expect(parseHeaderFields('Subject : x').map((h) => h.key)).toEqual(['subject']);
});
