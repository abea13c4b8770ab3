/**
 * Link domains through their use cases (PUT, the task's steps, GET, DELETE) against in-memory ports that behave
 * as ACM, API Gateway, DNS and the table do (../mta-sts/fakes.ts): the host `links.<domain>` mapped to the
 * links API, and the domain's `link_host` set only while it is active.
 */
import type { Domain } from '#shared/domain/domains/domain';
import type { StoredLinkDomain } from '#shared/domain/domains/link-domain/link-domain';
import type { StoredDomain } from '#shared/adapters/store/domains/stored-domain';
import type { Principal } from '#shared/usecases/access/principal';
import type { LinkDomainDeps } from '#shared/usecases/domains/link-domain/deps';
import { deleteLinkDomain, getLinkDomain, putLinkDomain } from '#shared/usecases/domains/link-domain/manage';
import { runDueLinkDomainSteps } from '#shared/usecases/domains/link-domain/step';
import { publicDomain, publicDomains } from '#shared/usecases/domains/public-domains';
import { DAILY_STEP_MS } from '#shared/usecases/domains/hosting/schedule';
import { FakeCertificates, FakeDomainNames, fakeZone } from '../mta-sts/fakes';

const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const HOST = 'links.ex.com';

type LinkDomainStore = LinkDomainDeps['linkDomains'];

class InMemoryLinkDomains implements LinkDomainStore {
  readonly items = new Map<string, { hosting: StoredLinkDomain; due: Date | null }>();
  /** The domains' link_host, by domain id. */
  readonly linkHosts = new Map<string, string | null>();

  async get(host: string) {
    const item = this.items.get(host);
    return item ? { hosting: structuredClone(item.hosting), nextStepAt: item.due?.toISOString() ?? null } : null;
  }
  /** The accounts' counters of link domains (COUNTER#LINK_DOMAINS). */
  readonly counts = new Map<string, number>();
  async create(linkDomain: StoredLinkDomain, due: Date, limit: number): Promise<'saved' | 'conflict' | 'limit'> {
    if (this.items.has(linkDomain.host)) return 'conflict';
    const count = this.counts.get(linkDomain.account_id) ?? 0;
    if (count >= limit) return 'limit';
    this.counts.set(linkDomain.account_id, count + 1);
    this.items.set(linkDomain.host, { hosting: structuredClone(linkDomain), due });
    return 'saved';
  }
  async save(linkDomain: StoredLinkDomain, due: Date | null): Promise<'saved' | 'conflict'> {
    if (this.items.get(linkDomain.host)?.hosting.version !== linkDomain.version - 1) return 'conflict';
    this.items.set(linkDomain.host, { hosting: structuredClone(linkDomain), due });
    return 'saved';
  }
  async remove(linkDomain: StoredLinkDomain): Promise<'deleted' | 'conflict'> {
    if (this.items.get(linkDomain.host)?.hosting.version !== linkDomain.version) return 'conflict';
    this.items.delete(linkDomain.host);
    this.counts.set(linkDomain.account_id, (this.counts.get(linkDomain.account_id) ?? 0) - 1);
    return 'deleted';
  }
  /** Every write of a domain's link_host, in order. */
  readonly linkHostWrites: (string | null)[] = [];
  async setLinkHost(domainId: string, host: string | null): Promise<'saved' | 'gone'> {
    this.linkHostWrites.push(host);
    this.linkHosts.set(domainId, host);
    return 'saved';
  }
  /** Each getMany's hosts, in order (GET /domains reads a page's link domains at once). */
  readonly getManyCalls: string[][] = [];
  async getMany(hosts: readonly string[]) {
    this.getManyCalls.push([...hosts]);
    const found = hosts.flatMap((host) => {
      const item = this.items.get(host);
      return item ? [[host, structuredClone(item.hosting)] as const] : [];
    });
    return new Map(found);
  }
  async pastDue(now: Date, limit: number): Promise<string[]> {
    return [...this.items.entries()]
      .filter(([, item]) => item.due !== null && item.due.getTime() <= now.getTime())
      .slice(0, limit)
      .map(([host]) => host);
  }
}

const principal = (plan: Principal['account']['plan'] = 'pro'): Principal => ({
  account: { id: 'acc_1', plan } as Principal['account'],
  credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null },
});

function setup(fields: Partial<Domain> = {}) {
  let now = T0;
  const domain = {
    id: 'dom_1',
    account_id: 'acc_1',
    name: 'ex.com',
    status: 'verified',
    tenant_id: null,
    tenant: null,
    ...fields,
  } as unknown as Domain;
  const linkDomains = new InMemoryLinkDomains();
  const certificates = new FakeCertificates();
  const domainNames = new FakeDomainNames(certificates);
  const zone = fakeZone();
  const deps = {
    domains: { get: async (id: string) => (id === domain.id ? ({ domain, sealedPrivateKey: 'x' } as StoredDomain) : null) },
    linkDomains,
    hostCertificates: certificates,
    hostDomains: domainNames,
    dns: zone.dns,
    clock: { now: () => new Date(now) },
    dashboardUrl: 'https://app.example',
  };
  const step = () => runDueLinkDomainSteps(deps, { budgetMs: 1000, log: () => {} });
  const view = () => getLinkDomain(deps, principal(), 'dom_1');
  return {
    deps,
    linkDomains,
    certificates,
    domainNames,
    zone,
    step,
    view,
    at: (ms: number) => {
      now = ms;
    },
  };
}

describe('link domains', () => {
  it('is provisioned on links.<domain> mapped to the links API; the domain signs under it only once its CNAME is published', async () => {
    const s = setup();
    expect(await putLinkDomain(s.deps, principal(), 'dom_1')).toMatchObject({
      object: 'link_domain',
      host: HOST,
      status: 'pending_certificate',
    });
    await s.step();
    const pending = await s.view();
    const validation = pending.records.find((record) => record.purpose === 'certificate_validation')!;
    expect(validation).toMatchObject({ type: 'CNAME', status: 'pending' });
    expect(s.linkDomains.linkHosts.get('dom_1') ?? null).toBeNull();

    s.certificates.published.add(validation.name);
    s.at(T0 + 60_000);
    await s.step();
    const served = await s.view();
    expect(served.status).toBe('pending_dns');
    expect(s.domainNames.names.get(HOST)).toMatchObject({ api: 'links' });
    const cname = served.records.find((record) => record.purpose === 'link_host')!;
    expect(cname).toMatchObject({ type: 'CNAME', name: HOST, status: 'pending' });
    expect(s.linkDomains.linkHosts.get('dom_1') ?? null).toBeNull();

    s.zone.cname.set(HOST, [cname.value]);
    s.at(T0 + 10 * 60_000);
    await s.step();
    expect(await s.view()).toMatchObject({ status: 'active', message: null, base_url: `https://${HOST}` });
    expect(s.linkDomains.linkHosts.get('dom_1')).toBe(HOST);

    // The CNAME gone: the daily check takes it out of active, and the domain's links go back to LINKS_BASE_URL.
    s.zone.cname.delete(HOST);
    s.at(T0 + 10 * 60_000 + DAILY_STEP_MS);
    await s.step();
    expect((await s.view()).status).toBe('pending_dns');
    expect(s.linkDomains.linkHosts.get('dom_1')).toBeNull();
  });

  it('writes the domain\u2019s link_host only on entering and leaving active, not on each step while pending', async () => {
    const s = setup();
    await putLinkDomain(s.deps, principal(), 'dom_1');
    for (let minute = 1; minute <= 3; minute++) {
      s.at(T0 + minute * 60_000);
      await s.step();
    }
    const validation = (await s.view()).records.find((record) => record.purpose === 'certificate_validation')!;
    s.certificates.published.add(validation.name);
    for (let minute = 4; minute <= 6; minute++) {
      s.at(T0 + minute * 60_000);
      await s.step();
    }
    expect((await s.view()).status).toBe('pending_dns');
    expect(s.linkDomains.linkHostWrites).toEqual([]);
    const cname = (await s.view()).records.find((record) => record.purpose === 'link_host')!;
    s.zone.cname.set(HOST, [cname.value]);
    s.at(T0 + 10 * 60_000);
    await s.step();
    s.zone.cname.delete(HOST);
    s.at(T0 + 10 * 60_000 + DAILY_STEP_MS);
    await s.step();
    expect(s.linkDomains.linkHostWrites).toEqual([HOST, null]);
  });

  it('DELETE clears link_host at once, then the task removes the custom domain name, the certificate and the item', async () => {
    const s = setup();
    await putLinkDomain(s.deps, principal(), 'dom_1');
    await s.step();
    s.certificates.published.add(`_abc.${HOST}`);
    s.at(T0 + 60_000);
    await s.step();
    s.zone.cname.set(HOST, [s.domainNames.names.get(HOST)!.target]);
    s.at(T0 + 10 * 60_000);
    await s.step();
    expect(s.linkDomains.linkHosts.get('dom_1')).toBe(HOST);

    expect(await deleteLinkDomain(s.deps, principal(), 'dom_1')).toEqual({ object: 'link_domain', domain_id: 'dom_1', deleted: true });
    expect(s.linkDomains.linkHosts.get('dom_1')).toBeNull();
    await expect(s.view()).rejects.toMatchObject({ status: 404 });
    for (const certificate of s.certificates.certificates.values()) certificate.inUse = false;
    expect(await s.step()).toMatchObject({ removed: 1 });
    expect(s.linkDomains.items.size).toBe(0);
    expect(s.domainNames.names.has(HOST)).toBe(false);
  });

  it('an unverified domain has no link domain (400); a PUT of a live one only makes its next step due now', async () => {
    await expect(putLinkDomain(setup({ status: 'pending' }).deps, principal(), 'dom_1')).rejects.toMatchObject({ status: 400 });
    const s = setup();
    const first = await putLinkDomain(s.deps, principal(), 'dom_1');
    expect(await putLinkDomain(s.deps, principal(), 'dom_1')).toEqual(first);
    // Once stepped (next step a minute later), a PUT makes the next step due now, changing nothing else.
    await s.step();
    const stepped = await s.view();
    expect(Date.parse(stepped.next_check_at!)).toBe(T0 + 60_000);
    s.at(T0 + 5_000);
    const again = await putLinkDomain(s.deps, principal(), 'dom_1');
    expect(again).toEqual({ ...stepped, next_check_at: new Date(T0 + 5_000).toISOString() });
  });

  it("the domain's records list the link domain's CNAMEs after its own as they become known, none once it is being removed", async () => {
    const own = { purpose: 'dkim', type: 'TXT', name: 's._domainkey.ex.com', value: 'v=DKIM1', required: true, status: 'verified' };
    const s = setup({ records: [own] } as unknown as Partial<Domain>);
    const domain = (await s.deps.domains.get('dom_1'))!.domain;
    const other = { ...domain, id: 'dom_2', name: 'other.example' } as Domain;
    const recordsOf = async () => (await publicDomain(s.deps, domain)).records;
    expect(await recordsOf()).toEqual([own]);

    await putLinkDomain(s.deps, principal(), 'dom_1');
    expect(await recordsOf()).toEqual([own]);
    await s.step();
    const validation = (await s.view()).records.find((record) => record.purpose === 'certificate_validation')!;
    expect(await recordsOf()).toEqual([
      own,
      {
        purpose: 'link_certificate_validation',
        type: 'CNAME',
        name: validation.name,
        value: validation.value,
        required: false,
        status: 'pending',
        message: expect.stringContaining(`certificate of ${HOST}`),
      },
    ]);

    s.certificates.published.add(validation.name);
    s.at(T0 + 60_000);
    await s.step();
    const cname = (await s.view()).records.find((record) => record.purpose === 'link_host')!;
    const listed = await recordsOf();
    expect(listed.map((record) => [record.purpose, record.status])).toEqual([
      ['dkim', 'verified'],
      ['link_certificate_validation', 'verified'],
      ['link_host', 'pending'],
    ]);
    expect(listed[2]).toMatchObject({ type: 'CNAME', name: HOST, value: cname.value, required: false, found: [] });

    s.zone.cname.set(HOST, [cname.value]);
    s.at(T0 + 10 * 60_000);
    await s.step();
    expect((await recordsOf())[2]).toEqual({
      purpose: 'link_host',
      type: 'CNAME',
      name: HOST,
      value: cname.value,
      required: false,
      status: 'verified',
      found: [cname.value],
    });
    // A page of domains: one read for all of them, each with its own link domain's records only.
    s.linkDomains.getManyCalls.length = 0;
    const page = await publicDomains(s.deps, [other, domain]);
    expect(s.linkDomains.getManyCalls).toEqual([['links.other.example', HOST]]);
    expect(page.map((shown) => [shown.id, shown.records.length])).toEqual([
      ['dom_2', 1],
      ['dom_1', 3],
    ]);
    // A stored link domain of another domain of the same name (a deleted one, still being removed) is not listed.
    expect((await publicDomain(s.deps, { ...domain, id: 'dom_9' } as Domain)).records).toEqual([own]);

    await deleteLinkDomain(s.deps, principal(), 'dom_1');
    expect(await recordsOf()).toEqual([own]);
  });

  it("a new link domain past the plan's bound is 403 plan_limit; its place is free once a removal completes", async () => {
    const s = setup();
    s.linkDomains.counts.set('acc_1', 1);
    await expect(putLinkDomain(s.deps, principal('free'), 'dom_1')).rejects.toMatchObject({
      status: 403,
      code: 'plan_limit',
      details: { limit: 1, resource: 'link_domains', plan: 'free' },
    });
    expect(s.linkDomains.items.size).toBe(0);
    s.linkDomains.counts.set('acc_1', 0);
    expect(await putLinkDomain(s.deps, principal('free'), 'dom_1')).toMatchObject({ status: 'pending_certificate' });
    expect(s.linkDomains.counts.get('acc_1')).toBe(1);
    await deleteLinkDomain(s.deps, principal('free'), 'dom_1');
    expect(s.linkDomains.counts.get('acc_1')).toBe(1);
    expect(await s.step()).toMatchObject({ removed: 1 });
    expect(s.linkDomains.counts.get('acc_1')).toBe(0);
  });
});
