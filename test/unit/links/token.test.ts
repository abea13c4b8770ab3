/** The link token: round trips, opaque (names nobody), legacy v1 tokens still resolve, every part tampered with, unknown keys, size and shape limits. */
import { randomBytes } from 'node:crypto';
import { newId } from '#shared/domain/ids';
import {
  encodeLegacyLinkToken,
  encodeLinkToken,
  MAX_TOKEN_BYTES,
  tokenKid,
  verifyLinkToken,
  type SignedLink,
} from '#shared/domain/links/token';

const key = { kid: '1', secret: randomBytes(32) };
const keys = new Map([[key.kid, key.secret]]);
const accountId = newId('acc');
const emailId = newId('msg');

const LINKS: SignedLink[] = [
  {
    kind: 'unsubscribe',
    link: {
      accountId,
      emailId,
      recipient: 'reader@example.com',
      scope: 'category',
      category: 'newsletter',
      tenantId: 'ten_01JB0000000000000000000000',
    },
  },
  {
    kind: 'unsubscribe',
    link: { accountId, emailId, recipient: 'reader@example.com', scope: 'all', category: 'transactional', tenantId: null },
  },
  { kind: 'open', link: { accountId, emailId } },
  { kind: 'click', link: { accountId, emailId, url: 'https://example.com/a path?q=1&r=ü#frag' } },
];

/** One character of `text` at `index` replaced by another of the base64url alphabet. */
function flip(text: string, index: number): string {
  const c = text[index]!;
  return text.slice(0, index) + (c === 'A' ? 'B' : 'A') + text.slice(index + 1);
}

describe('link tokens', () => {
  it.each(LINKS.map((link) => [link.kind, link] as const))('round-trip a %s link', (_kind, link) => {
    const token = encodeLinkToken(key, link);
    expect(token).toMatch(/^v2\.1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    // URL-path safe: nothing to escape.
    expect(encodeURIComponent(token)).toBe(token);
    expect(tokenKid(token)).toBe('1');
    expect(verifyLinkToken(token, keys)).toEqual({ ok: true, kid: '1', signed: link });
    expect(verifyLinkToken(token, (kid) => (kid === '1' ? key.secret : undefined))).toEqual({ ok: true, kid: '1', signed: link });
  });

  it.each(LINKS.map((link) => [link.kind, link] as const))(
    'a %s token names nobody: no address, id or URL in it, in any encoding',
    (_kind, link) => {
      const token = encodeLinkToken(key, link);
      const [, , sealed] = token.split('.') as [string, string, string, string];
      const readable = [token, Buffer.from(sealed, 'base64url').toString('latin1'), Buffer.from(sealed, 'base64url').toString('utf8')]
        .join('\n')
        .toLowerCase();
      for (const secret of [
        'reader@example.com',
        'reader',
        accountId.toLowerCase(),
        emailId.toLowerCase(),
        'ten_01jb',
        'example.com',
        '"k"',
        'newsletter',
      ]) {
        expect({ secret, found: readable.includes(secret) }).toEqual({ secret, found: false });
      }
      // Deterministic: the same link under the same key is the same token (a message composed again is the same).
      expect(encodeLinkToken(key, link)).toBe(token);
    },
  );

  it.each(LINKS.map((link) => [link.kind, link] as const))('a legacy v1 %s token (mail sent before v2) still resolves', (_kind, link) => {
    const legacy = encodeLegacyLinkToken(key, link);
    expect(legacy).toMatch(/^v1\.1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(Buffer.from(legacy.split('.')[2]!, 'base64url').toString('utf8'))).toMatchObject({ a: accountId, e: emailId });
    expect(verifyLinkToken(legacy, keys)).toEqual({ ok: true, kid: '1', signed: link });
    const [, kid, payload, mac] = legacy.split('.') as [string, string, string, string];
    // A legacy MAC does not make a v2 token, nor the reverse.
    expect(verifyLinkToken(['v2', kid, payload, mac].join('.'), keys)).toEqual({ ok: false, failure: 'bad_signature' });
    const [, , sealed, tag] = encodeLinkToken(key, link).split('.') as [string, string, string, string];
    expect(verifyLinkToken(['v1', kid, sealed, tag].join('.'), keys)).toEqual({ ok: false, failure: 'bad_signature' });
  });

  it('refuses a token with any part altered', () => {
    const token = encodeLinkToken(key, LINKS[3]!);
    const [version, kid, payload, mac] = token.split('.') as [string, string, string, string];
    expect(verifyLinkToken(['v3', kid, payload, mac].join('.'), keys)).toEqual({ ok: false, failure: 'malformed' });
    expect(verifyLinkToken([version, '2', payload, mac].join('.'), new Map([...keys, ['2', randomBytes(32)]]))).toEqual({
      ok: false,
      failure: 'bad_signature',
    });
    for (let i = 0; i < payload.length; i += 7) {
      expect(verifyLinkToken([version, kid, flip(payload, i), mac].join('.'), keys)).toEqual({ ok: false, failure: 'bad_signature' });
    }
    // Every character of the MAC, the last included (whose low bits a lenient decoder would ignore).
    for (let i = 0; i < mac.length; i++) {
      expect(verifyLinkToken([version, kid, payload, flip(mac, i)].join('.'), keys)).toEqual({ ok: false, failure: 'bad_signature' });
    }
    // A payload signed by someone else's key.
    const forged = encodeLinkToken({ kid: '1', secret: randomBytes(32) }, LINKS[3]!);
    expect(verifyLinkToken(forged, keys)).toEqual({ ok: false, failure: 'bad_signature' });
  });

  it('answers unknown_key for a kid it has no key for, and malformed for anything not shaped as a token', () => {
    const token = encodeLinkToken({ kid: '7', secret: randomBytes(32) }, LINKS[2]!);
    expect(verifyLinkToken(token, keys)).toEqual({ ok: false, failure: 'unknown_key' });
    const [, , payload, mac] = encodeLinkToken(key, LINKS[2]!).split('.');
    for (const bad of [
      '',
      'v2',
      'v2.1.x',
      `v2.1.${payload}`,
      `v2.1.${payload}.${mac}.extra`,
      `v2.01.${payload}.${mac}`,
      `v2.0.${payload}.${mac}`,
      `v2.-1.${payload}.${mac}`,
      `v2.1.${payload}.${mac!.slice(1)}`,
      `v2.1.${payload}+.${mac}`,
      `v2.1.${payload}.${mac!.slice(1)}=`,
      `v2.1..${mac}`,
      `v2.1.${payload}.${mac}`.replace('.', '%2E'),
    ]) {
      expect({ bad, result: verifyLinkToken(bad, keys) }).toEqual({ bad, result: { ok: false, failure: 'malformed' } });
      expect(tokenKid(bad)).toBeNull();
    }
  });

  it('refuses tokens over 4 KB unread, and never signs one', () => {
    const huge = `v2.1.${'A'.repeat(MAX_TOKEN_BYTES)}.${'A'.repeat(43)}`;
    expect(
      verifyLinkToken(huge, () => {
        throw new Error('no key lookup for an oversized token');
      }),
    ).toEqual({ ok: false, failure: 'malformed' });
    // The longest URL a click link takes still fits.
    const url = `https://example.com/${'x'.repeat(2000 - 20)}`;
    expect(url).toHaveLength(2000);
    expect(encodeLinkToken(key, { kind: 'click', link: { accountId, emailId, url } }).length).toBeLessThanOrEqual(MAX_TOKEN_BYTES);
  });

  it('signs only what the service would: http(s) URLs up to 2000 characters, ids of the right kind, no category opt-out of transactional mail', () => {
    const refused: SignedLink[] = [
      { kind: 'click', link: { accountId, emailId, url: 'javascript:alert(1)' } },
      { kind: 'click', link: { accountId, emailId, url: 'mailto:a@example.com' } },
      { kind: 'click', link: { accountId, emailId, url: `https://example.com/${'x'.repeat(2000)}` } },
      { kind: 'open', link: { accountId: emailId, emailId } },
      {
        kind: 'unsubscribe',
        link: { accountId, emailId, recipient: 'Reader@Example.com', scope: 'all', category: 'transactional', tenantId: null },
      },
      {
        kind: 'unsubscribe',
        link: { accountId, emailId, recipient: 'reader@example.com', scope: 'category', category: 'transactional', tenantId: null },
      },
    ];
    for (const link of refused) expect(() => encodeLinkToken(key, link)).toThrow(/Cannot sign/);
    expect(() => encodeLinkToken({ kid: '1', secret: randomBytes(16) }, LINKS[2]!)).toThrow(/32 bytes/);
    expect(() => encodeLinkToken({ kid: 'a.b', secret: key.secret }, LINKS[2]!)).toThrow(/key id/);
  });
});
