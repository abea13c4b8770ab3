/**
 * Hosted MTA-STS policies bounded per account by plan (docs/deliverability.md, "Hosted MTA-STS policy": the
 * deployment's custom domain names and certificates are shared by every account): concurrent PUTs for different
 * domains of an account at its bound, against DynamoDB Local, create exactly the bound's number (the counter
 * taken in the creation's transaction) and answer the others 403 plan_limit naming it, never a 5xx; a deleted
 * policy's place is free once its removal completes, not before. The operator sees the deployment's headroom
 * (`npm run admin -- mta-sts quota`).
 */
import { PLANS } from '#shared/domain/accounts/plans';
import { runAdminCli } from './harness/admin-cli';
import { publish } from './harness/dns';
import { receivingDomain } from './harness/inbound';
import { api, newAccount } from './harness/stack';
import { waitWithTask } from './harness/tasks';

jest.setTimeout(120_000);

const BOUND = PLANS.pro.mtaStsPolicies;

describe('hosted MTA-STS policies per account (pro plan)', () => {
  it(`${BOUND + 3} PUTs racing for different domains: exactly ${BOUND} hosted, the others 403 plan_limit; a place frees once a removal completes`, async () => {
    const account = await newAccount({ plan: 'pro' });
    const domains = [];
    for (let i = 0; i < BOUND + 3; i++) domains.push(await receivingDomain(account));

    const answers = await Promise.all(
      domains.map((domain) => api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(BOUND).fill(200), ...Array(3).fill(403)]);
    for (const refused of answers.filter((answer) => answer.status === 403)) {
      expect(refused.body.error).toMatchObject({
        code: 'plan_limit',
        message: `The pro plan includes ${BOUND} hosted MTA-STS policies; delete one (its place is free once its removal completes, within a few minutes) or upgrade to host more.`,
        details: { limit: BOUND, resource: 'mta_sts_policies', plan: 'pro' },
      });
    }
    // What is stored agrees: exactly the accepted ones are hosted.
    const hosted = await Promise.all(
      domains.map(async (domain) => (await api('GET', `/domains/${domain.id}/mta-sts`, { key: account.key })).status),
    );
    expect(hosted).toEqual(answers.map((answer) => (answer.status === 200 ? 200 : 404)));

    const accepted = domains.filter((_, i) => answers[i]!.status === 200);
    const refused = domains.filter((_, i) => answers[i]!.status === 403);
    // The same policy again is no new one: answered at the bound.
    expect((await api('PUT', `/domains/${accepted[0]!.id}/mta-sts`, { key: account.key, body: { mode: 'enforce' } })).status).toBe(200);

    // Deleted: still counted while its removal runs (its certificate may still be in ACM)...
    expect((await api('DELETE', `/domains/${accepted[0]!.id}/mta-sts`, { key: account.key })).status).toBe(200);
    expect((await api('PUT', `/domains/${refused[0]!.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } })).status).toBe(403);
    // ...and its place free once the domain-health task has removed it (its passes asked for).
    await waitWithTask(
      'domain-health',
      async () => {
        const answer = await api('PUT', `/domains/${refused[0]!.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } });
        if (answer.status === 403) return undefined;
        expect(answer.status).toBe(200);
        return answer;
      },
      "the deleted policy's place to be free",
      60_000,
    );
    // One place, taken: the next is refused again.
    expect((await api('PUT', `/domains/${refused[1]!.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } })).status).toBe(403);
  });
});

describe("the deployment's headroom (npm run admin -- mta-sts quota)", () => {
  async function headroom(...options: string[]) {
    const { code, stdout, stderr } = await runAdminCli(process.env.TEST_STACK_DATA_DIR, 'mta-sts', 'quota', ...options);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(stdout);
  }

  it("shows the custom domain names and certificates used out of the quotas (AWS's defaults, or the raised ones given), and each plan's bound", async () => {
    // A policy of this test's, served: its certificate issued, its custom domain name made by the domain-health task.
    const account = await newAccount();
    const domain = await receivingDomain(account);
    const put = () => api('PUT', `/domains/${domain.id}/mta-sts`, { key: account.key, body: { mode: 'testing' } });
    const hosting = async () =>
      (await api('GET', `/domains/${domain.id}/mta-sts`, { key: account.key })).body as {
        status: string;
        records: { purpose: string; name: string; value: string }[];
      };
    expect((await put()).status).toBe(200);
    const validation = await waitWithTask(
      'domain-health',
      async () => (await hosting()).records.find((record) => record.purpose === 'certificate_validation'),
      'the certificate to be requested',
      60_000,
    );
    await publish(validation.name, 'CNAME', [validation.value]);
    await put();
    await waitWithTask(
      'domain-health',
      async () => (await hosting()).status === 'pending_dns' || undefined,
      'the policy to be served',
      60_000,
    );

    // This test's policy counted (other files make and delete theirs meanwhile: exact counts are the unit test's,
    // test/unit/mta-sts/quota-headroom.test.ts).
    const report = await headroom();
    expect(report.certificates.used).toBeGreaterThanOrEqual(1);
    expect(report.custom_domain_names.used).toBeGreaterThanOrEqual(1);
    expect(report.certificates).toEqual({ used: report.certificates.used, quota: 2500, available: 2500 - report.certificates.used });
    expect(report.custom_domain_names).toEqual({
      used: report.custom_domain_names.used,
      quota: 120,
      available: 120 - report.custom_domain_names.used,
    });
    expect(report.policies_available).toBe(Math.min(report.custom_domain_names.available, report.certificates.available));
    expect(report.policies_per_account).toEqual({ free: 1, pro: 5, scale: 20, dedicated: 50 });
    expect(report.link_domains_per_account).toEqual({ free: 1, pro: 5, scale: 20, dedicated: 50 });

    const raised = await headroom('--domain-name-quota', '600', '--certificate-quota', '5000');
    expect(raised.custom_domain_names.quota).toBe(600);
    expect(raised.certificates.quota).toBe(5000);
    const refused = await runAdminCli(process.env.TEST_STACK_DATA_DIR, 'mta-sts', 'quota', '--domain-name-quota', 'lots');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--domain-name-quota must be a whole number');
  });
});
