/**
 * Hosted MTA-STS policies through their use cases (PUT, the task's steps, GET, DELETE, the domain's deletion),
 * against in-memory ports that behave as ACM, API Gateway, DNS and the table do (./fakes.ts).
 */
import { PLAN_NAMES, PLANS, type PlanName } from '#shared/domain/accounts/plans';
import type { Domain } from '#shared/domain/domains/domain';
import type { StoredDomain } from '#shared/adapters/store/domains/stored-domain';
import type { Principal } from '#shared/usecases/access/principal';
import { deleteHosting, getHosting, putHosting, type ManageHostingDeps } from '#shared/usecases/domains/mta-sts/manage';
import { runDueHostingSteps, type DueHostingStepsDeps } from '#shared/usecases/domains/mta-sts/due-steps';
import { removeHostingWithReceiving } from '#shared/usecases/domains/mta-sts/remove-with-receiving';
import { certificateToken, takeHostingStep } from '#shared/usecases/domains/mta-sts/step';
import { CERTIFICATE_STEP_MS, DAILY_STEP_MS, DNS_STEP_MS, DNS_PATIENCE_MS } from '#shared/usecases/domains/hosting/schedule';
import { FakeCertificates, FakeDomainNames, fakeZone, InMemoryHosting } from './fakes';

const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const POLICY_DOMAIN = 'inbound.ex.com';
const HOST = 'mta-sts.inbound.ex.com';

function domain(fields: Partial<Domain> = {}): Domain {
  return {
    id: 'dom_1',
    account_id: 'acc_1',
    name: 'ex.com',
    status: 'verified',
    tenant_id: null,
    tenant: null,
    inbound_enabled: true,
    inbound_subdomain: POLICY_DOMAIN,
    ...fields,
  } as unknown as Domain;
}
const principal = (account = 'acc_1', plan: PlanName = 'pro'): Principal => ({
  account: { id: account, plan } as Principal['account'],
  credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null },
});

function setup(domains: Domain[] = [domain()]) {
  let now = T0;
  const byId = new Map(domains.map((d) => [d.id, d]));
  const hosting = new InMemoryHosting();
  const certificates = new FakeCertificates();
  const domainNames = new FakeDomainNames(certificates);
  const zone = fakeZone();
  const deps: ManageHostingDeps & DueHostingStepsDeps & { mtaStsHosting: InMemoryHosting } = {
    domains: { get: async (id: string) => (byId.has(id) ? ({ domain: byId.get(id)!, sealedPrivateKey: 'x' } as StoredDomain) : null) },
    mtaStsHosting: hosting,
    hostCertificates: certificates,
    hostDomains: domainNames,
    dns: zone.dns,
    clock: { now: () => new Date(now) },
    inboundMxHost: 'mx.svc.dev',
    dashboardUrl: 'https://svc.dev/dashboard',
  };
  const publishAll = async () => {
    const view = await getHosting(deps, principal(), 'dom_1');
    for (const record of view.records) (record.type === 'CNAME' ? zone.cname : zone.txt).set(record.name, [record.value]);
  };
  /** PUT, then the step the domain-health task takes (due at once). */
  const put = async (input: Parameters<typeof putHosting>[3], domainId = 'dom_1', who = principal()) => {
    await putHosting(deps, who, domainId, input);
    await runDueHostingSteps(deps, { budgetMs: 1000, log });
    return getHosting(deps, who, domainId);
  };
  return {
    deps,
    hosting,
    certificates,
    domainNames,
    zone,
    byId,
    publishAll,
    put,
    at: (ms: number) => {
      now = ms;
    },
    now: () => now,
  };
}

const log = () => {};
const recordOf = (hosting: { records: { purpose: string }[] }, purpose: string) =>
  hosting.records.find((record) => record.purpose === purpose);

describe('PUT /domains/{id}/mta-sts', () => {
  it('stores the policy with its step due now (no AWS call in the API function), answering the records known so far', async () => {
    const s = setup();
    const stored = await putHosting(s.deps, principal(), 'dom_1', { mode: 'testing' });
    expect(stored).toMatchObject({
      status: 'pending_certificate',
      message: expect.stringContaining('within a minute'),
      next_check_at: new Date(T0).toISOString(),
    });
    expect(stored.records.map((record) => record.purpose)).toEqual(['policy', 'tls_rpt']);
    expect(s.certificates.requests).toBe(0);
  });

  it("the task's first step requests the host certificate and lists its validation record with the records to publish", async () => {
    const s = setup();
    const view = await s.put({ mode: 'testing' });
    expect(view).toMatchObject({
      object: 'mta_sts_hosting',
      status: 'pending_certificate',
      mode: 'testing',
      max_age: 604_800,
      mx: ['mx.svc.dev'],
      policy_url: `https://${HOST}/.well-known/mta-sts.txt`,
    });
    expect(view.records.map((record) => [record.purpose, record.type, record.name, record.status])).toEqual([
      ['certificate_validation', 'CNAME', `_abc.${HOST}`, 'pending'],
      ['policy', 'TXT', `_mta-sts.${POLICY_DOMAIN}`, 'pending'],
      ['tls_rpt', 'TXT', `_smtp._tls.${POLICY_DOMAIN}`, 'pending'],
    ]);
    expect(view.records[1]!.value).toBe(`v=STSv1; id=${view.policy_id}`);
    expect(view.next_check_at).toBe(new Date(T0 + CERTIFICATE_STEP_MS).toISOString());
    expect(s.certificates.requests).toBe(1);
  });

  it("refuses a domain that does not receive mail, or is not verified (400 naming why), and another account's (404)", async () => {
    const s = setup([domain({ id: 'dom_1', inbound_enabled: false, inbound_subdomain: null }), domain({ id: 'dom_2', status: 'pending' })]);
    await expect(putHosting(s.deps, principal(), 'dom_1', { mode: 'testing' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('inbound_enabled'),
    });
    await expect(putHosting(s.deps, principal(), 'dom_2', { mode: 'testing' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('not verified'),
    });
    await expect(putHosting(s.deps, principal('acc_2'), 'dom_2', { mode: 'testing' })).rejects.toMatchObject({ status: 404 });
    expect(s.certificates.requests).toBe(0);
  });

  it('changing the mode gives the policy a new id; the same body keeps it (and only checks again)', async () => {
    const s = setup();
    const first = await s.put({ mode: 'testing' });
    s.at(T0 + 1000);
    const same = await s.put({ mode: 'testing' });
    expect(same.policy_id).toBe(first.policy_id);
    const enforced = await s.put({ mode: 'enforce', max_age: 86_400 });
    expect(enforced.policy_id).not.toBe(first.policy_id);
    expect(enforced).toMatchObject({ mode: 'enforce', max_age: 86_400 });
    expect(s.certificates.certificates.size).toBe(1);
  });

  it('a validation record ACM has not made yet is filled in by a later step', async () => {
    const s = setup();
    s.certificates.recordAfterDescribes = 1;
    const view = await s.put({ mode: 'testing' });
    expect(view.records.map((record) => record.purpose)).not.toContain('certificate_validation');
    expect(view.message).toMatch(/preparing the validation record/);
    s.at(T0 + CERTIFICATE_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect((await getHosting(s.deps, principal(), 'dom_1')).records[0]).toMatchObject({
      purpose: 'certificate_validation',
      name: `_abc.${HOST}`,
    });
    // The same certificate: its ARN was kept, not requested again.
    expect(s.certificates.requests).toBe(1);
  });
});

describe('the steps (domain-health task)', () => {
  it("pending_certificate -> pending_dns once the validation record is published (the host mapped), -> active once the owner's records are", async () => {
    const s = setup();
    await s.put({ mode: 'enforce' });
    // Not published: still waiting, looked at again a minute later.
    s.at(T0 + CERTIFICATE_STEP_MS);
    expect(await runDueHostingSteps(s.deps, { budgetMs: 1000, log })).toEqual({ steps: 1, removed: 0, errors: 0 });
    expect((await getHosting(s.deps, principal(), 'dom_1')).status).toBe('pending_certificate');
    s.certificates.published.add(`_abc.${HOST}`);
    s.at(T0 + 2 * CERTIFICATE_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    const served = await getHosting(s.deps, principal(), 'dom_1');
    expect(served.status).toBe('pending_dns');
    expect(s.domainNames.names.get(HOST)).toMatchObject({ certificateArn: 'arn:aws:acm:us-east-1:000000000000:certificate/1' });
    expect(served.records.find((record) => record.purpose === 'policy_host')).toMatchObject({
      type: 'CNAME',
      name: HOST,
      value: s.domainNames.names.get(HOST)!.target,
      status: 'pending',
    });
    expect(served.records.find((record) => record.purpose === 'certificate_validation')!.status).toBe('verified');
    expect(served.next_check_at).toBe(new Date(T0 + 2 * CERTIFICATE_STEP_MS + DNS_STEP_MS).toISOString());
    // Issued and served in one write, with its records looked up: no reader ever sees it served without them.
    expect(
      s.hosting.saved
        .filter((saved) => saved.status !== 'pending_certificate')
        .every((saved) => saved.dns !== null && saved.message !== null),
    ).toBe(true);
    await s.publishAll();
    s.at(T0 + 2 * CERTIFICATE_STEP_MS + DNS_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    const active = await getHosting(s.deps, principal(), 'dom_1');
    expect(active).toMatchObject({
      status: 'active',
      message: null,
      next_check_at: new Date(T0 + 2 * CERTIFICATE_STEP_MS + DNS_STEP_MS + DAILY_STEP_MS).toISOString(),
    });
    expect(active.records.every((record) => record.status === 'verified')).toBe(true);
  });

  it('an active policy whose TXT record names an old id (or two STSv1 records) goes back to pending_dns', async () => {
    const s = setup();
    s.certificates.published.add(`_abc.${HOST}`);
    await s.put({ mode: 'testing' });
    await s.publishAll();
    await s.put({ mode: 'testing' });
    expect((await getHosting(s.deps, principal(), 'dom_1')).status).toBe('active');
    s.at(T0 + 1000);
    // A new mode: a new id, not yet published.
    expect((await s.put({ mode: 'enforce' })).status).toBe('pending_dns');
    await s.publishAll();
    expect((await s.put({ mode: 'enforce' })).status).toBe('active');
    s.zone.txt.set(`_mta-sts.${POLICY_DOMAIN}`, [...s.zone.txt.get(`_mta-sts.${POLICY_DOMAIN}`)!, 'v=STSv1; id=other']);
    expect((await s.put({ mode: 'enforce' })).status).toBe('pending_dns');
  });

  it("a pending policy's 5-minute checks are DNS lookups alone; a live one's daily step also looks at its custom domain name", async () => {
    const s = setup();
    s.certificates.published.add(`_abc.${HOST}`);
    await s.put({ mode: 'testing' });
    const ensures = s.domainNames.ensures;
    s.at(T0 + DNS_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect(s.domainNames.ensures).toBe(ensures);
    await s.publishAll();
    s.at(T0 + 2 * DNS_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect((await getHosting(s.deps, principal(), 'dom_1')).status).toBe('active');
    expect(s.domainNames.ensures).toBe(ensures);
    s.at(T0 + 2 * DNS_STEP_MS + DAILY_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect(s.domainNames.ensures).toBe(ensures + 1);
  });

  it("the owner's records are looked for every 5 minutes for 3 days, then daily", async () => {
    const s = setup();
    s.certificates.published.add(`_abc.${HOST}`);
    await s.put({ mode: 'testing' });
    s.at(T0 + DNS_PATIENCE_MS + 1);
    await takeHostingStep(s.deps, POLICY_DOMAIN);
    expect((await getHosting(s.deps, principal(), 'dom_1')).next_check_at).toBe(
      new Date(T0 + DNS_PATIENCE_MS + 1 + DAILY_STEP_MS).toISOString(),
    );
  });

  it("the daily step makes the host's custom domain name again when it went missing (deleted in AWS by hand)", async () => {
    const s = setup();
    s.certificates.published.add(`_abc.${HOST}`);
    await s.put({ mode: 'testing' });
    await s.publishAll();
    expect((await s.put({ mode: 'testing' })).status).toBe('active');
    const target = s.domainNames.names.get(HOST)!.target;
    s.domainNames.names.delete(HOST);
    s.at(T0 + DAILY_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect(s.domainNames.names.get(HOST)).toMatchObject({ certificateArn: 'arn:aws:acm:us-east-1:000000000000:certificate/1' });
    // A new name has a new target: the owner's CNAME names the old one, so the policy waits for it again.
    const after = await getHosting(s.deps, principal(), 'dom_1');
    expect(recordOf(after, 'policy_host')).toMatchObject({ value: s.domainNames.names.get(HOST)!.target, status: 'pending' });
    expect(s.domainNames.names.get(HOST)!.target).not.toBe(target);
    expect(after.status).toBe('pending_dns');
  });

  it('a certificate deleted outside the service is requested again under a new attempt', async () => {
    const s = setup();
    await s.put({ mode: 'testing' });
    s.certificates.certificates.clear();
    s.at(T0 + CERTIFICATE_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect((await getHosting(s.deps, principal(), 'dom_1')).message).toMatch(/deleted outside the service/);
    expect(s.hosting.items.get(POLICY_DOMAIN)!.hosting).toMatchObject({ attempt: 2, certificate_arn: null });
    s.at(T0 + 2 * CERTIFICATE_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect(s.certificates.requests).toBe(2);
    expect(s.hosting.items.get(POLICY_DOMAIN)!.hosting.certificate_arn).toBe('arn:aws:acm:us-east-1:000000000000:certificate/2');
  });

  it('a certificate ACM could not issue fails the hosting with its reason; PUT starts over with a new certificate and deletes the failed one', async () => {
    const s = setup();
    await s.put({ mode: 'testing' });
    s.certificates.fail('arn:aws:acm:us-east-1:000000000000:certificate/1', 'VALIDATION_TIMED_OUT');
    s.at(T0 + CERTIFICATE_STEP_MS);
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    const failed = await getHosting(s.deps, principal(), 'dom_1');
    expect(failed).toMatchObject({ status: 'failed', message: expect.stringContaining('VALIDATION_TIMED_OUT'), next_check_at: null });
    const again = await s.put({ mode: 'testing' });
    expect(again.status).toBe('pending_certificate');
    expect([...s.certificates.certificates.keys()]).toEqual(['arn:aws:acm:us-east-1:000000000000:certificate/2']);
    expect(certificateToken({ domain_id: 'dom_1', attempt: 1 })).not.toBe(certificateToken({ domain_id: 'dom_1', attempt: 2 }));
  });

  it('a quota AWS refuses fails the hosting with a message naming it (ACM certificates; custom domain names)', async () => {
    const s = setup();
    s.certificates.quotaReached = true;
    expect(await s.put({ mode: 'testing' })).toMatchObject({ status: 'failed', message: expect.stringContaining('quota') });
    s.certificates.quotaReached = false;
    s.certificates.published.add(`_abc.${HOST}`);
    s.domainNames.quotaReached = true;
    expect(await s.put({ mode: 'testing' })).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('custom domain names quota'),
    });
  });

  it('a step that fails (AWS or DNS) stays due and is taken again by the next pass', async () => {
    const s = setup();
    await s.put({ mode: 'testing' });
    const describe = s.certificates.describe.bind(s.certificates);
    s.certificates.describe = async () => {
      throw new Error('ACM unreachable');
    };
    s.at(T0 + CERTIFICATE_STEP_MS);
    const errors: string[] = [];
    expect(await runDueHostingSteps(s.deps, { budgetMs: 1000, log: (message) => errors.push(message) })).toEqual({
      steps: 0,
      removed: 0,
      errors: 1,
    });
    expect(errors).toEqual([`domain-health: the MTA-STS step of ${POLICY_DOMAIN} failed`]);
    s.certificates.describe = describe;
    expect(await runDueHostingSteps(s.deps, { budgetMs: 1000, log })).toEqual({ steps: 1, removed: 0, errors: 0 });
  });

  it("a step racing a PUT is dropped: the PUT's write stands and nothing is lost", async () => {
    const s = setup();
    await s.put({ mode: 'testing' });
    s.at(T0 + CERTIFICATE_STEP_MS);
    s.hosting.beforeSave = () => {
      const item = s.hosting.items.get(POLICY_DOMAIN)!;
      item.hosting = { ...item.hosting, mode: 'enforce', version: item.hosting.version + 1 };
    };
    expect(await takeHostingStep(s.deps, POLICY_DOMAIN)).toBe('superseded');
    expect(s.hosting.items.get(POLICY_DOMAIN)!.hosting.mode).toBe('enforce');
    expect(s.hosting.conflicts).toBe(1);
  });
});

describe("DELETE /domains/{id}/mta-sts and the domain's deletion", () => {
  async function live(s: ReturnType<typeof setup>) {
    s.certificates.published.add(`_abc.${HOST}`);
    await s.put({ mode: 'testing' });
    expect(s.domainNames.names.has(HOST)).toBe(true);
  }

  it('deletes the custom domain name, then the certificate once API Gateway lets go of it, then the policy', async () => {
    const s = setup();
    await live(s);
    // API Gateway still holds the certificate for a moment after the name is deleted.
    const removeCertificate = s.certificates.remove.bind(s.certificates);
    let refusals = 1;
    s.certificates.remove = async (arn) => (refusals-- > 0 ? 'in_use' : removeCertificate(arn.valueOf()));
    for (const certificate of s.certificates.certificates.values()) certificate.inUse = false;
    expect(await deleteHosting(s.deps, principal(), 'dom_1')).toEqual({ object: 'mta_sts_hosting', domain_id: 'dom_1', deleted: true });
    // Not served from now on; the task's first removal step deletes the name, the certificate is still held.
    await expect(getHosting(s.deps, principal(), 'dom_1')).rejects.toMatchObject({ status: 404 });
    expect(await runDueHostingSteps(s.deps, { budgetMs: 1000, log })).toEqual({ steps: 1, removed: 0, errors: 0 });
    expect(s.domainNames.names.has(HOST)).toBe(false);
    expect(s.certificates.certificates.size).toBe(1);
    s.at(T0 + 60_000);
    expect(await runDueHostingSteps(s.deps, { budgetMs: 1000, log })).toEqual({ steps: 1, removed: 1, errors: 0 });
    expect(s.certificates.certificates.size).toBe(0);
    expect(s.hosting.items.size).toBe(0);
    await expect(deleteHosting(s.deps, principal(), 'dom_1')).rejects.toMatchObject({ status: 404 });
  });

  it("a PUT while the policy is being removed is 409; the deleted domain's hosting is marked removing and removed by the task", async () => {
    const s = setup();
    await live(s);
    await removeHostingWithReceiving(s.deps, domain());
    expect(s.hosting.items.get(POLICY_DOMAIN)!.hosting.status).toBe('removing');
    await expect(putHosting(s.deps, principal(), 'dom_1', { mode: 'testing' })).rejects.toMatchObject({ status: 409 });
    for (const certificate of s.certificates.certificates.values()) certificate.inUse = false;
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect(s.hosting.items.size).toBe(0);
    expect(s.domainNames.names.size).toBe(0);
    expect(s.certificates.certificates.size).toBe(0);
  });

  it('another domain of the same name (the first deleted, its hosting not yet removed) does not see or change it', async () => {
    const s = setup([domain(), domain({ id: 'dom_2', account_id: 'acc_2' })]);
    await live(s);
    await expect(getHosting(s.deps, principal('acc_2'), 'dom_2')).rejects.toMatchObject({ status: 404 });
    await expect(deleteHosting(s.deps, principal('acc_2'), 'dom_2')).rejects.toMatchObject({ status: 404 });
    await expect(putHosting(s.deps, principal('acc_2'), 'dom_2', { mode: 'testing' })).rejects.toMatchObject({ status: 409 });
    await removeHostingWithReceiving(s.deps, domain({ id: 'dom_2' }));
    expect(s.hosting.items.get(POLICY_DOMAIN)!.hosting).toMatchObject({ domain_id: 'dom_1', status: 'pending_dns' });
  });
});

describe("the account's bound (its plan's hosted policies)", () => {
  const second = () => domain({ id: 'dom_2', name: 'ex2.com', inbound_subdomain: 'inbound.ex2.com' });
  const third = () => domain({ id: 'dom_3', name: 'ex3.com', inbound_subdomain: 'inbound.ex3.com' });

  it("at the bound a new policy is 403 plan_limit naming it; the account's hosted policy still changes", async () => {
    const s = setup([domain(), second()]);
    const free = principal('acc_1', 'free');
    expect(PLANS.free.mtaStsPolicies).toBe(1);
    await putHosting(s.deps, free, 'dom_1', { mode: 'testing' });
    await expect(putHosting(s.deps, free, 'dom_2', { mode: 'testing' })).rejects.toMatchObject({
      status: 403,
      code: 'plan_limit',
      message: expect.stringContaining('The free plan includes 1 hosted MTA-STS policy'),
      details: { limit: 1, resource: 'mta_sts_policies', plan: 'free' },
      upgradeUrl: 'https://svc.dev/dashboard/settings/billing',
    });
    expect(s.hosting.items.has('inbound.ex2.com')).toBe(false);
    // Not a new policy: a PUT of the hosted one takes no place.
    expect((await putHosting(s.deps, free, 'dom_1', { mode: 'enforce' })).mode).toBe('enforce');
    expect(s.hosting.places.get('acc_1')).toBe(1);
  });

  it('a deleted policy frees its place once its removal completes, not before', async () => {
    const s = setup([domain(), second()]);
    const free = principal('acc_1', 'free');
    await putHosting(s.deps, free, 'dom_1', { mode: 'testing' });
    await deleteHosting(s.deps, free, 'dom_1');
    // Removing: its certificate and custom domain name may still exist in AWS, so the place is still taken.
    await expect(putHosting(s.deps, free, 'dom_2', { mode: 'testing' })).rejects.toMatchObject({ status: 403, code: 'plan_limit' });
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect(s.hosting.items.has(POLICY_DOMAIN)).toBe(false);
    expect((await putHosting(s.deps, free, 'dom_2', { mode: 'testing' })).status).toBe('pending_certificate');
  });

  it("each plan's bound; a policy stored before the bound existed takes no place and gives none back", async () => {
    const s = setup([domain(), second(), third()]);
    const pro = principal('acc_1', 'pro');
    // An older policy, stored as it was then: no plan_slot, no place counted.
    const before = setup();
    await putHosting(before.deps, pro, 'dom_1', { mode: 'testing' });
    s.hosting.items.set(POLICY_DOMAIN, {
      hosting: { ...before.hosting.items.get(POLICY_DOMAIN)!.hosting, plan_slot: false },
      due: new Date(T0),
    });
    await deleteHosting(s.deps, pro, 'dom_1');
    await runDueHostingSteps(s.deps, { budgetMs: 1000, log });
    expect(s.hosting.items.size).toBe(0);
    expect(s.hosting.places.get('acc_1') ?? 0).toBe(0);
    await putHosting(s.deps, pro, 'dom_2', { mode: 'testing' });
    await putHosting(s.deps, pro, 'dom_3', { mode: 'testing' });
    expect(s.hosting.places.get('acc_1')).toBe(2);
    expect(PLAN_NAMES.map((plan) => PLANS[plan].mtaStsPolicies)).toEqual([1, 5, 20, 50]);
  });
});
