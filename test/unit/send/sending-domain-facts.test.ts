/**
 * SendingDomainFactsCache (shared/usecases/delivery/sending-domain-facts.ts), the send worker's cache of sending-domain facts, with a fake
 * domain repository and a fake clock: a domain's facts are read once and cached for DOMAIN_FACTS_TTL_MS
 * (60 s), then re-read; its sealed key is never opened (SES signs with it: no secret box is given at all).
 */
import type { Domain } from '#shared/domain/domains/domain';
import type { StoredDomain } from '#shared/adapters/store/domains/stored-domain';
import { DOMAIN_FACTS_TTL_MS, SendingDomainFactsCache } from '#shared/usecases/delivery/sending-domain-facts';

const T0 = new Date('2026-11-22T10:00:00.000Z').getTime();

function domain(overrides: Partial<Domain> = {}): Domain {
  return {
    id: 'dom_1',
    account_id: 'acc_1',
    name: 'acme.test',
    status: 'verified',
    tenant_id: null,
    dkim_selector: 's1',
    ...overrides,
  } as Domain;
}

function world() {
  let now = T0;
  /** What findOwned answers, by `account|name`. */
  const stored = new Map<string, StoredDomain>();
  const finds: string[] = [];
  let failNextFind = false;
  const facts = new SendingDomainFactsCache({
    domains: {
      findOwned: async (accountId, name) => {
        finds.push(`${accountId}|${name}`);
        if (failNextFind) {
          failNextFind = false;
          throw new Error('DynamoDB unavailable');
        }
        return stored.get(`${accountId}|${name}`) ?? null;
      },
    },
    clock: { now: () => new Date(now) },
  });
  let n = 0;
  const put = (d: Domain): void => void stored.set(`${d.account_id}|${d.name}`, { domain: d, sealedPrivateKey: `v1:test:${++n}` });
  return {
    facts,
    put,
    stored,
    finds,
    advance: (ms: number) => {
      now += ms;
    },
    failNextFind: () => {
      failNextFind = true;
    },
  };
}

describe('SendingDomainFactsCache', () => {
  it("carries the domain's delivery settings (tracking, tls_mode)", async () => {
    const w = world();
    w.put(domain({ open_tracking: true, click_tracking: false, tls_mode: 'enforced' }));
    expect(await w.facts.of('acc_1', 'acme.test')).toMatchObject({
      kind: 'verified',
      openTracking: true,
      clickTracking: false,
      requireTls: true,
    });
    w.put(domain({ id: 'dom_2', name: 'other.test', open_tracking: false, click_tracking: true, tls_mode: 'opportunistic' }));
    expect(await w.facts.of('acc_1', 'other.test')).toMatchObject({
      kind: 'verified',
      openTracking: false,
      clickTracking: true,
      requireTls: false,
    });
  });

  it('caches for the documented 60 s bound', () => {
    expect(DOMAIN_FACTS_TTL_MS).toBe(60_000);
  });

  it('reads the domain once for sequential and concurrent sends, and never its key', async () => {
    const w = world();
    w.put(domain());
    const [a, b] = await Promise.all([w.facts.of('acc_1', 'acme.test'), w.facts.of('acc_1', 'acme.test')]);
    const c = await w.facts.of('acc_1', 'acme.test');
    expect(w.finds).toEqual(['acc_1|acme.test']);
    expect(a).toEqual({
      kind: 'verified',
      domainId: 'dom_1',
      selector: 's1',
      tenantId: null,
      openTracking: false,
      clickTracking: false,
      requireTls: false,
      linkHost: null,
    });
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('keeps the domain facts for 60 s, then reads them again', async () => {
    const w = world();
    w.put(domain());
    await w.facts.of('acc_1', 'acme.test');
    w.advance(DOMAIN_FACTS_TTL_MS - 1);
    await w.facts.of('acc_1', 'acme.test');
    expect(w.finds).toHaveLength(1);
    w.advance(1); // 60 s after the read: stale
    await w.facts.of('acc_1', 'acme.test');
    expect(w.finds).toHaveLength(2);
  });

  it('sends for a domain unverified or deleted meanwhile for at most 60 s, then answers not_verified', async () => {
    const w = world();
    const d = domain();
    w.put(d);
    await w.facts.of('acc_1', 'acme.test');
    w.stored.set('acc_1|acme.test', { ...w.stored.get('acc_1|acme.test')!, domain: { ...d, status: 'failed' } as Domain });
    w.advance(30_000);
    expect((await w.facts.of('acc_1', 'acme.test')).kind).toBe('verified');
    w.advance(30_000);
    expect(await w.facts.of('acc_1', 'acme.test')).toEqual({ kind: 'not_verified' });

    w.stored.delete('acc_1|acme.test');
    w.advance(DOMAIN_FACTS_TTL_MS);
    expect(await w.facts.of('acc_1', 'acme.test')).toEqual({ kind: 'not_verified' });
    expect(w.finds).toHaveLength(3);
  });

  it('gives a re-keyed domain its new selector once its facts are re-read', async () => {
    const w = world();
    const d = domain();
    w.put(d);
    await w.facts.of('acc_1', 'acme.test');
    w.put({ ...d, dkim_selector: 's2' });
    expect(await w.facts.of('acc_1', 'acme.test')).toMatchObject({ selector: 's1' });
    w.advance(DOMAIN_FACTS_TTL_MS);
    expect(await w.facts.of('acc_1', 'acme.test')).toMatchObject({ selector: 's2', domainId: 'dom_1' });
  });

  it('keeps one entry per account and domain', async () => {
    const w = world();
    w.put(domain());
    w.put(domain({ id: 'dom_2', name: 'globex.test', tenant_id: 'ten_1' }));
    await w.facts.of('acc_1', 'acme.test');
    const globex = await w.facts.of('acc_1', 'globex.test');
    await w.facts.of('acc_1', 'globex.test');
    expect(globex).toMatchObject({ kind: 'verified', domainId: 'dom_2', tenantId: 'ten_1' });
    // Another account asking for the same name is its own entry (and owns nothing here).
    expect(await w.facts.of('acc_2', 'acme.test')).toEqual({ kind: 'not_verified' });
    expect(w.finds).toEqual(['acc_1|acme.test', 'acc_1|globex.test', 'acc_2|acme.test']);
  });

  it('does not cache a failure: a domain that could not be read is read again on the next send', async () => {
    const w = world();
    w.put(domain());
    w.failNextFind();
    await expect(w.facts.of('acc_1', 'acme.test')).rejects.toThrow('DynamoDB unavailable');
    expect((await w.facts.of('acc_1', 'acme.test')).kind).toBe('verified');
    expect(w.finds).toHaveLength(2);
  });
});
