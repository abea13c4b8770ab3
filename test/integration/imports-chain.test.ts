/**
 * A chain of continuations ends with the same report as one long request (docs/imports.md, "Long
 * imports"). Each provider's fixture (test/fixtures/providers/*.ts), cut to 1,100 generated bounces so
 * the bounce list still crosses page boundaries (SendGrid pages of 500: 3 pages; Postmark's dump taken
 * 1,000 at a time: 2; Mailgun pages of 1,000: 2, then the empty page it answers last), is imported
 * twice into fresh accounts:
 * - on the shared stack, whose requests work up to the 20 s budget (one request here);
 * - on a stack of this test's own started with MIGRATION_MAX_STRETCHES_PER_REQUEST=1, so every request
 *   saves exactly one stretch (a page of suppressions, the list of lists, a few domains or templates,
 *   the webhooks) and answers has_more with a new cursor.
 * The final reports must be equal (statuses, names, aliases, totals, skipped reasons, errors, attention,
 * DNS plans), every answer of the chain must have stopped at one stretch (suppressions found grows by at
 * most a page per answer, and by exactly each bounce page in turn), and both imports must have read
 * the provider the same way (each page once).
 *
 * Domain names are made unique to this run (acme-sg.example -> acme-sg-<tag>.example): a domain belongs
 * to one account per stack, and other tests import the fixtures' own names on the shared stack.
 *
 * The stack of its own also runs with logging on (LOG_LEVEL=info; the shared one is silent): the last
 * test searches its output and its data folder (on disk, DynamoDB Local's file included) for every
 * provider key used, after error paths that log (a 502 is logged with its message).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerRequestLog, seedProviderAccount, setProviderFaults, type AccountSeed } from '#localstack/emulators/providers';
import { readStackFile, type StackInfo } from '#localstack/cloud/stack/stack-file';
import { loadConfig } from '#shared/config/config';
import { buildServices, type Services } from '#shared/services';
import { createAccount } from '#shared/usecases/access/accounts';
import { mailgunFixture } from '../fixtures/providers/mailgun';
import { postmarkFixture } from '../fixtures/providers/postmark';
import { sendgridFixture } from '../fixtures/providers/sendgrid';
import type { PublishedDnsRecord } from '../fixtures/providers/types';
import { comparableReport, requestPaths } from './harness/import-reports';
import { filesUnder, fixtureData, importToEnd, providerKey, publishFixtureDns, requestLog, seedProvider } from './harness/imports';
import { newAccount, stack, type ApiResponse, type TestAccount } from './harness/stack';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';

type Provider = AccountSeed['provider'];

const TAG = randomUUID().slice(0, 8);

/**
 * Generated bounces per fixture: past one page of every provider (SendGrid 500, Postmark and Mailgun
 * 1,000), so each chain stops at page boundaries, with half the writes of GENERATED_BOUNCES (six imports
 * here; each suppression is a conditional put).
 */
const CHAIN_BOUNCES = 1_100;

/** The fixture's domain names made unique to this run, everywhere they appear (records, hosts, DNS). */
function renamed<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/\b(acme|news)-(sg|pm|mg)\.example\b/g, `$1-$2-${TAG}.example`)) as T;
}

/** Every https host of the fixture's webhooks (they must resolve for an endpoint to be created). */
function webhookHosts(data: unknown): string[] {
  return [...new Set([...JSON.stringify(data).matchAll(/https:\/\/([a-z0-9.-]+\.example)\//g)].map((match) => match[1]!))];
}

interface Case {
  provider: Provider;
  data: unknown;
  publishedDns: PublishedDnsRecord[];
  keyPrefix: string;
  /** Postmark: the account token too (domains). */
  accountKey: boolean;
  /** Entries of the bounce list's pages (the boundaries the chain must stop at). */
  bouncePages: number[];
  /** The largest page a suppression stretch works. */
  pageSize: number;
}

const CASES: Case[] = [
  {
    provider: 'sendgrid',
    data: renamed(fixtureData('sendgrid', CHAIN_BOUNCES)),
    publishedDns: renamed(sendgridFixture.publishedDns),
    keyPrefix: 'SG.',
    accountKey: false,
    bouncePages: [500, 500, 103],
    pageSize: 500,
  },
  {
    provider: 'postmark',
    // outbound: 1,101 HardBounce (one hand-made).
    data: renamed(fixtureData('postmark', CHAIN_BOUNCES)),
    publishedDns: renamed(postmarkFixture.publishedDns),
    keyPrefix: 'pm-',
    accountKey: true,
    bouncePages: [1000, 101],
    pageSize: 1000,
  },
  {
    provider: 'mailgun',
    data: renamed(fixtureData('mailgun', CHAIN_BOUNCES)),
    publishedDns: renamed(mailgunFixture.publishedDns),
    keyPrefix: 'key-',
    accountKey: false,
    bouncePages: [1000, 103, 0],
    pageSize: 1000,
  },
];

/**
 * How many times the bounce list's pages were cut when the per-answer counts `added` hold them in order,
 * each page whole in one answer or split over consecutive answers (a time budget cut it); null when they
 * are not there.
 */
function pageCuts(added: number[], pages: number[]): number | null {
  for (let start = 0; start < added.length; start++) {
    let at = start;
    let cuts = 0;
    const whole = pages.every((page) => {
      if (page === 0) return added[at++] === 0;
      let sum = 0;
      let pieces = 0;
      while (at < added.length && sum < page && added[at]! > 0) {
        sum += added[at++]!;
        pieces++;
      }
      cuts += pieces - 1;
      return sum === page;
    });
    if (whole) return cuts;
  }
  return null;
}

describe('a chain of continuations (one stretch per request) ends with the same report as one long request', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-imports-chain-'));
  let own: SpawnedStack;
  let ownInfo: StackInfo;
  let ownServices: Services;
  /** Every provider key this test used (the last test searches logs and files for them). */
  const keys: string[] = [];

  async function ownApi(method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(ownInfo.api_url + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, body, text };
  }

  const ownEmulator = () => ownInfo.env.LOCAL_PROVIDERS_URL!;

  async function ownAccount(): Promise<TestAccount> {
    const email = `chain+${randomUUID().slice(0, 8)}@example.com`;
    const { account, secret } = await createAccount(ownServices, { email, plan: 'free', paymentMethod: false, tenants: false });
    return { id: account.id, email, key: secret };
  }

  beforeAll(async () => {
    // Started before this worker learns the shared stack's environment (stack() copies it into
    // process.env, which a spawned stack inherits); the variables that would point a stack at another
    // one's emulators are blanked anyway.
    own = await spawnStack({
      dataDir,
      inMemory: false,
      timeoutMs: 90_000,
      env: {
        MIGRATION_MAX_STRETCHES_PER_REQUEST: '1',
        LOG_LEVEL: 'info',
        PROVIDER_SENDGRID_URL: '',
        PROVIDER_SENDGRID_EU_URL: '',
        PROVIDER_POSTMARK_URL: '',
        PROVIDER_MAILGUN_URL: '',
        PROVIDER_MAILGUN_EU_URL: '',
        DNS_RESOLVERS: '',
        LINKS_BASE_URL: '',
      },
    });
    ownInfo = readStackFile(dataDir)!;
    expect(ownInfo.env.PROVIDER_SENDGRID_URL!.startsWith(ownInfo.env.LOCAL_PROVIDERS_URL!)).toBe(true);
    stack(); // the shared stack (and the local AWS credentials in process.env)
    expect(ownInfo.env.LOCAL_PROVIDERS_URL).not.toBe(stack().info.env.LOCAL_PROVIDERS_URL);
    ownServices = buildServices(loadConfig({ ...ownInfo.env }));
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(CASES.map((c) => [c.provider, c] as const))(
    '%s',
    async (provider, c) => {
      const apiKey = providerKey(c.keyPrefix);
      const accountApiKey = c.accountKey ? providerKey(`${c.keyPrefix}account-`) : undefined;
      keys.push(apiKey, ...(accountApiKey ? [accountApiKey] : []));
      const seed: AccountSeed = { provider, api_key: apiKey, ...(accountApiKey ? { account_api_key: accountApiKey } : {}), data: c.data };
      const hosts = webhookHosts(c.data);
      await seedProvider(seed);
      await seedProviderAccount(ownEmulator(), seed);
      await publishFixtureDns(c.publishedDns, hosts);
      await publishFixtureDns(c.publishedDns, hosts, ownApi);
      const body = { provider, api_key: apiKey, ...(accountApiKey ? { account_api_key: accountApiKey } : {}) };

      const [sharedAccount, chainAccount] = await Promise.all([newAccount({ plan: 'free' }), ownAccount()]);
      const [long, chainAnswers] = await Promise.all([
        importToEnd(sharedAccount, body),
        importToEnd(chainAccount, body, { api: ownApi, maxRequests: 100 }),
      ]);
      const single = long.at(-1)!.body.migration;
      const chain: any[] = chainAnswers.map((answer) => answer.body.migration);
      const last = chain.at(-1)!;

      // The chain stopped after every stretch: one request each, each with a new cursor, has_more until the last.
      expect(chain.map((answer) => answer.requests)).toEqual(chain.map((_, index) => index + 1));
      expect(chain.map((answer) => answer.has_more)).toEqual(chain.map((_, index) => index < chain.length - 1));
      expect(chain.map((answer) => answer.next_cursor)).toEqual(
        chain.map((answer, index) => (index < chain.length - 1 ? `${answer.id}.${index + 1}` : null)),
      );
      expect(chain.map((answer) => answer.status)).toEqual([...chain.slice(1).map(() => 'in_progress'), single.status]);
      // Suppressions: at most one page per answer, and the bounce list's pages one answer each, in order.
      const found = chain.map((answer) => answer.suppressions.totals.found);
      const added = found.map((count, index) => count - (index === 0 ? 0 : found[index - 1]!));
      expect(Math.max(...added)).toBeLessThanOrEqual(c.pageSize);
      expect(Math.min(...added)).toBeGreaterThanOrEqual(0);
      // A page the chain's own time budget cut (a loaded machine) comes in two answers or more, in order.
      const cuts = pageCuts(added, c.bouncePages);
      expect({ added, cuts }).toEqual({ added, cuts: expect.any(Number) });
      // Domains, webhooks, templates (a stretch at least each), the list of lists, and every page.
      expect(chain.length).toBeGreaterThanOrEqual(4 + c.bouncePages.length);
      expect(chain.length).toBeGreaterThan(long.length + c.bouncePages.length);

      // The same report as one long request.
      expect(single).toMatchObject({ has_more: false, next_cursor: null });
      expect(comparableReport(last, ownInfo.api_url)).toEqual(comparableReport(single, stack().apiUrl));
      const stored = (await ownApi('GET', `/migrations/${last.id}`, { key: chainAccount.key })).body.migration;
      expect(comparableReport(stored, ownInfo.api_url)).toEqual(comparableReport(last, ownInfo.api_url));
      // Each created webhook's secret shown once, in the answer of the request that created it.
      const secrets = chain.flatMap((answer) =>
        answer.webhooks.items.filter((item: any) => item.secret !== null).map((item: any) => item.secret),
      );
      expect(secrets).toHaveLength(last.webhooks.totals.imported);
      expect(new Set(secrets).size).toBe(secrets.length);

      // The provider was read the same way: every page once, nothing read again by the continuations,
      // except a page the long import's budget cut (its next request reads it again). And except what an adapter keeps for the rest of one request only, read again by each request that
      // needs it: Mailgun's domain names (to walk templates and webhooks domain by domain) and a Postmark
      // suppression dump (unpaginated: one read serves all its 1,000-entry pages within a request, so the
      // chain, a request per page, reads the bounce dump once per page).
      const sharedLog = requestPaths(await requestLog(provider, apiKey));
      const ownLog = requestPaths(await providerRequestLog(ownEmulator(), provider, apiKey));
      const perRequest = (path: string) =>
        (provider === 'mailgun' && path.startsWith('GET /v4/domains?limit=100&skip=0')) ||
        (provider === 'postmark' && path.includes('/suppressions/dump?'));
      const ownPaths = ownLog.filter((path) => !perRequest(path));
      const sharedPaths = sharedLog.filter((path) => !perRequest(path));
      // A page the long import's time budget cut (a loaded machine) is read again by its next request:
      // the long import's reads are the chain's, plus at most one per continuation it needed.
      // And a page the chain's budget cut is read again by the chain's next request.
      const extra = [...sharedPaths];
      const chainExtra: string[] = [];
      for (const path of ownPaths) {
        const at = extra.indexOf(path);
        if (at < 0) chainExtra.push(path);
        else extra.splice(at, 1);
      }
      expect(chainExtra.length).toBeLessThanOrEqual(cuts!);
      expect(extra.length).toBeLessThanOrEqual(long.length - 1);
      expect(new Set(ownLog)).toEqual(new Set(sharedLog));
      if (provider === 'postmark') {
        const bounceDump = 'GET /message-streams/outbound/suppressions/dump?SuppressionReason=HardBounce';
        // Once per request that reached the bounce list: one, unless a loaded machine made the long import
        // itself continue (each of its requests works ~20 s).
        const sharedDumps = sharedLog.filter((path) => path === bounceDump).length;
        expect(sharedDumps).toBeGreaterThanOrEqual(1);
        expect(sharedDumps).toBeLessThanOrEqual(long.length);
        expect(ownLog.filter((path) => path === bounceDump)).toHaveLength(c.bouncePages.length + cuts!);
      }
    },
    150_000,
  );

  it('the provider keys are in none of its logs or files (DynamoDB Local on disk included)', async () => {
    expect(keys.length).toBeGreaterThanOrEqual(4);
    // Error paths too: a key the provider rejects (400) and an outage (502, logged with its message).
    const account = await ownAccount();
    const rejected = providerKey('SG.');
    keys.push(rejected);
    expect((await ownApi('POST', '/migrations', { key: account.key, body: { provider: 'sendgrid', api_key: rejected } })).status).toBe(400);
    await setProviderFaults(ownEmulator(), 'sendgrid', keys[0]!, { unavailable: true });
    const outage = await ownApi('POST', '/migrations', { key: account.key, body: { provider: 'sendgrid', api_key: keys[0] } });
    expect(outage.status).toBe(502);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const output = own.output();
    // Logging is on: the 502 was logged, with the provider's error message.
    expect(output).toContain('"message":"request failed"');
    expect(output).toContain('SendGrid could not be reached');

    const needles = keys.flatMap((key) => [
      key,
      key.replace(/^(SG\.|pm-account-|pm-|key-)/, ''),
      Buffer.from(key).toString('base64'),
      Buffer.from(`api:${key}`).toString('base64'),
    ]);
    expect(needles.filter((needle) => output.includes(needle))).toEqual([]);

    const files = filesUnder(dataDir);
    // DynamoDB Local keeps the table in a file here, and it holds the imports (their ids are in it).
    const table = files.filter(([path]) => path.includes(`${join(dataDir, 'dynamodb')}`));
    expect(table.length).toBeGreaterThan(0);
    expect(table.some(([, contents]) => contents.indexOf(Buffer.from('MIGRATION#')) !== -1)).toBe(true);
    const holding = files
      .filter(([, contents]) => needles.some((needle) => contents.indexOf(Buffer.from(needle)) !== -1))
      .map(([path]) => path);
    expect(holding).toEqual([]);
  }, 60_000);
});
