/**
 * The bucket's objects of a record an erasure deletes (docs/erasure.md): a sent email's body, raw message
 * and attachments; a received email's raw message, content, bodies, headers and attachments. Read from the
 * record's old image (its keys as stored), so what the record pointed at is what goes. Pure.
 */
import { inboundKeys, receivedEmailKeys } from '../inbound/content-keys';

type Item = Record<string, unknown>;

const strings = (...values: unknown[]) => values.filter((value): value is string => typeof value === 'string' && value.length > 0);

/** A sent email's objects: `body_blob_key`, `mime_blob_key`, each attachment's `blob_key` (else its default key). */
export function sentEmailObjects(item: Item): string[] {
  const id = String(item.id ?? '');
  const attachments = Array.isArray(item.attachments) ? (item.attachments as Item[]) : [];
  return strings(
    item.body_blob_key,
    item.mime_blob_key,
    ...attachments.map((attachment, index) => attachment.blob_key ?? `attachments/${id}/${index}`),
  );
}

/**
 * A received email's objects: the raw message (`raw_key`: the account's copy, or the listener's shared one
 * on records of before retention classes; the shared one, `shared_raw_key`, as well: it names the person
 * too, and every receiving account processed has its own copy) and everything stored beside the record under
 * `<objects_prefix>inbound/<id>/` (no prefix on records of before).
 */
export function receivedEmailObjects(item: Item): string[] {
  const id = String(item.id ?? '');
  if (!id) return strings(item.raw_key);
  const prefix = typeof item.objects_prefix === 'string' ? item.objects_prefix : '';
  const keys = receivedEmailKeys({ id, objects_prefix: prefix });
  const attachments = Array.isArray(item.attachments) ? (item.attachments as Item[]) : [];
  return [
    ...new Set(
      strings(
        item.raw_key,
        item.shared_raw_key,
        inboundKeys.rawCopy(id, prefix),
        keys.content,
        keys.html,
        keys.text,
        keys.headers,
        ...attachments.map((attachment) => (typeof attachment.id === 'string' ? keys.attachment(attachment.id) : undefined)),
      ),
    ),
  ];
}
