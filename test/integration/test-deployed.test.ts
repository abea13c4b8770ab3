/**
 * `npm run test:deployed` (test/deployed/run.cjs: the bundle of test/deployed/main.ts) as a user runs it: a child process given only the API's
 * URL and a key, against the running local cloud. The account is set up as a first user of a deployment
 * would (a verified domain of its own, a payment method, tenants) so that every step runs; its webhook
 * receiver is the local cloud's HTTPS inbox. A wrong key must fail the run.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { api, newAccount, stack } from './harness/stack';
import { verifiedDomain } from './harness/domains';
import { inboxRequests } from './harness/webhook-inbox';
import type { RunReport } from '../deployed/runner';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '..', '..');

async function testDeployed(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'test', 'deployed', 'run.cjs'), ...args], {
      cwd: ROOT,
      timeout: 240_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

// The runs go at once (`it.concurrent`), each with an account of its own: each run mostly waits on the stack's
// pipelines, so side by side they take the longest one's time, not the sum.
describe('npm run test:deployed against the local cloud', () => {
  jest.setTimeout(300_000);

  it.concurrent('passes every step, reports the SES questions as settled only on AWS, and leaves nothing behind', async () => {
    const account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const domain = await verifiedDomain(account);
    const path = `deployed-${randomUUID().slice(0, 8)}`;
    const result = await testDeployed(
      '--url',
      stack().apiUrl,
      '--key',
      account.key,
      '--from',
      `smoke@${domain.name}`,
      '--webhook-url',
      `${stack().info.webhook_inbox_url}${path}`,
      '--json',
    );
    const report = JSON.parse(result.stdout) as RunReport;
    const failed = report.steps.filter((step) => step.status !== 'PASS' && step.status !== 'ONLY-AWS');
    expect(failed).toEqual([]);
    expect(result.code).toBe(0);
    expect(report).toMatchObject({ target: 'local', ok: true });
    // The four questions only SES settles ran here against the emulator's choices.
    expect(report.steps.filter((step) => step.status === 'ONLY-AWS').map((step) => step.name)).toEqual([
      'sends through an SES tenant, and after its domain went back (tenant refusal fallback)',
      'a non-ASCII sender display name is delivered',
      "mail from the sender's own domain is delivered with its own DKIM key (BYODKIM)",
      'a burst of emails is delivered, none lost to SES throttling',
    ]);
    // The receiver named by --webhook-url got the run's email.delivered events.
    const received = (await inboxRequests(path)).map((request) => JSON.parse(request.body).type);
    expect(received).toContain('email.delivered');
    // Cleaned up: every resource the run created is gone (the domain it added, the template, the tenant, the webhook).
    for (const [list, items] of [
      ['/domains?limit=100', 'domains'],
      ['/templates?limit=100', 'templates'],
      ['/webhooks?limit=100', 'webhooks'],
      ['/tenants?limit=100', 'tenants'],
    ] as const) {
      const names = ((await api('GET', list, { key: account.key })).body[items] as any[]).map(
        (item) => item.name ?? item.alias ?? item.url ?? item.external_id,
      );
      expect(names.filter((name: string) => name.includes(report.run_id))).toEqual([]);
    }
    expect((await api('GET', '/domains?limit=100', { key: account.key })).body.domains.map((one: any) => one.name)).toEqual([domain.name]);
    expect(
      (await api('GET', `/suppressions?email=${encodeURIComponent(`test-deployed+${report.run_id}@example.com`)}`, { key: account.key }))
        .body.suppressions,
    ).toEqual([]);
  });

  it.concurrent('runs with only a free account and the default sandbox sender, skipping what needs a domain, tenants or a receiver', async () => {
    // The sandbox sender reaches only the account email: an address of SES's simulator that is delivered.
    const email = `success+deployed-${randomUUID().slice(0, 8)}@simulator.amazonses.com`;
    const account = await newAccount({ email });
    const result = await testDeployed('--url', stack().apiUrl, '--key', account.key, '--to', email, '--burst', '3');
    expect(result.stdout).toMatch(/^OK: 16 passed, 0 failed, 3 skipped, 2 passed here but settled only on AWS/m);
    expect(result.code).toBe(0);
    const skipped = result.stdout.split('\n').filter((line) => line.startsWith('SKIP'));
    expect(skipped).toEqual([
      expect.stringMatching(/sends through an SES tenant.*\(needs --from on a verified domain of the account/),
      expect.stringMatching(/with its own DKIM key \(BYODKIM\)\s+\(--from is not on a verified domain of the account/),
      expect.stringMatching(/the webhook receiver got email.delivered.*\(no --webhook-url: give a public HTTPS receiver/),
    ]);
    expect(result.stdout).toContain('sandbox.mailservice.dev is not a domain of the account: sending as the sandbox sender');
  });

  it.concurrent('skips, saying why, a create the plan has no room for (a free account with its one domain)', async () => {
    const email = `success+deployed-${randomUUID().slice(0, 8)}@simulator.amazonses.com`;
    const account = await newAccount({ email });
    const domain = await verifiedDomain(account);
    const result = await testDeployed(
      '--url',
      stack().apiUrl,
      '--key',
      account.key,
      '--from',
      `smoke@${domain.name}`,
      '--to',
      email,
      '--burst',
      '0',
    );
    expect(result.stdout).toMatch(
      /^SKIP .*a domain: add, its DNS records, get, delete .*\(the account has no room for another domain \(plan_limit\)/m,
    );
    expect(result.stdout).toMatch(/^SKIP .*sends through an SES tenant.*\(the account cannot open a tenant \(tenants_not_enabled\)\)/m);
    expect(result.stdout).toMatch(/^OK: /m);
    expect(result.code).toBe(0);
  });

  it.concurrent('fails with a non-zero exit code, and says why, when a step fails (a wrong key)', async () => {
    const result = await testDeployed('--url', stack().apiUrl, '--key', 'svc_wrong', '--timeout', '5');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^FAIL .*the key is accepted \(GET \/emails\)\n.*GET \/emails\?limit=1 answered 401, expected 200\n.*-> 401 /m,
    );
    expect(result.stdout).toMatch(/^SKIP .*send one email .*not run: the key is accepted \(GET \/emails\) failed/m);
    expect(result.stdout).toMatch(/^FAILED: 0 passed, 1 failed, \d+ skipped/m);
  });

  it.concurrent('refuses a usage error with exit code 2', async () => {
    const result = await testDeployed('--key', 'svc_x');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--url is required');
  });
});
