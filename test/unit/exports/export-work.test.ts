/**
 * The export use cases on in-memory fakes (below: lists paginated like the repositories', an export
 * repository with the table's conditions, a blob store that signs links as `signed:<key>`): every kind written once as NDJSON (and
 * suppressions as CSV too, the account's list then each tenant's), a long export continued by GET across
 * requests into several parts without duplicates, a request that died between a part's file and its save
 * redone under the same key, and the refusals (a tenant-limited key, a second running export, an unknown id).
 */
import { toPublicEmail } from '#shared/domain/emails/email';
import { toPublicSuppression } from '#shared/domain/suppressions/model';
import { toPublicWebhook } from '#shared/domain/webhooks/endpoint';
import { EXPORT_KINDS } from '#shared/domain/exports/export';
import { getExport, listExports, startExport } from '#shared/usecases/exports/exports';
import type { Email } from '#shared/domain/emails/email';
import type { ExportHead, ExportStatus } from '#shared/domain/exports/export';
import type { Suppression } from '#shared/domain/suppressions/model';
import type { WebhookEndpoint } from '#shared/domain/webhooks/endpoint';
import type { Page } from '#shared/adapters/store/cursor';
import type { CreateOutcome, ExportStretchUpdate } from '#shared/adapters/store/exports';
import type { ExportDeps, ExportSettings } from '#shared/usecases/exports/deps';
import type { Principal } from '#shared/usecases/access/principal';

// ---- in-memory fakes ----------------------------------------------------------------------------

function paginate<T>(items: readonly T[], request: { limit: number; cursor?: string }): Page<T> {
  const start = request.cursor ? Number(request.cursor) : 0;
  const end = start + request.limit;
  return { items: items.slice(start, end), next_cursor: end < items.length ? String(end) : null };
}

class FakeExports {
  readonly heads = new Map<string, ExportHead & { lease_until?: number }>();
  /** When set, the next saveStretch throws (a request dying between a part's file and its save). */
  crashNextSave = false;

  private key = (accountId: string, id: string) => `${accountId}/${id}`;
  private copy = (head: ExportHead & { lease_until?: number }): ExportHead => {
    const { lease_until: _lease, ...rest } = structuredClone(head);
    return rest;
  };

  /** Each account's running slot (the store's conditional put): the export holding it. */
  readonly slots = new Map<string, string>();

  async create(head: ExportHead, leaseUntilMs: number): Promise<CreateOutcome> {
    const holder = this.slots.get(head.account_id);
    if (holder !== undefined) return { kind: 'busy', exportId: holder };
    this.slots.set(head.account_id, head.id);
    this.heads.set(this.key(head.account_id, head.id), { ...structuredClone(head), lease_until: leaseUntilMs });
    return { kind: 'created' };
  }
  async release(accountId: string, exportId: string): Promise<void> {
    if (this.slots.get(accountId) === exportId) this.slots.delete(accountId);
  }
  async get(accountId: string, id: string): Promise<ExportHead | null> {
    const head = this.heads.get(this.key(accountId, id));
    return head ? this.copy(head) : null;
  }
  async claim(accountId: string, id: string, nowMs: number, leaseUntilMs: number): Promise<ExportHead | null> {
    const head = this.heads.get(this.key(accountId, id));
    if (head?.status !== 'running' || (head.lease_until !== undefined && head.lease_until >= nowMs)) return null;
    head.lease_until = leaseUntilMs;
    return this.copy(head);
  }
  async saveStretch(head: ExportHead, leaseUntilMs: number, update: ExportStretchUpdate, nowIso: string): Promise<boolean> {
    if (this.crashNextSave) {
      this.crashNextSave = false;
      throw new Error('the request died');
    }
    const stored = this.heads.get(this.key(head.account_id, head.id))!;
    if (stored.stretches !== head.stretches || stored.lease_until !== leaseUntilMs) return false;
    Object.assign(stored, structuredClone(update), { stretches: head.stretches + 1, updated_at: nowIso });
    Object.assign(head, this.copy(stored));
    return true;
  }
  async finish(head: ExportHead, leaseUntilMs: number, status: ExportStatus, nowIso: string): Promise<boolean> {
    const stored = this.heads.get(this.key(head.account_id, head.id))!;
    if (stored.stretches !== head.stretches || stored.lease_until !== leaseUntilMs) return false;
    delete stored.lease_until;
    if (status === 'completed') {
      Object.assign(stored, { status, completed_at: nowIso, updated_at: nowIso });
      await this.release(head.account_id, head.id);
    }
    Object.assign(head, this.copy(stored));
    return true;
  }
  async list(accountId: string, request: { limit: number; cursor?: string }): Promise<Page<ExportHead>> {
    const mine = [...this.heads.values()]
      .filter((head) => head.account_id === accountId)
      .sort((a, b) => b.id.localeCompare(a.id))
      .map(this.copy);
    return paginate(mine, request);
  }
  /** The addresses each export's files name (its address references), and how many files were in the bucket when each was written. */
  readonly named = new Map<string, Set<string>>();
  filesWhenNamed: number[] = [];
  blobs: { objects: Map<string, string> } | null = null;
  async nameAddresses(head: Pick<ExportHead, 'account_id' | 'id'>, addresses: readonly string[]): Promise<void> {
    const set = this.named.get(head.id) ?? new Set<string>();
    for (const address of addresses) set.add(address);
    this.named.set(head.id, set);
    this.filesWhenNamed.push(this.blobs?.objects.size ?? 0);
  }
  /** Lets the lease of every export run out (a request that died is taken over by the next). */
  expireLeases(): void {
    for (const head of this.heads.values()) delete head.lease_until;
  }
}

class FakeBlobs {
  readonly objects = new Map<string, string>();
  async put(key: string, body: string | Buffer): Promise<void> {
    this.objects.set(key, body.toString());
  }
  async presignGet(key: string): Promise<string> {
    return `signed:${key}`;
  }
}

function email(id: string, overrides: Partial<Email> = {}): Email {
  return {
    id,
    account_id: 'acc_1',
    from: 'a@acme.test',
    to: ['b@example.com'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: `subject ${id}`,
    status: 'delivered',
    last_event: 'delivered',
    bounce_reason: null,
    bounce_type: null,
    tags: [],
    headers: {},
    scheduled_at: null,
    cancelled_at: null,
    sent_at: '2026-11-20T10:00:01.000Z',
    delivered_at: '2026-11-20T10:00:02.000Z',
    bounced_at: null,
    created_at: '2026-11-20T10:00:00.000Z',
    tenant: null,
    tenant_id: null,
    provider_message_id: null,
    ...overrides,
  };
}

function suppression(id: string, emailAddress: string, tenant: string | null): Suppression {
  return {
    id,
    account_id: 'acc_1',
    email: emailAddress,
    scope: tenant === null ? 'account' : 'tenant',
    tenant,
    reason: 'manual',
    created_at: '2026-11-20T10:00:00.000Z',
  } as Suppression;
}

function webhook(id: string): WebhookEndpoint {
  return {
    id,
    account_id: 'acc_1',
    url: `https://hooks.example.com/${id}`,
    events: ['email.delivered'],
    enabled: true,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
  } as WebhookEndpoint;
}

interface Seed {
  emails: Email[];
  suppressions: { account: Suppression[]; tenants: { id: string; external_id: string; items: Suppression[] }[] };
  webhooks: WebhookEndpoint[];
}

function fakeDeps(seed: Seed, settings: Partial<ExportSettings> = {}, clock = { now: () => new Date('2026-11-25T12:00:00.000Z') }) {
  const exports = new FakeExports();
  const blobs = new FakeBlobs();
  exports.blobs = blobs;
  const deps: ExportDeps = {
    exports,
    blobs,
    clock,
    exportSettings: { budgetMs: 20_000, maxStretchesPerRequest: null, partRecords: 1000, leaseMs: 55_000, ...settings },
    emailListing: { list: async (_account, request) => paginate(seed.emails, request) },
    tenants: {
      list: async (_account, request) =>
        paginate(
          seed.suppressions.tenants.map(({ id, external_id }) => ({ id, external_id }) as never),
          request,
        ),
      existing: async (refs) =>
        new Map(refs.filter((ref) => seed.suppressions.tenants.some((t) => t.id === ref.id)).map((ref) => [ref.id, ref as never])),
    },
    domains: { list: async () => ({ items: [], next_cursor: null }) },
    webhooks: { list: async (_account, request) => paginate(seed.webhooks, request) },
    suppressions: {
      list: async (_account, tenantId, _filter, request) =>
        paginate(tenantId === null ? seed.suppressions.account : seed.suppressions.tenants.find((t) => t.id === tenantId)!.items, request),
    },
    templates: { list: async () => ({ items: [], next_cursor: null }) },
    automations: { list: async () => ({ items: [], next_cursor: null }) },
    receivedEmails: { list: async () => ({ items: [], next_cursor: null }) },
  };
  return { deps, exports, blobs };
}

const accountPrincipal = {
  account: { id: 'acc_1' },
  credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null },
} as unknown as Principal;
const tenantPrincipal = {
  account: { id: 'acc_1' },
  credential: { kind: 'api_key', id: 'key_2', scopes: ['full'], tenant: 'ten_1', allowed_domains: null },
} as unknown as Principal;

// ---- tests --------------------------------------------------------------------------------------

function seed(emails = 3): Seed {
  return {
    emails: Array.from({ length: emails }, (_, i) =>
      email(
        `msg_${String(i).padStart(26, '0')}`,
        i === 0
          ? {
              status: 'bounced',
              last_event: 'bounced',
              delivered_at: null,
              bounced_at: '2026-11-20T10:00:03.000Z',
              bounce_type: 'Permanent',
              bounce_reason: 'no mailbox',
            }
          : {},
      ),
    ),
    suppressions: {
      account: [suppression('sup_1', 'gone@example.com', null), suppression('sup_2', 'quote,"comma"@example.com', null)],
      tenants: [
        { id: 'ten_1', external_id: 'shop-1', items: [suppression('sup_3', 'one@example.com', 'ten_1')] },
        { id: 'ten_2', external_id: 'shop-2', items: [] },
        { id: 'ten_3', external_id: 'shop-3', items: [suppression('sup_4', 'three@example.com', 'ten_3')] },
      ],
    },
    webhooks: [webhook('wh_1'), webhook('wh_2')],
  };
}

/** Every NDJSON record of a kind, its parts concatenated in order. */
function records(blobs: FakeBlobs, kind: string): any[] {
  const parts = [...blobs.objects.keys()].filter((key) => key.includes(`/${kind}/`) && key.endsWith('.ndjson')).sort();
  return parts
    .map((key) => blobs.objects.get(key)!)
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

function csv(blobs: FakeBlobs): string {
  return [...blobs.objects.keys()]
    .filter((key) => key.endsWith('.csv'))
    .sort()
    .map((key) => blobs.objects.get(key)!)
    .join('');
}

describe('account export', () => {
  it('references every address each part names before writing it, so an erasure of any of them finds the export', async () => {
    const data = seed();
    data.emails[1] = email(data.emails[1]!.id, { reply_to: ['Visitor <Visitor@Example.org>'], cc: ['cc@example.net'] });
    const { deps, exports, blobs } = fakeDeps(data);
    const result = await startExport(deps, accountPrincipal);
    const named = [...exports.named.get(result.id)!];
    expect(named).toEqual(
      expect.arrayContaining([
        'b@example.com',
        'visitor@example.org',
        'cc@example.net',
        'gone@example.com',
        'quote,"comma"@example.com',
        'one@example.com',
        'three@example.com',
      ]),
    );
    // Each part's references were written while the files before it were all there was: before the part itself.
    expect(exports.filesWhenNamed[0]).toBe(0);
    const everyAddressInFiles =
      [...blobs.objects.values()]
        .join('\n')
        .toLowerCase()
        .match(/[a-z0-9.+]+@[a-z0-9.-]+\.[a-z]+/g) ?? [];
    for (const address of everyAddressInFiles) expect(named).toContain(address);
  });

  it('writes every kind in one request, each record as the API answers it, and links every file once completed', async () => {
    const data = seed();
    const { deps, blobs } = fakeDeps(data);
    const result = await startExport(deps, accountPrincipal);
    expect(result.status).toBe('completed');
    expect(records(blobs, 'emails')).toEqual(data.emails.map(toPublicEmail));
    expect(records(blobs, 'webhooks')).toEqual(data.webhooks.map(toPublicWebhook));
    expect(records(blobs, 'webhooks')[0]).not.toHaveProperty('secret');
    expect(records(blobs, 'suppressions')).toEqual([
      ...data.suppressions.account.map((s) => toPublicSuppression(s, null)),
      toPublicSuppression(data.suppressions.tenants[0]!.items[0]!, 'shop-1'),
      toPublicSuppression(data.suppressions.tenants[2]!.items[0]!, 'shop-3'),
    ]);
    expect(csv(blobs)).toBe(
      'email,reason,scope,tenant,created_at,id\r\ngone@example.com,manual,account,,2026-11-20T10:00:00.000Z,sup_1\r\n"quote,""comma""@example.com",manual,account,,2026-11-20T10:00:00.000Z,sup_2\r\n' +
        'one@example.com,manual,tenant,shop-1,2026-11-20T10:00:00.000Z,sup_3\r\nthree@example.com,manual,tenant,shop-3,2026-11-20T10:00:00.000Z,sup_4\r\n',
    );
    const events = records(blobs, 'events');
    expect(events.filter((event) => event.email_id === data.emails[0]!.id).map((event) => [event.type, event.at, event.detail])).toEqual([
      ['accepted', '2026-11-20T10:00:00.000Z', null],
      ['sent', '2026-11-20T10:00:01.000Z', null],
      ['bounced', '2026-11-20T10:00:03.000Z', 'Permanent: no mailbox'],
    ]);
    expect(events.filter((event) => event.email_id === data.emails[1]!.id).map((event) => event.type)).toEqual([
      'accepted',
      'sent',
      'delivered',
    ]);
    // One file per kind (an empty kind too), and the suppressions' CSV.
    expect(result.files.map((file) => `${file.kind}.${file.format}#${file.part}`).sort()).toEqual(
      [...EXPORT_KINDS.map((kind) => `${kind}.ndjson#1`), 'suppressions.csv#1'].sort(),
    );
    for (const file of result.files)
      expect(file.download_url).toBe(`signed:exports/acc_1/${result.id}/${file.kind}/part-00001.${file.format}`);
    expect(result.files.find((file) => file.kind === 'domains')!.size).toBe(0);
    expect(result.kinds.suppressions).toEqual({ records: 4, done: true });
    expect(result.links_expire_at).toBe('2026-11-25T13:00:00.000Z');
  });

  it('continues a long export across requests (GET), in parts, each record exactly once', async () => {
    const data = seed(7);
    const { deps, blobs } = fakeDeps(data, { maxStretchesPerRequest: 1, partRecords: 2 });
    const first = await startExport(deps, accountPrincipal);
    expect(first.status).toBe('running');
    expect(first.files).toEqual([]);
    expect(first.kinds.emails).toEqual({ records: 2, done: false });
    let current = first;
    let requests = 1;
    while (current.status === 'running') {
      current = await getExport(deps, accountPrincipal, first.id);
      requests++;
      expect(requests).toBeLessThan(60);
    }
    expect(requests).toBeGreaterThan(8);
    expect(records(blobs, 'emails').map((e) => e.id)).toEqual(data.emails.map((e) => e.id));
    expect(records(blobs, 'suppressions').map((s) => s.id)).toEqual(['sup_1', 'sup_2', 'sup_3', 'sup_4']);
    expect(
      csv(blobs)
        .split('\r\n')
        .filter((line) => line.startsWith('email,')),
    ).toHaveLength(1);
    expect(current.files.filter((file) => file.kind === 'emails' && file.format === 'ndjson').map((file) => file.part)).toEqual([
      1, 2, 3, 4,
    ]);
    expect(current.kinds.emails).toEqual({ records: 7, done: true });
  });

  it('redoes the stretch of a request that died after writing its part, under the same key (no duplicates)', async () => {
    const data = seed(5);
    const { deps, blobs, exports } = fakeDeps(data, { maxStretchesPerRequest: 1, partRecords: 2 });
    const first = await startExport(deps, accountPrincipal);
    exports.crashNextSave = true;
    await expect(getExport(deps, accountPrincipal, first.id)).rejects.toThrow('the request died');
    // The part file of the dead request is there; the head still says one part.
    expect([...blobs.objects.keys()].filter((key) => key.includes('/emails/'))).toHaveLength(2);
    expect((await getExport(deps, accountPrincipal, first.id)).status).toBe('running'); // its lease still holds: answered as it stands
    exports.expireLeases();
    let current = await getExport(deps, accountPrincipal, first.id);
    while (current.status === 'running') current = await getExport(deps, accountPrincipal, first.id);
    expect(records(blobs, 'emails').map((e) => e.id)).toEqual(data.emails.map((e) => e.id));
  });

  it('refuses a key limited to a tenant, a second export while one runs, and an unknown or foreign id', async () => {
    const { deps } = fakeDeps(seed(5), { maxStretchesPerRequest: 1, partRecords: 2 });
    await expect(startExport(deps, tenantPrincipal)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    const running = await startExport(deps, accountPrincipal);
    await expect(startExport(deps, accountPrincipal)).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
      details: { export_id: running.id },
    });
    await expect(getExport(deps, tenantPrincipal, running.id)).rejects.toMatchObject({ status: 403 });
    await expect(getExport(deps, accountPrincipal, 'exp_01JDZZZZZZZZZZZZZZZZZZZZZZ')).rejects.toMatchObject({ status: 404 });
    await expect(getExport(deps, accountPrincipal, 'nonsense')).rejects.toMatchObject({ status: 404 });
    const other = { ...accountPrincipal, account: { id: 'acc_2' } } as typeof accountPrincipal;
    await expect(getExport(deps, other, running.id)).rejects.toMatchObject({ status: 404 });
    expect((await listExports(deps, accountPrincipal, { limit: 10 })).items.map((item) => item.id)).toEqual([running.id]);
    expect((await listExports(deps, other, { limit: 10 })).items).toEqual([]);
  });
});
