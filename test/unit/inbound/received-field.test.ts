/** The Received trace field of the MX listener (shared/adapters/received-mail/received-field.ts). */
import { receivedField } from '#shared/adapters/received-mail/received-field';

const AT = new Date('2024-01-02T03:04:05Z');
const base = {
  helo: 'mail.sender.example',
  remoteAddress: '192.0.2.10',
  by: 'mx.ours.example',
  tls: false,
  id: 'inb_01HQ',
  recipients: ['a@inbound.example.com'],
  at: AT,
};

describe('receivedField', () => {
  it('writes the whole field, folded with CRLF + TAB and ending in CRLF', () => {
    expect(receivedField(base)).toBe(
      'Received: from mail.sender.example ([192.0.2.10])\r\n\tby mx.ours.example with ESMTP id inb_01HQ\r\n\tfor <a@inbound.example.com>;\r\n\tTue, 02 Jan 2024 03:04:05 +0000\r\n',
    );
  });

  it('is folded: every line but the first starts with a TAB, no bare LF, lines well under 998 octets', () => {
    const field = receivedField({ ...base, helo: 'h'.repeat(1000), recipients: [`${'r'.repeat(1000)}@example.com`] });
    expect(field.endsWith('\r\n')).toBe(true);
    expect(field.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = field.slice(0, -2).split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line.startsWith('\t')).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThan(998);
  });

  it('says ESMTPS over STARTTLS and ESMTP without', () => {
    expect(receivedField({ ...base, tls: true })).toContain(' with ESMTPS id ');
    expect(receivedField({ ...base, tls: false })).toContain(' with ESMTP id ');
    expect(receivedField({ ...base, tls: false })).not.toContain('ESMTPS');
  });

  it('names the recipient only when there is exactly one', () => {
    expect(receivedField(base)).toContain('for <a@inbound.example.com>;');
    const two = receivedField({ ...base, recipients: ['a@inbound.example.com', 'b@inbound.example.com'] });
    expect(two).not.toContain('for <');
    expect(two).not.toContain('a@inbound.example.com');
    expect(two).toContain('id inb_01HQ;\r\n\t');
    expect(receivedField({ ...base, recipients: [] })).not.toContain('for <');
  });

  it('strips non-ASCII, spaces and control characters (no header injection), and says unknown when nothing is left', () => {
    const field = receivedField({
      ...base,
      helo: 'mäil.exämple\r\nX-Injected: yes',
      remoteAddress: '192.0.2.10 ',
      recipients: ['jösé@inbound.example.com'],
    });
    expect(field).toContain('from mil.exmpleX-Injected:yes ([192.0.2.10])');
    expect(field).toContain('for <js@inbound.example.com>;');
    expect(field).not.toContain('\r\nX-Injected');
    expect(/^[\x00-\x7f]*$/.test(field)).toBe(true);
    expect(receivedField({ ...base, helo: 'ñññ' })).toContain('from unknown ([');
  });
});
