/**
 * `imports start`: the body of its flags, and following the continuations: cursor repeated with the same
 * body, retry_after_seconds waited, a 409 on a continuation tried again, progress per step, the secrets
 * of the answer that created each webhook kept for the report.
 */
import { importBody } from '#clients/cli/commands/imports';
import { resourcesDone, type Migration } from '#clients/cli/imports/report';
import { fakeApi, run } from './harness';

const step = (over: Partial<Migration>): Migration => ({
  id: 'mig_1',
  provider: 'mailgun',
  status: 'in_progress',
  dry_run: false,
  resources: ['domains', 'webhooks', 'templates', 'suppressions'],
  has_more: true,
  next_cursor: 'mig_1.1',
  requests: 1,
  domains: { totals: { found: 1, imported: 1 }, items: [] },
  webhooks: { totals: {}, items: [] },
  templates: { totals: {}, items: [] },
  suppressions: { totals: {} },
  errors: [],
  attention: [],
  ...over,
});

describe('imports start', () => {
  it('builds the body of its flags and refuses an unknown provider or resource before any request', () => {
    expect(
      importBody({ provider: 'postmark', providerKey: 'pm', accountKey: 'acct', resources: ['domains,templates'], dryRun: true }),
    ).toEqual({
      provider: 'postmark',
      api_key: 'pm',
      account_api_key: 'acct',
      resources: ['domains', 'templates'],
      dry_run: true,
    });
    expect(() => importBody({ provider: 'mailchimp', providerKey: 'x' })).toThrow('--provider must be one of sendgrid, postmark, mailgun');
    expect(() => importBody({ provider: 'mailgun', providerKey: 'x', resources: ['contacts'] })).toThrow('--resources: contacts unknown');
  });

  it('counts a resource done once the import has moved past it', () => {
    expect(resourcesDone(step({}))).toBe(0);
    expect(resourcesDone(step({ templates: { totals: { found: 2 }, items: [] } }))).toBe(2);
    expect(resourcesDone(step({ has_more: false }))).toBe(4);
  });

  it('follows the continuations to the end with progress, and reports the secrets of every step', async () => {
    const webhook = { url: 'https://hooks.example/mg', status: 'imported', webhook_id: 'wh_1', enabled: false };
    const api = fakeApi([
      () => ({ body: { migration: step({ retry_after_seconds: 3 }) } }),
      () => ({ status: 409, body: { error: { message: 'busy', code: 'conflict' } }, headers: { 'retry-after': '1' } }),
      () => ({
        body: {
          migration: step({
            requests: 2,
            next_cursor: 'mig_1.2',
            webhooks: { totals: { found: 1, imported: 1 }, items: [{ ...webhook, secret: 'whsec_once' }] },
          }),
        },
      }),
      () => ({
        body: {
          migration: step({
            requests: 3,
            has_more: false,
            next_cursor: null,
            status: 'completed',
            webhooks: { totals: { found: 1, imported: 1 }, items: [webhook] },
            suppressions: { totals: { found: 5, imported: 5 } },
          }),
        },
      }),
    ]);
    const result = await run(['imports', 'start', '--provider', 'mailgun', '--provider-key', 'key-1', '--region', 'eu'], {
      fetch: api.fetch,
    });
    expect(result.status).toBe(0);
    expect(api.requests.map((r) => r.body)).toEqual([
      { provider: 'mailgun', api_key: 'key-1', region: 'eu' },
      { provider: 'mailgun', api_key: 'key-1', region: 'eu', cursor: 'mig_1.1' },
      { provider: 'mailgun', api_key: 'key-1', region: 'eu', cursor: 'mig_1.1' },
      { provider: 'mailgun', api_key: 'key-1', region: 'eu', cursor: 'mig_1.2' },
    ]);
    expect(result.progress.trim().split('\n')).toEqual([
      'import from mailgun: 0/4 resources (0%) request 1: domains 1 found, provider rate limit: waiting 3 s',
      'import from mailgun: 1/4 resources (25%) request 2: domains 1 found, webhooks 1 found',
      'import from mailgun: 4/4 resources (100%) request 3: domains 1 found, webhooks 1 found, suppressions 5 found',
    ]);
    expect(result.stdout).toContain('import mig_1 from mailgun: completed, 3 requests');
    expect(result.stdout).toContain('webhook https://hooks.example/mg (wh_1, disabled): signing secret whsec_once (shown once)');
  });
});
