/** Address validation's use cases with in-memory fakes of DNS, the suppression lists and the rate-limit counters. */
import type { Lookup } from '#shared/domain/domains/evaluate';
import type { RateLimit } from '#shared/domain/rate-limits';
import type { SuppressedFor } from '#shared/domain/address-validation/verdict';
import type { StoredTenant } from '#shared/adapters/store/tenants';
import { MailDomains } from '#shared/usecases/address-validation/mail-domains';
import { refuseUndeliverableRecipients } from '#shared/usecases/address-validation/refuse-undeliverable';
import { validateAddresses, type ValidationDeps } from '#shared/usecases/address-validation/validate-addresses';
import { account, tenant } from '../usecases/send-fakes';

interface Zone {
  mx?: Lookup;
  addresses?: string[] | 'error';
  /** Answers after this long (ms). */
  delayMs?: number;
}

function fakeDns(zones: Record<string, Zone>) {
  const asked: string[] = [];
  const wait = (zone: Zone | undefined) => new Promise((resolve) => setTimeout(resolve, zone?.delayMs ?? 0));
  return {
    asked,
    mx: async (name: string): Promise<Lookup> => {
      asked.push(`MX ${name}`);
      await wait(zones[name]);
      return zones[name]?.mx ?? { kind: 'none' };
    },
    resolveAddresses: async (name: string): Promise<string[]> => {
      asked.push(`A ${name}`);
      const addresses = zones[name]?.addresses ?? [];
      if (addresses === 'error') throw Object.assign(new Error('queryA ESERVFAIL'), { code: 'ESERVFAIL' });
      return addresses;
    },
  };
}

const ZONES: Record<string, Zone> = {
  'example.com': { mx: { kind: 'found', values: ['mx1.example.com', 'mx2.example.com'] } },
  'a-only.example': { addresses: ['192.0.2.10'] },
  'null-mx.example': { mx: { kind: 'found', values: [''] } },
  'broken.example': { mx: { kind: 'error', message: 'ESERVFAIL' } },
  'mailinator.com': { mx: { kind: 'found', values: ['mail.mailinator.com'] } },
  'gmial.com': { mx: { kind: 'found', values: ['mx.gmial.com'] } },
};

const ACME = tenant();

function fakeDeps(
  options: {
    suppressed?: Record<string, SuppressedFor>;
    tenantSuppressed?: Record<string, SuppressedFor>;
    zones?: Record<string, Zone>;
  } = {},
) {
  const dns = fakeDns(options.zones ?? ZONES);
  const counted: { subject: string; name: string; rule: RateLimit; cost: number }[] = [];
  const used = new Map<string, number>();
  const suppressionReads: (string | null)[] = [];
  const deps: ValidationDeps = {
    mailDomains: new MailDomains(dns, { timeoutMs: 200, ttlMs: 60_000 }),
    disposableDomains: { isDisposable: (domain) => domain === 'mailinator.com' || domain.endsWith('.mailinator.com') },
    suppressions: {
      suppressedFor: async (_accountId, tenantId, emails) => {
        suppressionReads.push(tenantId);
        const lists = { ...(options.suppressed ?? {}), ...(tenantId === ACME.id ? (options.tenantSuppressed ?? {}) : {}) };
        return new Map(
          emails
            .filter((email) => lists[email.toLowerCase()] !== undefined)
            .map((email) => [email.toLowerCase(), lists[email.toLowerCase()]!]),
        );
      },
    },
    tenants: { find: async (_accountId, ref) => (ref === ACME.external_id || ref === ACME.id ? ({ tenant: ACME } as StoredTenant) : null) },
    rateLimits: {
      hit: async (subject, name, rule, _nowMs, cost = 1) => {
        counted.push({ subject, name, rule, cost });
        const count = (used.get(subject) ?? 0) + cost;
        if (count > rule.limit) return { allowed: false, limit: rule.limit, remaining: 0, resetAt: 0 };
        used.set(subject, count);
        return { allowed: true, limit: rule.limit, remaining: rule.limit - count, resetAt: 0 };
      },
    },
    clock: { now: () => new Date('2026-11-25T12:00:30.000Z') },
  };
  return { deps, dns, counted, suppressionReads };
}

const principal = (overrides: { plan?: 'free' | 'pro'; tenant?: string | null; tenants_enabled?: boolean } = {}) => ({
  account: account({ plan: overrides.plan ?? 'free', tenants_enabled: overrides.tenants_enabled ?? false }),
  credential: { kind: 'api_key' as const, id: 'key_1', scopes: ['full'], tenant: overrides.tenant ?? null, allowed_domains: null },
});

describe('validateAddresses', () => {
  it('answers each address in order with its verdict, score, checks and suggestion', async () => {
    const { deps } = fakeDeps({ suppressed: { 'bounced@example.com': 'bounce', 'complained@example.com': 'complaint' } });
    const emails = [
      'jane@example.com',
      'jane@a-only.example',
      'jane@null-mx.example',
      'jane@missing.example',
      'jane@broken.example',
      'jane@mailinator.com',
      'postmaster@example.com',
      'bounced@example.com',
      'Complained@Example.com',
      'jane@gmial.com',
      'not an address',
    ];
    const results = await validateAddresses(deps, principal(), { emails });
    expect(results.map((r) => [r.email, r.assessment.verdict, r.assessment.score])).toEqual([
      ['jane@example.com', 'valid', 1],
      ['jane@a-only.example', 'valid', 0.9],
      ['jane@null-mx.example', 'invalid', 0.05],
      ['jane@missing.example', 'invalid', 0.05],
      ['jane@broken.example', 'risky', 0.6],
      ['jane@mailinator.com', 'risky', 0.5],
      ['postmaster@example.com', 'risky', 0.8],
      ['bounced@example.com', 'invalid', 0.1],
      ['Complained@Example.com', 'risky', 0.5],
      ['jane@gmial.com', 'risky', 0.7],
      ['not an address', 'invalid', 0],
    ]);
    expect(results[0]!.checks.domain).toEqual({ result: 'mx', hosts: ['mx1.example.com', 'mx2.example.com'] });
    expect(results[1]!.checks.domain).toEqual({ result: 'implicit_mx', hosts: ['a-only.example'] });
    expect(results[2]!.checks.domain.result).toBe('null_mx');
    expect(results[3]!.checks.domain.result).toBe('no_mail_host');
    expect(results[4]!.checks.domain.result).toBe('dns_error');
    expect(results[5]!.checks.disposable).toBe(true);
    expect(results[6]!.checks.role).toBe(true);
    expect(results[7]!.checks.suppressed).toEqual({ suppressed: true, reason: 'bounce' });
    expect(results[8]!.checks.suppressed).toEqual({ suppressed: true, reason: 'complaint' });
    expect(results[9]!.checks.suggestion).toBe('jane@gmail.com');
    expect(results[10]!.checks.syntax).toEqual({ valid: false, problem: 'no_at_sign', smtputf8: false });
    expect(results[10]!.checks.domain.result).toBe('not_checked');
  });

  it('looks each distinct domain up once per request', async () => {
    const { deps, dns } = fakeDeps();
    await validateAddresses(deps, principal(), { emails: ['a@example.com', 'b@example.com', 'c@EXAMPLE.com'] });
    expect(dns.asked).toEqual(['MX example.com']);
  });

  it("reads the tenant's list besides the account's: the named tenant, or the key's own", async () => {
    const { deps, suppressionReads } = fakeDeps({ tenantSuppressed: { 'jane@example.com': 'unsubscribe' } });
    const [named] = await validateAddresses(deps, principal({ tenants_enabled: true }), { emails: ['jane@example.com'], tenant: 'acme' });
    const [own] = await validateAddresses(deps, principal({ tenants_enabled: true, tenant: ACME.id }), { emails: ['jane@example.com'] });
    const [account] = await validateAddresses(deps, principal({ tenants_enabled: true }), { emails: ['jane@example.com'] });
    expect(suppressionReads).toEqual([ACME.id, ACME.id, null]);
    expect(named!.checks.suppressed).toEqual({ suppressed: true, reason: 'unsubscribe' });
    expect(own!.checks.suppressed.suppressed).toBe(true);
    expect(account!.checks.suppressed.suppressed).toBe(false);
  });

  it('refuses a tenant on an account without tenants (403), and a key limited to another tenant (403)', async () => {
    const { deps } = fakeDeps();
    await expect(validateAddresses(deps, principal(), { emails: ['jane@example.com'], tenant: 'acme' })).rejects.toMatchObject({
      status: 403,
      code: 'tenants_not_enabled',
    });
    await expect(
      validateAddresses(deps, principal({ tenants_enabled: true, tenant: 'ten_other' }), { emails: ['jane@example.com'], tenant: 'acme' }),
    ).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
  });

  it("counts every address against the plan's hourly allowance, and answers 429 with Retry-After past it, before any lookup", async () => {
    const { deps, dns, counted } = fakeDeps();
    await validateAddresses(deps, principal(), { emails: Array.from({ length: 99 }, (_, i) => `u${i}@example.com`) });
    expect(counted[0]).toMatchObject({ subject: 'acc_1', name: 'validations', rule: { limit: 100, windowSeconds: 3600 }, cost: 99 });
    dns.asked.length = 0;
    const refused = validateAddresses(deps, principal(), { emails: ['a@example.com', 'b@example.com'] });
    await expect(refused).rejects.toMatchObject({ status: 429, code: 'rate_limited', headers: { 'Retry-After': String(3600 - 30) } });
    expect(dns.asked).toEqual([]);
    await expect(validateAddresses(deps, principal(), { emails: ['a@example.com'] })).resolves.toHaveLength(1);
  });

  it('gives a larger plan a larger allowance', async () => {
    const { deps, counted } = fakeDeps();
    await validateAddresses(deps, principal({ plan: 'pro' }), { emails: ['a@example.com'] });
    expect(counted[0]!.rule.limit).toBe(2_000);
  });
});

describe('MailDomains', () => {
  it('answers a lookup slower than its timeout as a DNS failure, and keeps only answers, not failures', async () => {
    const dns = fakeDns({
      'slow.example': { mx: { kind: 'found', values: ['mx.slow.example'] }, delayMs: 300 },
      'example.com': ZONES['example.com']!,
    });
    const domains = new MailDomains(dns, { timeoutMs: 50, ttlMs: 60_000 });
    expect(await domains.check('slow.example')).toEqual({ result: 'dns_error', hosts: [] });
    await domains.check('slow.example');
    expect(dns.asked.filter((q) => q === 'MX slow.example')).toHaveLength(2);
    await domains.check('example.com');
    await domains.check('example.com');
    expect(dns.asked.filter((q) => q === 'MX example.com')).toHaveLength(1);
  });

  it('is a DNS failure when the A/AAAA lookup fails after no MX', async () => {
    const domains = new MailDomains(fakeDns({ 'flaky.example': { addresses: 'error' } }), { timeoutMs: 200, ttlMs: 0 });
    expect(await domains.check('flaky.example')).toEqual({ result: 'dns_error', hosts: [] });
  });
});

describe("refuseUndeliverableRecipients (the send's validate: true)", () => {
  const domains = () => new MailDomains(fakeDns(ZONES), { timeoutMs: 200, ttlMs: 0 });

  it('refuses with 422 naming each recipient whose domain takes no mail, and why', async () => {
    const refused = refuseUndeliverableRecipients({ mailDomains: domains() }, [
      'jane@example.com',
      'a@null-mx.example',
      'b@missing.example',
    ]);
    await expect(refused).rejects.toMatchObject({
      status: 422,
      code: 'validation_error',
      details: {
        reason: 'undeliverable_recipients',
        recipients: [
          { email: 'a@null-mx.example', reason: 'null_mx' },
          { email: 'b@missing.example', reason: 'no_mail_host' },
        ],
      },
    });
  });

  it('lets risky recipients through: a DNS failure, an implicit MX, a disposable or role address', async () => {
    await expect(
      refuseUndeliverableRecipients({ mailDomains: domains() }, [
        'x@broken.example',
        'x@a-only.example',
        'x@mailinator.com',
        'postmaster@example.com',
      ]),
    ).resolves.toBeUndefined();
  });
});
