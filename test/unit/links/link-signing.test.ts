/** LinkSigner with an in-memory key table: lazy first key, racing creators, caches, rotation, resolving. */
import { newId } from '#shared/domain/ids';
import { CURRENT_KEY_TTL_MS, LinkSigner } from '#shared/usecases/links/link-signing';
import { FakeLinkKeys, fakeSecretBox, movableClock, signer } from './fakes';

const accountId = newId('acc');
const emailId = newId('msg');
const unsubscribeLink = {
  accountId,
  emailId,
  recipient: 'reader@example.com',
  scope: 'category' as const,
  category: 'product' as const,
  tenantId: null,
};

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('LinkSigner', () => {
  it('creates the first key lazily, once, and builds URLs under the base', async () => {
    const { signer: s, keys } = signer(undefined, undefined, 'https://links.example.test/');
    const [a, b] = await Promise.all([s.urls(), s.urls()]);
    expect(keys.calls.filter((call) => call.startsWith('create'))).toEqual(['create 1']);
    expect(keys.items.get('1')).toMatchObject({
      kid: '1',
      created_at: '2026-11-22T10:00:00.000Z',
      sealed_secret: expect.stringMatching(/^v1:fake:/),
    });
    expect(a.unsubscribeUrl(unsubscribeLink)).toMatch(/^https:\/\/links\.example\.test\/unsubscribe\/v2\.1\.[\w-]+\.[\w-]{43}$/);
    expect(b.openUrl({ accountId, emailId })).toMatch(/^https:\/\/links\.example\.test\/t\/open\/v2\.1\./);
    expect(a.clickUrl({ accountId, emailId, url: 'https://example.com/' })).toMatch(/^https:\/\/links\.example\.test\/t\/click\/v2\.1\./);
  });

  it("two processes racing to create the first key end with one key (the loser reads the winner's)", async () => {
    const keys = new FakeLinkKeys();
    const first = signer(keys).signer;
    const second = signer(keys).signer;
    // Both read "no key" before either creates one.
    const current = keys.current.bind(keys);
    let reads = 0;
    keys.current = async () => (++reads <= 2 ? null : current());
    const [urlsA, urlsB] = await Promise.all([first.urls(), second.urls()]);
    expect(keys.items.size).toBe(1);
    const tokenA = tokenOf(urlsA.openUrl({ accountId, emailId }));
    const tokenB = tokenOf(urlsB.openUrl({ accountId, emailId }));
    for (const resolver of [first, second, signer(keys).signer]) {
      for (const token of [tokenA, tokenB])
        expect(await resolver.resolve(token, 'open')).toEqual({ ok: true, kid: '1', link: { accountId, emailId } });
    }
  });

  it("builds URLs under a sending domain's link domain when given one, which resolve as the others", async () => {
    const { signer: s } = signer();
    const own = await s.urls('Links.Acme.test.');
    const click = own.clickUrl({ accountId, emailId, url: 'https://example.com/a' });
    expect(click).toMatch(/^https:\/\/links\.acme\.test\/t\/click\/v2\.1\./);
    expect(own.openUrl({ accountId, emailId })).toMatch(/^https:\/\/links\.acme\.test\/t\/open\//);
    expect(own.unsubscribeUrl(unsubscribeLink)).toMatch(/^https:\/\/links\.acme\.test\/unsubscribe\//);
    expect(await s.resolve(tokenOf(click), 'click')).toMatchObject({ ok: true, link: { url: 'https://example.com/a' } });
    const fallback = await s.urls(null);
    expect(fallback.openUrl({ accountId, emailId })).not.toContain('links.acme.test');
  });

  it('resolves a token of the expected kind only; forged and unknown-key tokens are refused', async () => {
    const { signer: s, keys } = signer();
    const urls = await s.urls();
    const token = tokenOf(urls.unsubscribeUrl(unsubscribeLink));
    expect(await s.resolve(token, 'unsubscribe')).toEqual({ ok: true, kid: '1', link: unsubscribeLink });
    expect(await s.resolve(token, 'click')).toEqual({ ok: false, failure: 'wrong_kind' });
    expect(await s.resolve(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, 'unsubscribe')).toEqual({
      ok: false,
      failure: 'bad_signature',
    });
    expect(await s.resolve(token.replace(/^v2\.1\./, 'v2.9.'), 'unsubscribe')).toEqual({ ok: false, failure: 'unknown_key' });
    expect(await s.resolve('not-a-token', 'unsubscribe')).toEqual({ ok: false, failure: 'malformed' });
    // A kid that names no key is looked up (never cached as missing), a malformed token never.
    expect(keys.calls.filter((call) => call.startsWith('get'))).toEqual(['get 9']);
  });

  it('opens each key once per process (immutable), looked up by kid', async () => {
    const keys = new FakeLinkKeys();
    const token = tokenOf((await signer(keys).signer.urls()).openUrl({ accountId, emailId }));
    const reader = signer(keys).signer;
    const opened = fakeSecretBox.opened;
    for (let i = 0; i < 5; i++) expect((await reader.resolve(token, 'open')).ok).toBe(true);
    expect(keys.calls.filter((call) => call === 'get 1')).toHaveLength(1);
    expect(fakeSecretBox.opened - opened).toBe(1);
  });

  it('rotation adds the next key; links signed before it keep working; other processes sign with it within the cache time', async () => {
    const keys = new FakeLinkKeys();
    const clock = movableClock();
    const worker = signer(keys, clock).signer;
    const before = tokenOf((await worker.urls()).clickUrl({ accountId, emailId, url: 'https://example.com/before' }));

    const operator = signer(keys, clock).signer;
    expect(await operator.rotateLinkKey()).toEqual({ kid: '2', created_at: '2026-11-22T10:00:00.000Z' });
    expect(await operator.rotateLinkKey()).toEqual({ kid: '3', created_at: '2026-11-22T10:00:00.000Z' });
    expect(tokenOf((await operator.urls()).openUrl({ accountId, emailId }))).toMatch(/^v2\.3\./);

    // The warm worker keeps its key until the cache time passes, then signs with the newest.
    expect(tokenOf((await worker.urls()).openUrl({ accountId, emailId }))).toMatch(/^v2\.1\./);
    clock.advance(CURRENT_KEY_TTL_MS);
    const after = tokenOf((await worker.urls()).clickUrl({ accountId, emailId, url: 'https://example.com/after' }));
    expect(after).toMatch(/^v2\.3\./);

    const fresh = signer(keys, clock).signer;
    expect(await fresh.resolve(before, 'click')).toMatchObject({ ok: true, kid: '1', link: { url: 'https://example.com/before' } });
    expect(await fresh.resolve(after, 'click')).toMatchObject({ ok: true, kid: '3', link: { url: 'https://example.com/after' } });
  });

  it('refuses to build URLs without LINKS_BASE_URL', async () => {
    const s = new LinkSigner({ linkKeys: new FakeLinkKeys(), secretBox: fakeSecretBox, clock: movableClock(), baseUrl: '' });
    await expect(s.urls()).rejects.toThrow(/LINKS_BASE_URL/);
  });

  it('does not keep a failed key load: the next call tries again', async () => {
    const keys = new FakeLinkKeys();
    const current = keys.current.bind(keys);
    let fail = true;
    keys.current = async () => {
      if (fail) throw new Error('table unavailable');
      return current();
    };
    const { signer: s } = signer(keys);
    await expect(s.urls()).rejects.toThrow('table unavailable');
    fail = false;
    await expect(s.urls()).resolves.toBeDefined();
  });
});
