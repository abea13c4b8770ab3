/** The adoption of records of an older release (shared/usecases/privacy/adopt-legacy-records.ts), with in-memory fakes of its ports. */
import type { LegacyEmail, LegacyReceivedEmail, LegacyRecord } from '#shared/adapters/store/legacy-record';
import type { ScanPosition } from '#shared/adapters/store/legacy-records';
import type { Retention } from '#shared/domain/accounts/retention';
import { adoptLegacyRecords, classForRemaining, type AdoptLegacyDeps } from '#shared/usecases/privacy/adopt-legacy-records';

const NOW = Date.parse('2026-11-25T12:00:00.000Z');
const DAY = 86_400_000;
const retention = (days: number): Retention => ({
  emails_days: days,
  received_emails_days: days,
  webhook_deliveries_days: 30,
  imports_days: 30,
});

function fakes(records: LegacyRecord[], options: { days?: number; alreadyAdopted?: boolean } = {}) {
  const objects = new Set<string>();
  const adopted: { kind: string; ttl: number; detail: unknown }[] = [];
  const refs: { kind: string; addresses: readonly string[]; ttl: number | null }[] = [];
  const marked: string[] = [];
  const pages = [records.slice(0, 1), records.slice(1)];
  const deps: AdoptLegacyDeps = {
    clock: { now: () => new Date(NOW) },
    retention: { retentionOf: async () => retention(options.days ?? 30) },
    blobs: {
      head: async (key) => (objects.has(key) ? { size: 1, contentType: 'x' } : null),
      copy: async (from, to) => void (objects.has(from) && objects.add(to)),
      delete: async (key) => void objects.delete(key),
    },
    legacyRecords: {
      // One segment in two pages: the second page's position comes back from the first.
      scanPage: async (_segment, _total, position: ScanPosition | null) =>
        position
          ? { records: pages[1]!, scanned: 10, position: null }
          : { records: pages[0]!, scanned: 10, position: { key: { PK: 'x' } } },
      adoptEmail: async (_email, ttl, moved) => {
        if (options.alreadyAdopted) return 'already';
        adopted.push({ kind: 'email', ttl, detail: moved });
        return 'adopted';
      },
      adoptReceivedEmail: async (_email, ttl, prefix, raw) => {
        if (options.alreadyAdopted) return 'already';
        adopted.push({ kind: 'received_email', ttl, detail: { prefix, raw } });
        return 'adopted';
      },
      writeRefs: async (_account, addresses, kind, _target, ttl) => void refs.push({ kind, addresses, ttl }),
      markRefsWritten: async (key) => void marked.push(key.PK),
    },
  };
  return { deps, objects, adopted, refs, marked };
}

const email = (createdAt: string, ttl: number | null = null): LegacyEmail => ({
  kind: 'email',
  key: { PK: 'EMAIL#msg_1', SK: 'EMAIL#msg_1' },
  accountId: 'acc_1',
  createdAt,
  ttl,
  recipients: { to: ['Ada <Ada@Example.com>'], cc: [], bcc: ['b@example.com'], reply_to: ['Visitor <Visitor@Example.net>'] },
  objects: { body: 'bodies/msg_1.json', mime: null, attachments: ['attachments/msg_1/0', 'attachments/msg_1/1'] },
});
const received = (receivedAt: string, ttl: number | null = null): LegacyReceivedEmail => ({
  kind: 'received_email',
  key: { PK: 'RECEIVED#inb_1', SK: 'RECEIVED#inb_1' },
  accountId: 'acc_1',
  id: 'inb_1',
  receivedAt,
  ttl,
  fields: {
    from: 'Sender <sender@example.org>',
    reply_to: ['reply@example.org'],
    to: ['support@inbound.example.com', 'friend@example.net'],
    cc: ['Cc <cc@example.net>'],
    mail_from: 'bounce@example.org',
    rcpt_to: ['support@inbound.example.com'],
  },
  rawKey: 'inbound/raw/r1.eml',
  attachmentIds: ['att_1'],
  contentKept: true,
});

test('classForRemaining: the smallest class covering what is left of the window; null once it has passed', () => {
  expect(classForRemaining(NOW / 1000 + 0.5 * 86_400, NOW)).toBe(1);
  expect(classForRemaining(NOW / 1000 + 20 * 86_400, NOW)).toBe(30);
  expect(classForRemaining(NOW / 1000 + 800 * 86_400, NOW)).toBe(730);
  expect(classForRemaining(NOW / 1000, NOW)).toBeNull();
  expect(classForRemaining(NOW / 1000 - 5, NOW)).toBeNull();
});

test('an email in its window: objects copied under the class of what is left, the record pointed at them, the old ones deleted, references with its ttl', async () => {
  const created = new Date(NOW - 10 * DAY).toISOString();
  const { deps, objects, adopted, refs } = fakes([email(created)], { days: 30 });
  // The second attachment's object is missing (never written): it is skipped, not invented.
  for (const key of ['bodies/msg_1.json', 'attachments/msg_1/0']) objects.add(key);
  const counts = await adoptLegacyRecords(deps, { segments: 1 });
  const ttl = Date.parse(created) / 1000 + 30 * 86_400;
  expect(adopted).toEqual([
    {
      kind: 'email',
      ttl,
      detail: { body: 'retention/30d/bodies/msg_1.json', mime: null, attachments: ['retention/30d/attachments/msg_1/0', null] },
    },
  ]);
  expect([...objects].sort()).toEqual(['retention/30d/attachments/msg_1/0', 'retention/30d/bodies/msg_1.json']);
  expect(refs).toEqual([{ kind: 'email', addresses: ['ada@example.com', 'b@example.com', 'visitor@example.net'], ttl }]);
  expect(counts).toMatchObject({ scanned: 20, emails: 1, objects_moved: 2, objects_deleted: 2, already: 0 });
});

test('an email past its window: its ttl set (it reads as absent), its old objects deleted, nothing copied', async () => {
  const { deps, objects, adopted } = fakes([email(new Date(NOW - 40 * DAY).toISOString())], { days: 30 });
  objects.add('bodies/msg_1.json');
  const counts = await adoptLegacyRecords(deps, { segments: 1 });
  expect(adopted[0]!.detail).toEqual({ body: null, mime: null, attachments: [null, null] });
  expect(objects.size).toBe(0);
  expect(counts).toMatchObject({ objects_moved: 0, objects_deleted: 1 });
});

test("a received email: its objects under retention/<N>d/inbound/<id>/, the raw message copied as the account's own, the shared copy kept; everyone it names but its own address referenced", async () => {
  const at = new Date(NOW - DAY).toISOString();
  const { deps, objects, adopted, refs } = fakes([received(at)], { days: 7 });
  for (const key of ['inbound/inb_1/content.json', 'inbound/inb_1/attachments/att_1', 'inbound/raw/r1.eml']) objects.add(key);
  const counts = await adoptLegacyRecords(deps, { segments: 1 });
  expect(adopted).toEqual([
    {
      kind: 'received_email',
      ttl: Date.parse(at) / 1000 + 7 * 86_400,
      detail: { prefix: 'retention/7d/', raw: 'retention/7d/inbound/inb_1/message.eml' },
    },
  ]);
  expect([...objects].sort()).toEqual([
    'inbound/raw/r1.eml',
    'retention/7d/inbound/inb_1/attachments/att_1',
    'retention/7d/inbound/inb_1/content.json',
    'retention/7d/inbound/inb_1/message.eml',
  ]);
  expect(refs).toEqual([
    {
      kind: 'received_email',
      addresses: ['sender@example.org', 'reply@example.org', 'bounce@example.org', 'friend@example.net', 'cc@example.net'],
      ttl: Date.parse(at) / 1000 + 7 * 86_400,
    },
  ]);
  expect(counts).toMatchObject({ received_emails: 1, objects_moved: 3, objects_deleted: 2 });
});

test("a record another run adopted first: counted as already, its objects (the other run's copies) left alone", async () => {
  const { deps, objects } = fakes([email(new Date(NOW - DAY).toISOString())], { alreadyAdopted: true });
  objects.add('bodies/msg_1.json');
  const counts = await adoptLegacyRecords(deps, { segments: 1 });
  expect(counts).toMatchObject({ emails: 0, already: 1, objects_deleted: 0 });
  expect([...objects].sort()).toEqual(['bodies/msg_1.json', 'retention/30d/bodies/msg_1.json']);
});

test("deliveries and runs get their references (a delivery's a day past its ttl) and a mark", async () => {
  const { deps, refs, marked } = fakes([
    {
      kind: 'webhook_delivery',
      key: { PK: 'WEBHOOK#w', SK: 'DELIVERY#1' },
      accountId: 'acc_1',
      eventType: 'email.delivered',
      payload: JSON.stringify({ type: 'email.delivered', data: { to: ['x@example.com'] } }),
      ttl: 1000,
    },
    {
      kind: 'automation_run',
      key: { PK: 'RUN#run_1', SK: 'RUN#run_1' },
      accountId: 'acc_1',
      event: { name: 'user.created', email: null, data: { referrer: 'Z@example.com' } },
      subject: 'email:Y@example.com',
    },
  ]);
  const counts = await adoptLegacyRecords(deps, { segments: 1 });
  expect(refs).toEqual([
    { kind: 'webhook_delivery', addresses: ['x@example.com'], ttl: 1000 + 86_400 },
    { kind: 'automation_run', addresses: ['z@example.com', 'y@example.com'], ttl: null },
  ]);
  expect(marked).toEqual(['WEBHOOK#w', 'RUN#run_1']);
  expect(counts).toMatchObject({ webhook_deliveries: 1, automation_runs: 1 });
});

test("records that have their retention but only the older references (a sent email's recipients, a received email's sender): every address they name referenced, then marked; nothing moved", async () => {
  const ttl = NOW / 1000 + 5 * 86_400;
  const { deps, objects, adopted, refs, marked } = fakes([
    email(new Date(NOW - DAY).toISOString(), ttl),
    received(new Date(NOW - DAY).toISOString(), ttl),
  ]);
  objects.add('bodies/msg_1.json');
  const counts = await adoptLegacyRecords(deps, { segments: 1 });
  expect(adopted).toEqual([]);
  expect([...objects]).toEqual(['bodies/msg_1.json']);
  expect(refs).toEqual([
    { kind: 'email', addresses: ['ada@example.com', 'b@example.com', 'visitor@example.net'], ttl },
    {
      kind: 'received_email',
      addresses: ['sender@example.org', 'reply@example.org', 'bounce@example.org', 'friend@example.net', 'cc@example.net'],
      ttl,
    },
  ]);
  expect(marked).toEqual(['EMAIL#msg_1', 'RECEIVED#inb_1']);
  expect(counts).toMatchObject({ emails: 1, received_emails: 1, objects_moved: 0, objects_deleted: 0 });
});
