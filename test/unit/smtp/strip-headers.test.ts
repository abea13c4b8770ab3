import { isStrippedHeader, stripTransportHeaders, STRIPPED_HEADERS } from '#shared/domain/mime/transport-headers';

const message = (lines: string[], body = 'Hello\r\n.. dots\r\nBcc: not a header\r\n') =>
  Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`, 'latin1');

describe('stripping transport headers from a relayed message', () => {
  it('removes the dangerous fields, folded lines included, and keeps every other byte', () => {
    const raw = message([
      'Received: from client.example (1.2.3.4) by mx',
      'From: Acme <hello@acme.test>',
      'Bcc: secret@example.org,',
      '\tother@example.org',
      'To: a@example.org',
      'Return-Path: <bounce@evil.test>',
      'DKIM-Signature: v=1; a=rsa-sha256; d=evil.test;',
      ' b=abc',
      'ARC-Seal: i=1; cv=none',
      'Authentication-Results: mx; dkim=pass',
      'X-SES-CONFIGURATION-SET: other',
      'x-ses-message-tags: a=b',
      'X-Service-Tags: a=b',
      'Sender: someone@evil.test',
      'Subject: Hi',
      'List-Unsubscribe: <mailto:u@acme.test>',
      'X-Campaign: spring',
    ]);
    const { raw: out, stripped } = stripTransportHeaders(raw);
    expect(out.toString('latin1')).toBe(
      message([
        'Received: from client.example (1.2.3.4) by mx',
        'From: Acme <hello@acme.test>',
        'To: a@example.org',
        'Subject: Hi',
        'List-Unsubscribe: <mailto:u@acme.test>',
        'X-Campaign: spring',
      ]).toString('latin1'),
    );
    expect(stripped).toEqual([
      'bcc',
      'return-path',
      'dkim-signature',
      'arc-seal',
      'authentication-results',
      'x-ses-configuration-set',
      'x-ses-message-tags',
      'x-service-tags',
      'sender',
    ]);
  });

  it('returns the very same buffer when nothing is stripped, 8-bit bytes and LF line ends included', () => {
    const raw = Buffer.concat([Buffer.from('From: a@b.test\nSubject: Caf', 'latin1'), Buffer.from('é\n\nbody é\n', 'utf8')]);
    const { raw: out, stripped } = stripTransportHeaders(raw);
    expect(out).toBe(raw);
    expect(stripped).toEqual([]);
  });

  it('only looks at the top-level header: a part header named Bcc in the body stays', () => {
    const raw = message(
      ['From: a@b.test', 'Content-Type: multipart/mixed; boundary=x'],
      '--x\r\nBcc: part@example.org\r\n\r\nhi\r\n--x--\r\n',
    );
    expect(stripTransportHeaders(raw).raw).toBe(raw);
  });

  it('derives its list from the API blocked headers, minus the message fields and trace/unsubscribe', () => {
    expect(STRIPPED_HEADERS).toEqual(
      expect.arrayContaining(['bcc', 'sender', 'return-path', 'delivered-to', 'dkim-signature', 'feedback-id', 'received-spf']),
    );
    for (const kept of [
      'from',
      'to',
      'cc',
      'subject',
      'date',
      'message-id',
      'content-type',
      'mime-version',
      'received',
      'list-unsubscribe',
      'reply-to',
      'x-mailer',
    ]) {
      expect(isStrippedHeader(kept)).toBe(false);
    }
    for (const gone of ['ARC-Message-Signature', 'X-SES-SOURCE-ARN', 'X-Ses-Tenant', 'x-ses-anything', 'X-Service-Anything'])
      expect(isStrippedHeader(gone)).toBe(true);
  });
});
