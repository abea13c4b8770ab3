/**
 * DkimKeys (shared/usecases/dkim-keys.ts), the send worker's key cache, with a fake domain repository, a
 * counting secret box and a fake clock: each sealed key is opened and parsed once per process, a domain's
 * facts are cached for DOMAIN_FACTS_TTL_MS (60 s) and re-read after, and a re-keyed domain gets a new key.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Domain } from '../../../shared/domain/domains/domain';
import type { SecretBox } from '../../../shared/secrets/secret-box';
import type { StoredDomain } from '../../../shared/store/domains';
import { DkimKeys, DOMAIN_FACTS_TTL_MS, type SigningKey } from '../../../shared/usecases/dkim-keys';

const T0 = new Date('2026-11-22T10:00:00.000Z').getTime();

/** A PKCS#8 PEM RSA key (1024 bits: fast, and the cache does not care). */
function pem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
}

function domain(overrides: Partial<Domain> = {}): Domain {
  return { id: 'dom_1', account_id: 'acc_1', name: 'acme.test', status: 'verified', tenant_id: null, dkim_selector: 's1', ...overrides } as Domain;
}

function world() {
  let now = T0;
  /** What findOwned answers, by `account|name`. */
  const stored = new Map<string, StoredDomain>();
  /** Plaintext PEM of each sealed string. */
  const sealed = new Map<string, string>();
  const finds: string[] = [];
  const opens: { sealed: string; context: Record<string, string> }[] = [];
  let failNextOpen = false;
  const secretBox: SecretBox = {
    seal: async () => {
      throw new Error('not used');
    },
    open: async (text, context) => {
      opens.push({ sealed: text, context });
      if (failNextOpen) {
        failNextOpen = false;
        throw new Error('KMS unavailable');
      }
      const plain = sealed.get(text);
      if (!plain) throw new Error('unknown sealed text');
      return plain;
    },
  };
  const keys = new DkimKeys({
    domains: {
      findOwned: async (accountId, name) => {
        finds.push(`${accountId}|${name}`);
        return stored.get(`${accountId}|${name}`) ?? null;
      },
    },
    secretBox,
    clock: { now: () => new Date(now) },
  });
  let n = 0;
  /** Stores the domain with a fresh key; returns the key's PEM. */
  const put = (d: Domain, key = pem()): string => {
    const text = `v1:test:${++n}`;
    sealed.set(text, key);
    stored.set(`${d.account_id}|${d.name}`, { domain: d, sealedPrivateKey: text });
    return key;
  };
  return {
    keys,
    put,
    stored,
    finds,
    opens,
    advance: (ms: number) => void (now += ms),
    failNextOpen: () => void (failNextOpen = true),
  };
}

function keyOf(result: SigningKey): KeyObject {
  if (result.kind !== 'key') throw new Error(`expected a key, got ${result.kind}`);
  return result.key;
}

const spki = (key: KeyObject) => createPublicKey(key).export({ type: 'spki', format: 'der' }).toString('base64');

describe('DkimKeys', () => {
  it('carries the domain\'s delivery settings (tracking, tls_mode) with its key', async () => {
    const w = world();
    w.put(domain({ open_tracking: true, click_tracking: false, tls_mode: 'enforced' }));
    expect(await w.keys.forSender('acc_1', 'acme.test')).toMatchObject({ kind: 'key', openTracking: true, clickTracking: false, requireTls: true });
    w.put(domain({ id: 'dom_2', name: 'other.test', open_tracking: false, click_tracking: true, tls_mode: 'opportunistic' }));
    expect(await w.keys.forSender('acc_1', 'other.test')).toMatchObject({ kind: 'key', openTracking: false, clickTracking: true, requireTls: false });
  });

  it('caches for the documented 60 s bound', () => {
    expect(DOMAIN_FACTS_TTL_MS).toBe(60_000);
  });

  it('reads the domain and opens and parses its sealed key once, for sequential and concurrent sends', async () => {
    const w = world();
    const plain = w.put(domain());
    const [a, b] = await Promise.all([w.keys.forSender('acc_1', 'acme.test'), w.keys.forSender('acc_1', 'acme.test')]);
    const c = await w.keys.forSender('acc_1', 'acme.test');
    expect(w.finds).toEqual(['acc_1|acme.test']);
    expect(w.opens).toEqual([{ sealed: 'v1:test:1', context: { purpose: 'dkim', domain_id: 'dom_1' } }]);
    expect(a).toEqual({ kind: 'key', domainId: 'dom_1', selector: 's1', key: expect.anything(), tenantId: null, openTracking: false, clickTracking: false, requireTls: false });
    // The same KeyObject every time (parsed once), and it is the stored key.
    expect(keyOf(b)).toBe(keyOf(a));
    expect(keyOf(c)).toBe(keyOf(a));
    expect(keyOf(a).type).toBe('private');
    expect(spki(keyOf(a))).toBe(createPublicKey(plain).export({ type: 'spki', format: 'der' }).toString('base64'));
  });

  it('keeps the domain facts for 60 s, then reads them again without re-opening an unchanged key', async () => {
    const w = world();
    w.put(domain());
    const first = keyOf(await w.keys.forSender('acc_1', 'acme.test'));
    w.advance(DOMAIN_FACTS_TTL_MS - 1);
    await w.keys.forSender('acc_1', 'acme.test');
    expect(w.finds).toHaveLength(1);

    w.advance(1); // 60 s after the read: stale
    const again = keyOf(await w.keys.forSender('acc_1', 'acme.test'));
    expect(w.finds).toHaveLength(2);
    expect(w.opens).toHaveLength(1); // same sealed text: the parsed key is reused
    expect(again).toBe(first);
  });

  it('signs with a domain unverified or deleted meanwhile for at most 60 s, then answers not_verified', async () => {
    const w = world();
    const d = domain();
    w.put(d);
    await w.keys.forSender('acc_1', 'acme.test');
    w.stored.set('acc_1|acme.test', { ...w.stored.get('acc_1|acme.test')!, domain: { ...d, status: 'failed' } as Domain });
    w.advance(30_000);
    expect((await w.keys.forSender('acc_1', 'acme.test')).kind).toBe('key');
    w.advance(30_000);
    expect(await w.keys.forSender('acc_1', 'acme.test')).toEqual({ kind: 'not_verified' });

    w.stored.delete('acc_1|acme.test');
    w.advance(DOMAIN_FACTS_TTL_MS);
    expect(await w.keys.forSender('acc_1', 'acme.test')).toEqual({ kind: 'not_verified' });
    expect(w.finds).toHaveLength(3);
  });

  it('gives a re-keyed domain a new key object once its facts are re-read', async () => {
    const w = world();
    const d = domain();
    w.put(d);
    const old = keyOf(await w.keys.forSender('acc_1', 'acme.test'));
    const newPem = w.put({ ...d, dkim_selector: 's2' });
    // Within the bound, the cached facts (old key) still answer.
    expect(keyOf(await w.keys.forSender('acc_1', 'acme.test'))).toBe(old);
    w.advance(DOMAIN_FACTS_TTL_MS);
    const result = await w.keys.forSender('acc_1', 'acme.test');
    const fresh = keyOf(result);
    expect(fresh).not.toBe(old);
    expect(spki(fresh)).not.toBe(spki(old));
    expect(spki(fresh)).toBe(createPublicKey(newPem).export({ type: 'spki', format: 'der' }).toString('base64'));
    expect(result).toMatchObject({ selector: 's2', domainId: 'dom_1' });
    expect(w.opens.map((o) => o.sealed)).toEqual(['v1:test:1', 'v1:test:2']);
  });

  it('keeps one entry per account and domain, each key opened once', async () => {
    const w = world();
    w.put(domain());
    w.put(domain({ id: 'dom_2', name: 'globex.test', tenant_id: 'ten_1' }));
    const acme = await w.keys.forSender('acc_1', 'acme.test');
    const globex = await w.keys.forSender('acc_1', 'globex.test');
    await w.keys.forSender('acc_1', 'globex.test');
    expect(globex).toMatchObject({ kind: 'key', domainId: 'dom_2', tenantId: 'ten_1' });
    expect(keyOf(globex)).not.toBe(keyOf(acme));
    // Another account asking for the same name is its own entry (and owns nothing here).
    expect(await w.keys.forSender('acc_2', 'acme.test')).toEqual({ kind: 'not_verified' });
    expect(w.finds).toEqual(['acc_1|acme.test', 'acc_1|globex.test', 'acc_2|acme.test']);
    expect(w.opens.map((o) => o.context.domain_id)).toEqual(['dom_1', 'dom_2']);
  });

  it('does not cache a failure: a key that could not be opened is opened again on the next send', async () => {
    const w = world();
    w.put(domain());
    w.failNextOpen();
    await expect(w.keys.forSender('acc_1', 'acme.test')).rejects.toThrow('KMS unavailable');
    const key = keyOf(await w.keys.forSender('acc_1', 'acme.test'));
    expect(key.type).toBe('private');
    expect(w.opens).toHaveLength(2);
    expect(w.finds).toHaveLength(2);
  });
});
