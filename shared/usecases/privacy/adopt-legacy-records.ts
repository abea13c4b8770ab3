/**
 * Adopting the records of before issue 34's data lifecycle and of before every address was referenced
 * (docs/privacy.md, "Records of before this release"): a deployment upgraded from an older release holds
 * emails and received emails that never expire (no `ttl`; objects outside every lifecycle rule), and emails,
 * received emails, webhook deliveries and automation runs an erasure cannot find by every address they name
 * (no address references, or only their recipients' or sender's: ADDRESS_REFS_MARK below its version).
 * `mailservice admin data adopt-legacy` runs this once after an upgrade; it is idempotent, so running it
 * again (after a crash, or to check) adopts only what is left.
 *
 * For each record the Scan finds (shared/adapters/store/legacy-records.ts):
 *
 * - a **sent email** without a ttl: its `ttl` from its account's `emails_days` and its `created_at`; each
 *   object it names that is outside `retention/` is copied under the smallest retention class covering what
 *   is left of its window (S3 counts from the copy), the record then points at the copies (conditionally:
 *   only while it has no ttl) and the old objects are deleted. Every sent email: the address references of
 *   its To, Cc, Bcc and Reply-To, then the mark.
 * - a **received email** without a ttl: the same from `received_emails_days` and `received_at`; its objects
 *   at `inbound/<id>/` are copied under `retention/<N>d/inbound/<id>/`, the listener's shared raw message is
 *   copied as the account's own (`raw_key`; the shared one stays `shared_raw_key` and expires by its rule).
 *   Every received email: the references of its From, Reply-To, To, Cc and envelope sender (as the record
 *   keeps them: lists the record cut are not known here), then the mark.
 * - a **webhook delivery** or an **automation run**: its address references (every address its event names;
 *   a delivery's expire a day after it, as new ones do), then the mark, so the next Scan skips it.
 *
 * A record whose window has already passed gets its ttl all the same (reads treat it as absent at once,
 * DynamoDB's TTL deletes it) and its old objects are deleted rather than copied.
 */
import {
  RETENTION_CLASSES_DAYS,
  retentionKeyPrefix,
  retentionTtl,
  RETENTION_KEY_ROOT,
  type Retention,
  type RetentionDays,
} from '../../domain/accounts/retention';
import { inboundKeys, receivedEmailKeys } from '../../domain/inbound/content-keys';
import { addressesOfEventPayload, addressesOfRun, receivedAddressesNamed, recipientsNamed } from '../../domain/privacy/named-addresses';
import type { LegacyDelivery, LegacyEmail, LegacyReceivedEmail, LegacyRecord, LegacyRun } from '../../adapters/store/legacy-record';
import type { LegacyRecordRepository } from '../../adapters/store/legacy-records';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';

export interface AdoptLegacyDeps {
  legacyRecords: Pick<LegacyRecordRepository, 'scanPage' | 'adoptEmail' | 'adoptReceivedEmail' | 'writeRefs' | 'markRefsWritten'>;
  retention: { retentionOf(accountId: string): Promise<Retention> };
  blobs: Pick<BlobStore, 'copy' | 'delete' | 'head'>;
  clock: Clock;
}

export interface AdoptionCounts {
  /** Items the Scan read (all kinds: the whole table). */
  scanned: number;
  emails: number;
  received_emails: number;
  webhook_deliveries: number;
  automation_runs: number;
  /** Objects copied under a retention prefix. */
  objects_moved: number;
  /** Old objects deleted (after their copy, or because their window had passed). */
  objects_deleted: number;
  /** Records another run adopted first (nothing done twice). */
  already: number;
}

export const emptyAdoptionCounts = (): AdoptionCounts => ({
  scanned: 0,
  emails: 0,
  received_emails: 0,
  webhook_deliveries: 0,
  automation_runs: 0,
  objects_moved: 0,
  objects_deleted: 0,
  already: 0,
});

const DAY_SECONDS = 86_400;

/** The smallest retention class covering `ttl` from now (a copy's clock starts now), or null when the window has passed. */
export function classForRemaining(ttl: number, nowMs: number): RetentionDays | null {
  const remainingDays = Math.ceil((ttl - nowMs / 1000) / DAY_SECONDS);
  if (remainingDays <= 0) return null;
  return RETENTION_CLASSES_DAYS.find((days) => days >= remainingDays) ?? RETENTION_CLASSES_DAYS[RETENTION_CLASSES_DAYS.length - 1]!;
}

const isLegacyKey = (key: string | null): key is string => key !== null && !key.startsWith(RETENTION_KEY_ROOT);

/** Copies an object if it exists; whether it did (a missing object, e.g. an attachment never uploaded, is skipped). */
async function copyIfPresent(deps: AdoptLegacyDeps, from: string, to: string, counts: AdoptionCounts): Promise<boolean> {
  if (!(await deps.blobs.head(from))) return false;
  await deps.blobs.copy(from, to);
  counts.objects_moved++;
  return true;
}

async function deleteAll(deps: AdoptLegacyDeps, keys: readonly string[], counts: AdoptionCounts): Promise<void> {
  for (const key of keys) {
    if (!(await deps.blobs.head(key))) continue;
    await deps.blobs.delete(key);
    counts.objects_deleted++;
  }
}

/** A record that has its retention already: its address references, then the mark. */
async function adoptRefs(
  deps: AdoptLegacyDeps,
  accountId: string,
  addresses: readonly string[],
  kind: 'email' | 'received_email',
  key: LegacyRecord['key'],
  ttl: number,
): Promise<void> {
  await deps.legacyRecords.writeRefs(accountId, addresses, kind, key, ttl);
  await deps.legacyRecords.markRefsWritten(key);
}

async function adoptEmail(deps: AdoptLegacyDeps, email: LegacyEmail, counts: AdoptionCounts): Promise<void> {
  if (email.ttl !== null) {
    await adoptRefs(deps, email.accountId, recipientsNamed(email.recipients), 'email', email.key, email.ttl);
    counts.emails++;
    return;
  }
  const ttl = retentionTtl((await deps.retention.retentionOf(email.accountId)).emails_days, email.createdAt);
  const days = classForRemaining(ttl, deps.clock.now().getTime());
  const legacy = [email.objects.body, email.objects.mime, ...email.objects.attachments].filter(isLegacyKey);
  const moveOne = async (key: string | null): Promise<string | null> => {
    if (!isLegacyKey(key) || days === null) return null;
    const to = `${retentionKeyPrefix(days)}${key}`;
    return (await copyIfPresent(deps, key, to, counts)) ? to : null;
  };
  const moved = { body: await moveOne(email.objects.body), mime: await moveOne(email.objects.mime), attachments: [] as (string | null)[] };
  for (const key of email.objects.attachments) moved.attachments.push(await moveOne(key));
  await deps.legacyRecords.writeRefs(email.accountId, recipientsNamed(email.recipients), 'email', email.key, ttl);
  if ((await deps.legacyRecords.adoptEmail(email, ttl, moved)) === 'already') {
    counts.already++;
    return;
  }
  await deps.legacyRecords.markRefsWritten(email.key);
  counts.emails++;
  await deleteAll(deps, legacy, counts);
}

async function adoptReceivedEmail(deps: AdoptLegacyDeps, email: LegacyReceivedEmail, counts: AdoptionCounts): Promise<void> {
  if (email.ttl !== null) {
    await adoptRefs(deps, email.accountId, receivedAddressesNamed(email.fields), 'received_email', email.key, email.ttl);
    counts.received_emails++;
    return;
  }
  const ttl = retentionTtl((await deps.retention.retentionOf(email.accountId)).received_emails_days, email.receivedAt);
  const days = classForRemaining(ttl, deps.clock.now().getTime());
  const prefix = days === null ? '' : retentionKeyPrefix(days);
  const from = receivedEmailKeys({ id: email.id });
  const to = receivedEmailKeys({ id: email.id, objects_prefix: prefix });
  const pairs: [string, string][] = [
    [from.content, to.content],
    [from.html, to.html],
    [from.text, to.text],
    [from.headers, to.headers],
    ...email.attachmentIds.map((id): [string, string] => [from.attachment(id), to.attachment(id)]),
  ];
  let rawCopy: string | null = null;
  if (days !== null) {
    for (const [source, target] of pairs) await copyIfPresent(deps, source, target, counts);
    // The account's own copy of the raw message (the listener's shared one expires by its 30-day rule).
    const copyKey = inboundKeys.rawCopy(email.id, prefix);
    if (email.contentKept && email.rawKey && (await copyIfPresent(deps, email.rawKey, copyKey, counts))) rawCopy = copyKey;
  }
  await deps.legacyRecords.writeRefs(email.accountId, receivedAddressesNamed(email.fields), 'received_email', email.key, ttl);
  if ((await deps.legacyRecords.adoptReceivedEmail(email, ttl, prefix, rawCopy)) === 'already') {
    counts.already++;
    return;
  }
  await deps.legacyRecords.markRefsWritten(email.key);
  counts.received_emails++;
  // The old objects at inbound/<id>/ (the shared raw message stays: other accounts may still need it; its rule expires it).
  await deleteAll(
    deps,
    pairs.map(([source]) => source),
    counts,
  );
}

async function adoptDelivery(deps: AdoptLegacyDeps, delivery: LegacyDelivery, counts: AdoptionCounts): Promise<void> {
  const refTtl = delivery.ttl === null ? null : delivery.ttl + DAY_SECONDS;
  await deps.legacyRecords.writeRefs(
    delivery.accountId,
    addressesOfEventPayload(delivery.eventType, delivery.payload),
    'webhook_delivery',
    delivery.key,
    refTtl,
  );
  await deps.legacyRecords.markRefsWritten(delivery.key);
  counts.webhook_deliveries++;
}

async function adoptRun(deps: AdoptLegacyDeps, run: LegacyRun, counts: AdoptionCounts): Promise<void> {
  await deps.legacyRecords.writeRefs(run.accountId, addressesOfRun(run), 'automation_run', run.key, null);
  await deps.legacyRecords.markRefsWritten(run.key);
  counts.automation_runs++;
}

export function adoptRecord(deps: AdoptLegacyDeps, record: LegacyRecord, counts: AdoptionCounts): Promise<void> {
  switch (record.kind) {
    case 'email':
      return adoptEmail(deps, record, counts);
    case 'received_email':
      return adoptReceivedEmail(deps, record, counts);
    case 'webhook_delivery':
      return adoptDelivery(deps, record, counts);
    case 'automation_run':
      return adoptRun(deps, record, counts);
  }
}

/**
 * The whole table, `segments` Scan segments at once (each a page at a time), each record adopted in turn.
 * `onProgress` hears the running counts after each page.
 */
export async function adoptLegacyRecords(
  deps: AdoptLegacyDeps,
  options: { segments?: number; onProgress?: (counts: AdoptionCounts) => void } = {},
): Promise<AdoptionCounts> {
  const segments = Math.max(1, Math.min(16, options.segments ?? 4));
  const counts = emptyAdoptionCounts();
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let position: Awaited<ReturnType<AdoptLegacyDeps['legacyRecords']['scanPage']>>['position'] = null;
      do {
        const page = await deps.legacyRecords.scanPage(segment, segments, position);
        counts.scanned += page.scanned;
        for (const record of page.records) await adoptRecord(deps, record, counts);
        position = page.position;
        options.onProgress?.({ ...counts });
      } while (position);
    }),
  );
  return counts;
}
