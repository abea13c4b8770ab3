/**
 * Imports in integration tests: provider accounts seeded in the local cloud's fake providers (each test
 * under its own key, so tests never see each other's data), webhook hosts made resolvable, and an
 * import driven to its end the way a client does (repeat with next_cursor while has_more). The API
 * calls go to the shared stack unless another stack's `api` is given (imports-chain.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedProviderAccount, setProviderFaults, providerRequestLog, type AccountSeed, type Faults } from '#localstack/emulators/providers';
import type { PublishedDnsRecord } from '../../fixtures/providers/types';
import { mailgunFixture } from '../../fixtures/providers/mailgun';
import { postmarkFixture } from '../../fixtures/providers/postmark';
import { sendgridFixture } from '../../fixtures/providers/sendgrid';
import { api, stack, type ApiResponse, type TestAccount } from './stack';

/** An API client of one stack (`api` for the shared one). */
export type Api = (method: string, path: string, options?: { key?: string; body?: unknown }) => Promise<ApiResponse>;

export const emulatorUrl = () => stack().info.env.LOCAL_PROVIDERS_URL as string;

/**
 * How many of a fixture's 10,000 generated bounces the integration tests import: enough for the bounce
 * list to span pages (SendGrid 3 of 500, Postmark and Mailgun 2 of 1000), a ninth of the writes (each is a
 * conditional put, and the import tests make 15,000 of them in a whole run at 2,100). The adapters' unit
 * tests read all 10,000 (test/unit/providers/).
 */
export const GENERATED_BOUNCES = 1_100;

/** A provider fixture's seed with only its first `generated` generated bounces (its hand-made entries come first and all stay). */
export function fixtureData(provider: AccountSeed['provider'], generated = GENERATED_BOUNCES): AccountSeed['data'] {
  if (provider === 'sendgrid') {
    const sg = sendgridFixture.data;
    return { ...sg, bounces: sg.bounces!.slice(0, 3 + generated) };
  }
  if (provider === 'postmark') {
    // outbound: five hand-made rows (one HardBounce), then the generated hard bounces.
    const pm = postmarkFixture.data;
    return { ...pm, suppressions: { ...pm.suppressions, outbound: pm.suppressions.outbound!.slice(0, 5 + generated) } };
  }
  const mg = mailgunFixture.data;
  const main = mailgunFixture.facts.domains.names.find((name: string) => name.startsWith('mg.'))!;
  return { ...mg, domains: mg.domains!.map((d) => (d.domain.name === main ? { ...d, bounces: d.bounces!.slice(0, 3 + generated) } : d)) };
}

/** A distinctive key per test (the secrets test greps for it). */
export function providerKey(prefix: string): string {
  return `${prefix}${randomUUID().replace(/-/g, '')}`;
}

export async function seedProvider(seed: AccountSeed): Promise<void> {
  await seedProviderAccount(emulatorUrl(), seed);
}

export async function setFaults(provider: AccountSeed['provider'], apiKey: string, faults: Faults): Promise<void> {
  await setProviderFaults(emulatorUrl(), provider, apiKey, faults);
}

export function requestLog(provider: AccountSeed['provider'], apiKey: string) {
  return providerRequestLog(emulatorUrl(), provider, apiKey);
}

/** What the domain owner already published, and public A records for the fixtures' webhook hosts. */
export async function publishFixtureDns(
  records: readonly PublishedDnsRecord[],
  webhookHosts: readonly string[],
  call: Api = api,
): Promise<void> {
  const sets = [...records, ...webhookHosts.map((host) => ({ name: host, type: 'A', values: ['93.184.215.14'] }))];
  for (const { name, type, values } of sets) {
    const response = await call('PUT', '/_local/dns/records', { body: { name, type, values } });
    if (response.status !== 200) throw new Error(`publishing ${type} ${name} failed: ${response.text}`);
  }
}

/** POST /migrations with `body` (and cursor), repeated until has_more is false; every answer, in order. */
export async function importToEnd(
  account: TestAccount,
  body: Record<string, unknown>,
  options: { maxRequests?: number; honourRetryAfter?: boolean; api?: Api } = {},
): Promise<ApiResponse[]> {
  const call = options.api ?? api;
  const answers: ApiResponse[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < (options.maxRequests ?? 200); i++) {
    const response = await call('POST', '/migrations', { key: account.key, body: cursor ? { ...body, cursor } : body });
    answers.push(response);
    if (response.status !== 200) throw new Error(`POST /migrations answered ${response.status}: ${response.text}`);
    const migration = response.body.migration;
    if (!migration.has_more) return answers;
    cursor = migration.next_cursor;
    if (options.honourRetryAfter && migration.retry_after_seconds)
      await new Promise((resolve) => setTimeout(resolve, migration.retry_after_seconds * 1000));
  }
  throw new Error('the import did not finish within the requests allowed');
}

/**
 * Every file under `dir` (recursively), as [path, contents]; sockets and the like are left out. The stack
 * writes while it is read (a `*.tmp` renamed over its file): a file gone between the listing and the read is
 * left out too, its renamed copy being read in its place.
 */
export function filesUnder(dir: string): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) {
      try {
        out.push([path, readFileSync(path)]);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  return out;
}

/** The cells of a CSV text (RFC 4180: CRLF rows, quoted cells, `""` for a quote inside one). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') endCell();
    else if (c === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

/**
 * GET /migrations/{id}/report both ways: the JSON rows, and the CSV as the same rows would be written
 * (each value as text; a cell a spreadsheet would run as a formula with its leading apostrophe).
 */
export async function reportBothWays(
  account: TestAccount,
  id: string,
): Promise<{
  json: { columns: string[]; rows: Record<string, unknown>[] };
  contentType: string | null;
  csv: string[][];
  jsonAsCsv: string[][];
}> {
  const json = (await api('GET', `/migrations/${id}/report?format=json`, { key: account.key })).body;
  const response = await fetch(`${stack().apiUrl}/migrations/${id}/report`, { headers: { authorization: `Bearer ${account.key}` } });
  const csv = parseCsv(await response.text());
  const asCell = (value: unknown) => (typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value));
  const jsonAsCsv = [
    json.columns,
    ...json.rows.map((row: Record<string, unknown>) => json.columns.map((column: string) => asCell(row[column]))),
  ];
  return { json, contentType: response.headers.get('content-type'), csv, jsonAsCsv };
}
