/**
 * Which account receives mail for an address (shared/usecases/inbound/receiving-domains.ts), with a fake
 * domains repository that counts its reads and a clock the test moves.
 */
import type { Domain } from '#shared/domain/domains/domain';
import type { StoredDomain } from '#shared/adapters/store/domains/stored-domain';
import { ReceivingDomains } from '#shared/usecases/inbound/receiving-domains';

const T0 = Date.parse('2024-01-02T03:04:05Z');

function domain(overrides: Partial<Domain> = {}): Domain {
  return {
    id: 'dom_1',
    account_id: 'acc_1',
    name: 'example.com',
    status: 'verified',
    tenant_id: 'ten_1',
    tenant: 'customer-1',
    records: [],
    dkim_selector: 's1',
    dkim_public_key: 'AAAA',
    ownership_token: 'token',
    open_tracking: false,
    click_tracking: false,
    tls_mode: 'opportunistic',
    inbound_enabled: true,
    inbound_subdomain: 'inbound.example.com',
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    verified_at: '2024-01-01T00:00:00.000Z',
    last_checked_at: null,
    provider: null,
    ...overrides,
  };
}

function setup(stored: Domain | null = domain()) {
  const state = {
    now: T0,
    stored,
    claim: stored ? { account_id: stored.account_id, domain_id: stored.id } : null,
    fail: null as Error | null,
  };
  const reads = { claimOf: [] as string[], get: [] as string[] };
  const receiving = new ReceivingDomains({
    domains: {
      async claimOf(name) {
        reads.claimOf.push(name);
        if (state.fail) throw state.fail;
        return state.claim;
      },
      async get(domainId): Promise<StoredDomain | null> {
        reads.get.push(domainId);
        if (state.fail) throw state.fail;
        return state.stored && state.stored.id === domainId ? { domain: state.stored, sealedPrivateKey: 'sealed' } : null;
      },
    },
    clock: { now: () => new Date(state.now) },
  });
  const readCount = () => reads.claimOf.length + reads.get.length;
  return { receiving, state, reads, readCount };
}

const EXPECTED = {
  account_id: 'acc_1',
  domain_id: 'dom_1',
  tenant_id: 'ten_1',
  tenant: 'customer-1',
  name: 'inbound.example.com',
  routes: [],
};

describe('ReceivingDomains.forAddress', () => {
  it('hands out the domain’s routes with it (the MX listener refuses what a refuse route matches)', async () => {
    const routes = [{ match: { recipient: 'closed' }, action: { type: 'refuse' as const } }];
    const { receiving } = setup(domain({ inbound_routes: routes }));
    expect(await receiving.forAddress('a@inbound.example.com')).toEqual({ ...EXPECTED, routes });
  });

  it('is null for names that are not a receiving subdomain, without any read', async () => {
    const { receiving, readCount } = setup();
    expect(await receiving.forAddress('support@example.com')).toBeNull();
    expect(await receiving.forAddress('support@mail.example.com')).toBeNull();
    expect(await receiving.forAddress('support@inbound.com')).toBeNull();
    expect(await receiving.forAddress('not-an-address')).toBeNull();
    expect(await receiving.forAddress('support@')).toBeNull();
    expect(readCount()).toBe(0);
  });

  it('resolves an address at the inbound subdomain of a verified domain with inbound enabled', async () => {
    const { receiving, reads } = setup();
    expect(await receiving.forAddress('support+1234@inbound.example.com')).toEqual(EXPECTED);
    expect(reads.claimOf).toEqual(['example.com']);
    expect(reads.get).toEqual(['dom_1']);
  });

  it('matches the domain case-insensitively (and a trailing dot)', async () => {
    const { receiving } = setup();
    expect(await receiving.forAddress('Support@Inbound.EXAMPLE.com.')).toEqual(EXPECTED);
  });

  it('is null when the parent name is not claimed, without reading a domain', async () => {
    const { receiving, state, reads } = setup();
    state.claim = null;
    expect(await receiving.forAddress('a@inbound.example.com')).toBeNull();
    expect(reads.get).toEqual([]);
  });

  it('is null when the claimed domain is gone', async () => {
    const { receiving, state } = setup();
    state.stored = null;
    expect(await receiving.forAddress('a@inbound.example.com')).toBeNull();
  });

  it.each([
    ['pending', { status: 'pending' as const }],
    ['failed', { status: 'failed' as const }],
    ['inbound disabled', { inbound_enabled: false }],
    ['inbound disabled, no subdomain', { inbound_enabled: false, inbound_subdomain: null }],
    ['another subdomain', { inbound_subdomain: 'inbound.other.example' }],
  ])('is null for a domain that is %s', async (_case, overrides) => {
    const { receiving } = setup(domain(overrides));
    expect(await receiving.forAddress('a@inbound.example.com')).toBeNull();
  });

  it('reads the domain again after a second (its routes and state apply within it), the name’s claim after a minute', async () => {
    const { receiving, state, reads, readCount } = setup();
    expect(await receiving.forAddress('a@inbound.example.com')).toEqual(EXPECTED);
    expect(readCount()).toBe(2);
    // Within the second: the recipients of a transaction share the read.
    state.now = T0 + 999;
    expect(await receiving.forAddress('b@inbound.example.com')).toEqual(EXPECTED);
    expect(readCount()).toBe(2);

    // Routes set meanwhile: read with the domain a second later, the claim still cached.
    const routes = [{ match: { recipient: '*' }, action: { type: 'store' as const } }];
    state.stored = domain({ inbound_routes: routes });
    state.now = T0 + 1_000;
    expect(await receiving.forAddress('a@inbound.example.com')).toEqual({ ...EXPECTED, routes });
    expect(reads).toEqual({ claimOf: ['example.com'], get: ['dom_1', 'dom_1'] });

    // The domain deleted (its claim gone): the claim is read again after the minute.
    state.claim = null;
    state.stored = null;
    state.now = T0 + 60_000;
    expect(await receiving.forAddress('a@inbound.example.com')).toBeNull();
    expect(reads.claimOf).toEqual(['example.com', 'example.com']);
  });

  it('caches a refusal for 5 s, then reads again (a domain verified a moment ago starts receiving)', async () => {
    const { receiving, state, readCount } = setup(domain({ status: 'pending' }));
    expect(await receiving.forAddress('a@inbound.example.com')).toBeNull();
    expect(readCount()).toBe(2);

    state.stored = domain({ status: 'verified' });
    state.now = T0 + 4_999;
    expect(await receiving.forAddress('a@inbound.example.com')).toBeNull();
    expect(readCount()).toBe(2);

    state.now = T0 + 5_000;
    expect(await receiving.forAddress('a@inbound.example.com')).toEqual(EXPECTED);
    // The domain read again; its name's claim (it had one) still cached.
    expect(readCount()).toBe(3);
  });

  it('caches per receiving domain', async () => {
    const { receiving, reads } = setup();
    await receiving.forAddress('a@inbound.example.com');
    await receiving.forAddress('a@inbound.other.example');
    expect(reads.claimOf).toEqual(['example.com', 'other.example']);
  });

  it('throws when the lookup fails, and does not cache the failure', async () => {
    const { receiving, state, reads } = setup();
    state.fail = new Error('DynamoDB unavailable');
    await expect(receiving.forAddress('a@inbound.example.com')).rejects.toThrow('DynamoDB unavailable');

    state.fail = null;
    expect(await receiving.forAddress('a@inbound.example.com')).toEqual(EXPECTED);
    expect(reads.claimOf).toEqual(['example.com', 'example.com']);
  });
});
