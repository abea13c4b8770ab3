/**
 * The forwarded message (shared/domain/inbound/forwarded-message.ts; docs/inbound.md, "Forwarding"): From the
 * sending domain named after the original sender, Reply-To the original From (or its own Reply-To), the
 * transport and authentication fields gone, the rest of the message byte for byte; loops refused.
 */
import { simpleParser } from 'mailparser';
import { forwardedFrom, forwardedMessage, MAX_FORWARD_HOPS } from '#shared/domain/inbound/forwarded-message';

const BODY = 'Hello,\r\n\r\nthe invoice is attached.\r\n';
const original = (extra = '') =>
  Buffer.from(
    'Received: from mx.sender.example by mx.inbound.acme.example\r\n' +
      'DKIM-Signature: v=1; a=rsa-sha256; d=sender.example; s=mail; b=abc\r\n' +
      'Return-Path: <zoe@sender.example>\r\n' +
      'Authentication-Results: mx.sender.example; spf=pass\r\n' +
      'ARC-Seal: i=1; a=rsa-sha256; d=sender.example; s=mail; cv=none; b=xyz\r\n' +
      'From: =?UTF-8?Q?Zo=C3=AB?= <zoe@sender.example>\r\n' +
      'To: billing@inbound.acme.example\r\n' +
      'Subject: Invoice 42\r\n' +
      'Message-ID: <m1@sender.example>\r\n' +
      extra +
      'MIME-Version: 1.0\r\n' +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      '\r\n' +
      BODY,
    'utf8',
  );

const input = (raw: Buffer) => ({
  raw,
  recipient: 'billing@inbound.acme.example',
  sendingDomain: 'acme.example',
  to: ['ops@example.org'],
  originalFrom: { email: 'zoe@sender.example', name: 'Zoë' },
});

describe('forwardedMessage', () => {
  it('is From the sending domain, Reply-To the original sender, without the original’s signatures and trace of transport', async () => {
    const built = forwardedMessage(input(original()));
    if (built.kind !== 'forward') throw new Error(built.reason);
    expect(built.from).toEqual({ email: 'billing@acme.example', name: 'Zoë via billing@inbound.acme.example' });
    const text = built.raw.toString('latin1');
    const header = text.split('\r\n\r\n')[0]!;
    for (const gone of ['DKIM-Signature', 'Return-Path', 'Authentication-Results', 'ARC-Seal']) expect(header).not.toContain(`${gone}:`);
    for (const kept of [
      'Received: from mx.sender.example',
      'To: billing@inbound.acme.example',
      'Subject: Invoice 42',
      'Message-ID: <m1@sender.example>',
    ])
      expect(header).toContain(kept);
    expect(header).toContain('Reply-To: =?UTF-8?Q?Zo=C3=AB?= <zoe@sender.example>');
    expect(header).toContain('X-Forwarded-For: billing@inbound.acme.example ops@example.org');
    expect(header).toContain('X-Forwarded-To: ops@example.org');
    // One From (the new one), the body untouched.
    expect(header.match(/^From:/gm)).toHaveLength(1);
    expect(text.endsWith(`\r\n\r\n${BODY}`)).toBe(true);
    const parsed = await simpleParser(built.raw);
    expect(parsed.from?.value).toEqual([{ address: 'billing@acme.example', name: 'Zoë via billing@inbound.acme.example' }]);
    expect(parsed.replyTo?.value).toEqual([{ address: 'zoe@sender.example', name: 'Zoë' }]);
  });

  it('keeps a Reply-To the original has', () => {
    const built = forwardedMessage(input(original('Reply-To: accounts@sender.example\r\n')));
    if (built.kind !== 'forward') throw new Error(built.reason);
    const header = built.raw.toString('latin1').split('\r\n\r\n')[0]!;
    expect(header.match(/^Reply-To:.*$/gm)).toEqual(['Reply-To: accounts@sender.example']);
  });

  it('matches the message’s own line breaks', () => {
    const bare = Buffer.from(original().toString('utf8').replace(/\r\n/g, '\n'), 'utf8');
    const built = forwardedMessage(input(bare));
    if (built.kind !== 'forward') throw new Error(built.reason);
    expect(built.raw.includes('\r')).toBe(false);
  });

  it('refuses a loop: a message this address forwarded already, or forwarded too many times', () => {
    const again = forwardedMessage(input(original('X-Forwarded-For: billing@inbound.acme.example ops@example.org\r\n')));
    expect(again).toEqual({ kind: 'loop', reason: 'already forwarded by billing@inbound.acme.example' });
    const hops = Array.from({ length: MAX_FORWARD_HOPS }, (_, i) => `X-Forwarded-For: a${i}@elsewhere.example b@example.org\r\n`).join('');
    expect(forwardedMessage(input(original(hops)))).toEqual({ kind: 'loop', reason: `forwarded ${MAX_FORWARD_HOPS} times already` });
    const fewer = Array.from({ length: MAX_FORWARD_HOPS - 1 }, (_, i) => `X-Forwarded-For: a${i}@elsewhere.example b@example.org\r\n`).join(
      '',
    );
    expect(forwardedMessage(input(original(fewer))).kind).toBe('forward');
  });
});

describe('forwardedFrom', () => {
  it('names the original sender (or its address, or nobody) and cuts a long name', () => {
    expect(forwardedFrom('team-x+1@in.acme.example', 'acme.example', { email: 'a@b.example' })).toEqual({
      email: 'team-x+1@acme.example',
      name: 'a@b.example via team-x+1@in.acme.example',
    });
    expect(forwardedFrom('x@in.acme.example', 'acme.example', null).name).toBe('unknown sender via x@in.acme.example');
    const long = forwardedFrom('x@in.acme.example', 'acme.example', { email: 'a@b.example', name: 'N'.repeat(300) });
    expect(long.name).toHaveLength(120);
    expect(long.name?.endsWith('…')).toBe(true);
  });
});
