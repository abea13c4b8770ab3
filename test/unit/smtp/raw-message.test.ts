import { completeRawMessage } from '#shared/domain/mime/raw-message';
import { splitHeaderBlock } from '#shared/domain/mime/header-block';

const add = { emailId: 'msg_01ABC', messageIdDomain: 'acme.test', date: new Date('2030-01-01T09:00:00Z') };

describe('a raw message made ready to send', () => {
  it('adds X-Service-Message-Id, and Message-ID and Date only when the client gave none', () => {
    const out = completeRawMessage(Buffer.from('From: a@acme.test\r\nSubject: x\r\n\r\nbody\r\n'), add).toString();
    expect(out).toBe(
      'X-Service-Message-Id: msg_01ABC\r\nMessage-ID: <msg_01ABC@acme.test>\r\nDate: Tue, 01 Jan 2030 09:00:00 +0000\r\nFrom: a@acme.test\r\nSubject: x\r\n\r\nbody\r\n',
    );
    const kept = completeRawMessage(
      Buffer.from('Message-ID: <mine@acme.test>\nDate: Mon, 31 Dec 2029 10:00:00 +0000\nFrom: a@acme.test\n\nbody\n'),
      add,
    ).toString();
    expect(kept).toBe(
      'X-Service-Message-Id: msg_01ABC\nMessage-ID: <mine@acme.test>\nDate: Mon, 31 Dec 2029 10:00:00 +0000\nFrom: a@acme.test\n\nbody\n',
    );
  });

  it("sets the service's fields (managed unsubscribe), replacing the client's fields of those names", () => {
    const raw = Buffer.from(
      'From: a@acme.test\r\nList-Unsubscribe: <https://client.test/u>\r\nlist-unsubscribe-post: x\r\nMessage-ID: <m@a>\r\nDate: x\r\n\r\nbody\r\n',
    );
    const out = completeRawMessage(raw, {
      ...add,
      fields: { 'List-Unsubscribe': '<https://links.test/u/t>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    }).toString();
    expect(out).toBe(
      'X-Service-Message-Id: msg_01ABC\r\nList-Unsubscribe: <https://links.test/u/t>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\nFrom: a@acme.test\r\nMessage-ID: <m@a>\r\nDate: x\r\n\r\nbody\r\n',
    );
  });

  it('keeps a header-only message well formed', () => {
    const out = completeRawMessage(Buffer.from('From: a@acme.test\r\nMessage-ID: <m@a>\r\nDate: x'), add).toString();
    expect(out).toBe('X-Service-Message-Id: msg_01ABC\r\nFrom: a@acme.test\r\nMessage-ID: <m@a>\r\nDate: x\r\n\r\n');
  });
});

describe('the header block of a raw message', () => {
  it('splits fields with their folding and keeps the rest byte for byte', () => {
    const raw = Buffer.from('A: 1\r\nB: 2\r\n\t3\r\n\r\nbody\r\n\r\nmore');
    const { fields, rest, eol } = splitHeaderBlock(raw);
    expect(fields).toEqual([
      { name: 'a', text: 'A: 1\r\n' },
      { name: 'b', text: 'B: 2\r\n\t3\r\n' },
    ]);
    expect(rest.toString()).toBe('\r\nbody\r\n\r\nmore');
    expect(eol).toBe('\r\n');
  });
});
