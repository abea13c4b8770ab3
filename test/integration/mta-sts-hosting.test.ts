/**
 * Hosted MTA-STS policies end to end on the local cloud (docs/deliverability.md, "Hosted MTA-STS policy"):
 * PUT /domains/{id}/mta-sts, the domain-health task requesting the host's certificate from the local ACM (under
 * the local IAM, with the task's role from the template), the validation CNAME published in the DNS emulator,
 * the custom domain name created in the local API Gateway and mapped to the MTA-STS API, the policy fetched
 * over HTTPS the way a sender does (the host resolved through DNS, its certificate checked for the name), the
 * owner's records making it active, a new mode served at once with a new id, a race of PUTs, DELETE and the
 * domain's deletion taking the host's AWS resources down.
 */
import type { ACMClient } from '@aws-sdk/client-acm';
import type { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import {
  certificatesFor,
  customDomainRequest,
  domainNameExists,
  hostGone as waitForHostGone,
  hostingClients,
  resolveHost,
} from './harness/custom-domains';
import { publish, publishAll, uniqueDomain } from './harness/dns';
import { dashboardRequest, newDashboardUser, signIn } from './harness/dashboard';
import { api, newAccount, stack, type TestAccount } from './harness/stack';
import { waitWithTask } from './harness/tasks';

type Hosting = {
  status: string;
  message: string | null;
  mode: string;
  policy_id: string;
  policy_url: string;
  mx: string[];
  records: { purpose: string; type: string; name: string; value: string; status: string }[];
};

const WAIT_MS = 40_000;

/** A verified domain that receives mail, with its records published. */
async function receivingDomain(account: TestAccount): Promise<{ id: string; name: string }> {
  const name = uniqueDomain();
  const added = await api('POST', '/domains', { key: account.key, body: { name, inbound_enabled: true } });
  expect(added.status).toBe(201);
  await publishAll(added.body.domain.records);
  const verified = await api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
  expect(verified.body.domain.status).toBe('verified');
  return { id: added.body.domain.id, name };
}

const hostingOf = async (account: TestAccount, domainId: string) =>
  (await api('GET', `/domains/${domainId}/mta-sts`, { key: account.key })).body as Hosting;

/** Waits for the hosting to reach `status`, asking for the domain-health task's passes (it takes the steps). */
function waitForHosting(account: TestAccount, domainId: string, done: (hosting: Hosting) => boolean, what: string): Promise<Hosting> {
  return waitWithTask(
    'domain-health',
    async () => {
      const hosting = await hostingOf(account, domainId);
      return done(hosting) ? hosting : undefined;
    },
    `${domainId}'s MTA-STS policy ${what}`,
    WAIT_MS,
  );
}

const recordOf = (hosting: Hosting, purpose: string) => hosting.records.find((record) => record.purpose === purpose);

/** GET https://<host>/.well-known/mta-sts.txt on the custom domains' endpoint: the certificate must be valid for the host (RFC 8461 section 3.3). */
const fetchPolicy = (host: string, address?: string) => customDomainRequest(host, '/.well-known/mta-sts.txt', { address });

/** A receiving domain of a new account whose policy is hosted (testing), its certificate's validation record listed. */
async function hostedDomain(): Promise<{
  account: TestAccount;
  domain: { id: string; name: string };
  host: string;
  validation: Hosting['records'][number];
}> {
  const account = await newAccount();
  const domain = await receivingDomain(account);
  expect((await api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } })).status).toBe(200);
  const listed = await waitForHosting(
    account,
    domain.id,
    (hosting) => recordOf(hosting, 'certificate_validation') !== undefined,
    'to list its validation record',
  );
  return { account, domain, host: `mta-sts.inbound.${domain.name}`, validation: recordOf(listed, 'certificate_validation')! };
}

const hostGone = (acm: ACMClient, apigw: ApiGatewayV2Client, host: string, why: string) =>
  waitForHostGone({ acm, apigw }, host, why, WAIT_MS);

let account: TestAccount;
const clients = hostingClients;

beforeAll(async () => {
  account = await newAccount();
});

describe('hosting a policy', () => {
  let domain: { id: string; name: string };
  let host: string;
  const { acm, apigw } = clients();
  afterAll(() => {
    acm.destroy();
    apigw.destroy();
  });

  beforeAll(async () => {
    domain = await receivingDomain(account);
    host = `mta-sts.inbound.${domain.name}`;
  });

  it("PUT stores it (pending_certificate), the task lists the certificate's validation record within seconds", async () => {
    const put = await api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      object: 'mta_sts_hosting',
      domain_id: domain.id,
      policy_domain: `inbound.${domain.name}`,
      status: 'pending_certificate',
      mode: 'testing',
      max_age: 604800,
      policy_url: `https://${host}/.well-known/mta-sts.txt`,
    });
    expect(put.body.mx).toEqual([stack().info.env.INBOUND_MX_HOST ?? 'inbound.mailservice.dev']);
    const listed = await waitForHosting(
      account,
      domain.id,
      (hosting) => recordOf(hosting, 'certificate_validation') !== undefined,
      'to list its validation record',
    );
    expect(recordOf(listed, 'certificate_validation')).toMatchObject({
      type: 'CNAME',
      name: expect.stringMatching(new RegExp(`^_[0-9a-f]{32}\\.${host.replace(/\./g, '\\.')}$`)),
      value: expect.stringMatching(/\.acm-validations\.aws$/),
      status: 'pending',
    });
    // The certificate exists in ACM, requested by the task (under its IAM role), once.
    expect(await certificatesFor(acm, host)).toHaveLength(1);
    // Not served yet: no custom domain name.
    expect(await domainNameExists(apigw, host)).toBe(false);
  });

  it('once the validation record is published: the certificate is issued, the host created and mapped, the policy served over HTTPS for its name', async () => {
    const pending = await hostingOf(account, domain.id);
    const validation = recordOf(pending, 'certificate_validation')!;
    await publish(validation.name, 'CNAME', [validation.value]);
    // PUT again (same body): the next step due now, not a minute later.
    expect((await api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } })).status).toBe(200);
    const served = await waitForHosting(account, domain.id, (hosting) => hosting.status === 'pending_dns', 'to be served');
    expect(recordOf(served, 'certificate_validation')!.status).toBe('verified');
    const hostRecord = recordOf(served, 'policy_host')!;
    expect(hostRecord).toMatchObject({
      type: 'CNAME',
      name: host,
      value: expect.stringMatching(/^d-[a-z0-9]{10}\.execute-api\.[a-z0-9-]+\.amazonaws\.com$/),
      status: 'pending',
    });
    expect(served.message).toMatch(/publish the policy_host CNAME/);

    const policy = await fetchPolicy(host);
    expect(policy).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/plain/) });
    expect(policy.body).toBe(`version: STSv1\r\nmode: testing\r\nmx: ${served.mx[0]}\r\nmax_age: 604800\r\n`);
    // A name the certificate is not for is refused at the handshake (no domain name of that name).
    await expect(fetchPolicy(`mta-sts.inbound.other-${domain.name}`)).rejects.toThrow();
  });

  it("the owner's records (host CNAME, policy TXT): the host resolves through DNS to the endpoint, and the policy is active", async () => {
    const served = await hostingOf(account, domain.id);
    for (const purpose of ['policy_host', 'policy', 'tls_rpt']) {
      const record = recordOf(served, purpose)!;
      await publish(record.name, record.type as 'CNAME' | 'TXT', [record.value]);
    }
    expect(await resolveHost(host)).toBe('127.0.0.1');
    // PUT with the same body checks now (its step due at once).
    const same = await api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } });
    expect(same.body.policy_id).toBe(served.policy_id);
    const active = await waitForHosting(account, domain.id, (hosting) => hosting.status === 'active', 'to be active');
    expect(active.message).toBeNull();
    expect(active.records.map((record) => [record.purpose, record.status])).toEqual([
      ['certificate_validation', 'verified'],
      ['policy_host', 'verified'],
      ['policy', 'verified'],
      ['tls_rpt', 'verified'],
    ]);
    expect((await fetchPolicy(host, await resolveHost(host))).status).toBe(200);
  });

  it('a new mode is served at once under a new id; until its TXT record is published the policy is pending_dns again', async () => {
    const before = await hostingOf(account, domain.id);
    const enforced = await api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'enforce', max_age: 86400 } });
    expect(enforced.status).toBe(200);
    expect(enforced.body.policy_id).not.toBe(before.policy_id);
    expect((await fetchPolicy(host)).body).toContain('mode: enforce\r\n');
    expect((await fetchPolicy(host)).body).toContain('max_age: 86400\r\n');
    await waitForHosting(account, domain.id, (hosting) => hosting.status === 'pending_dns', 'to wait for its new TXT record');
    await publish(`_mta-sts.inbound.${domain.name}`, 'TXT', [`v=STSv1; id=${enforced.body.policy_id}`]);
    await api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'enforce', max_age: 86400 } });
    await waitForHosting(account, domain.id, (hosting) => hosting.status === 'active', 'to be active again');
  });

  it('racing PUTs of different modes: each answers 200 or 409, and the policy served is the stored one', async () => {
    const modes = ['testing', 'enforce', 'none', 'testing', 'enforce', 'none', 'testing', 'enforce'];
    const answers = await Promise.all(
      modes.map((mode) => api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode } })),
    );
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    const stored = await hostingOf(account, domain.id);
    expect(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.policy_id)).toContain(stored.policy_id);
    expect((await fetchPolicy(host)).body).toContain(`mode: ${stored.mode}\r\n`);
  });

  it('another account cannot see or change it (404), and a domain that does not receive mail cannot have one (400)', async () => {
    const other = await newAccount();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const answer = await api(method, `/domains/${domain.id}/mta-sts`, {
        key: other.key,
        ...(method === 'PUT' ? { body: { mode: 'testing' } } : {}),
      });
      expect([method, answer.status, answer.body.error.code]).toEqual([method, 404, 'not_found']);
    }
    const sending = await api('POST', '/domains', { key: other.key, body: { name: uniqueDomain() } });
    expect(sending.status).toBe(201);
    const refused = await api('PUT', `/domains/${sending.body.domain.id}/mta-sts`, { key: other.key, body: { mode: 'testing' } });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'validation_error']);
    expect(refused.body.error.message).toMatch(/inbound_enabled/);
    const bad = await api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'strict', max_age: 60 } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'validation_error']);
  });

  it('DELETE stops serving it, then the task deletes the custom domain name and the certificate', async () => {
    const deleted = await api('DELETE', `/domains/${domain.id}/mta-sts`, { key: account.key });
    expect([deleted.status, deleted.body]).toEqual([200, { object: 'mta_sts_hosting', domain_id: domain.id, deleted: true }]);
    expect((await api('GET', `/domains/${domain.id}/mta-sts`, { key: account.key })).status).toBe(404);
    await hostGone(acm, apigw, host, 'after DELETE');
    await expect(fetchPolicy(host)).rejects.toThrow();
    expect((await api('DELETE', `/domains/${domain.id}/mta-sts`, { key: account.key })).status).toBe(404);
  });
});

it('deleting the domain takes its hosted policy down with it', async () => {
  const { acm, apigw } = clients();
  try {
    const { account, domain, host, validation } = await hostedDomain();
    await publish(validation.name, 'CNAME', [validation.value]);
    await api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } });
    await waitForHosting(account, domain.id, (hosting) => hosting.status === 'pending_dns', 'to be served');
    expect((await fetchPolicy(host)).status).toBe(200);
    expect((await api('DELETE', `/domains/${domain.id}`, { key: account.key })).status).toBe(200);
    await hostGone(acm, apigw, host, 'with the domain');
    await expect(fetchPolicy(host)).rejects.toThrow();
  } finally {
    acm.destroy();
    apigw.destroy();
  }
});

describe("the dashboard's domain page", () => {
  it('hosts the policy from the MTA-STS section, shows its status and records as they appear, and stops hosting it', async () => {
    const account = await newAccount();
    const domain = await receivingDomain(account);
    const session = await signIn((await newDashboardUser(account)).email);
    const form = (path: string, fields: Record<string, string> = {}) =>
      dashboardRequest('POST', path, {
        cookie: session.cookie,
        rawBody: new URLSearchParams({ csrf_token: session.csrf, ...fields }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const before = await dashboardRequest('GET', `/dashboard/domains/${domain.id}`, { cookie: session.cookie });
    expect(before.text).toContain('MTA-STS policy');
    expect(before.text).toContain('Host an MTA-STS policy');
    expect((await form(`/dashboard/domains/${domain.id}/mta-sts`, { mode: 'enforce' })).status).toBe(303);
    expect((await hostingOf(account, domain.id)).mode).toBe('enforce');
    await waitForHosting(
      account,
      domain.id,
      (hosting) => recordOf(hosting, 'certificate_validation') !== undefined,
      'to list its validation record',
    );
    const page = await dashboardRequest('GET', `/dashboard/domains/${domain.id}`, { cookie: session.cookie });
    expect(page.text).toContain('certificate validation');
    expect(page.text).toContain(`_mta-sts.inbound.${domain.name}`);
    expect(page.text).toContain('Stop hosting');
    expect(page.text).not.toContain('Host an MTA-STS policy');
    expect((await form(`/dashboard/domains/${domain.id}/mta-sts/delete`)).status).toBe(303);
    expect((await api('GET', `/domains/${domain.id}/mta-sts`, { key: account.key })).status).toBe(404);
    expect((await dashboardRequest('GET', `/dashboard/domains/${domain.id}`, { cookie: session.cookie })).text).toContain(
      'Host an MTA-STS policy',
    );
  });
});

it("turning receiving off takes the subdomain's hosted policy down (its MX is no longer ours)", async () => {
  const { acm, apigw } = clients();
  try {
    const { account, domain, host } = await hostedDomain();
    expect(await certificatesFor(acm, host)).toHaveLength(1);
    const patched = await api('PATCH', `/domains/${domain.id}`, { key: account.key, body: { inbound_enabled: false } });
    expect([patched.status, patched.body.domain.inbound_enabled]).toEqual([200, false]);
    expect((await api('GET', `/domains/${domain.id}/mta-sts`, { key: account.key })).status).toBe(404);
    await hostGone(acm, apigw, host, 'once receiving is off');
  } finally {
    acm.destroy();
    apigw.destroy();
  }
});
