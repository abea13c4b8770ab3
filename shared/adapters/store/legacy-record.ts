/**
 * The records of before issue 34's data lifecycle as the one-off adoption reads them (./legacy-records.ts
 * finds them): each kind's fields, read from its item whatever is missing.
 */
import type { ReceivedAddressFields } from '../../domain/privacy/named-addresses';

export type Key = { PK: string; SK: string };

/** A sent email with no retention: its recipients and where its objects are. */
export interface LegacyEmail {
  kind: 'email';
  key: Key;
  accountId: string;
  createdAt: string;
  /** Its ttl, when it has its retention already (then only its references are written). */
  ttl: number | null;
  recipients: { to: string[]; cc: string[]; bcc: string[]; reply_to: string[] };
  /** The objects it names (body, raw message, each attachment's, in order), so the record can point at moved copies. */
  objects: { body: string | null; mime: string | null; attachments: (string | null)[] };
}

/** A received email with no retention (its objects at `inbound/<id>/`, its raw message the listener's shared copy). */
export interface LegacyReceivedEmail {
  kind: 'received_email';
  key: Key;
  accountId: string;
  id: string;
  receivedAt: string;
  /** Its ttl, when it has its retention already (then only its references are written). */
  ttl: number | null;
  /** The header fields it names people by (shared/domain/privacy/named-addresses.ts). */
  fields: ReceivedAddressFields;
  rawKey: string;
  /** The ids of its stored attachments (their objects: `inbound/<id>/attachments/<attachment id>`). */
  attachmentIds: string[];
  contentKept: boolean;
}

/** A webhook delivery without this release's address references. */
export interface LegacyDelivery {
  kind: 'webhook_delivery';
  key: Key;
  accountId: string;
  eventType: string;
  payload: string;
  ttl: number | null;
}

/** An automation run without this release's address references. */
export interface LegacyRun {
  kind: 'automation_run';
  key: Key;
  accountId: string;
  /** Its event (name, user_id, email, data). */
  event: unknown;
  subject: string | null;
}

export type LegacyRecord = LegacyEmail | LegacyReceivedEmail | LegacyDelivery | LegacyRun;

const str = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
const ttlOf = (item: Record<string, unknown>): number | null => (typeof item.ttl === 'number' ? item.ttl : null);

export function legacyRecordOf(item: Record<string, unknown>): LegacyRecord | null {
  const key = { PK: String(item.PK), SK: String(item.SK) };
  const accountId = str(item.account_id);
  if (!accountId) return null;
  switch (item.type) {
    case 'email':
      return legacyEmailOf(item, key, accountId);
    case 'received_email':
      return legacyReceivedEmailOf(item, key, accountId);
    case 'webhook_delivery':
      return {
        kind: 'webhook_delivery',
        key,
        accountId,
        eventType: String(item.event_type ?? ''),
        payload: String(item.payload ?? ''),
        ttl: typeof item.ttl === 'number' ? item.ttl : null,
      };
    case 'run': {
      return { kind: 'automation_run', key, accountId, event: item.event ?? null, subject: str(item.subject) };
    }
    default:
      return null;
  }
}

function legacyEmailOf(item: Record<string, unknown>, key: Key, accountId: string): LegacyEmail {
  const attachments = Array.isArray(item.attachments) ? (item.attachments as Record<string, unknown>[]) : [];
  const id = String(item.id ?? '');
  return {
    kind: 'email',
    key,
    accountId,
    createdAt: String(item.created_at ?? ''),
    ttl: ttlOf(item),
    recipients: { to: strings(item.to), cc: strings(item.cc), bcc: strings(item.bcc), reply_to: strings(item.reply_to) },
    objects: {
      body: str(item.body_blob_key),
      mime: str(item.mime_blob_key),
      // As sentEmailObjects (shared/domain/privacy/record-objects.ts) reads them: its blob_key, else the default key.
      attachments: attachments.map((attachment, index) => str(attachment.blob_key) ?? `attachments/${id}/${index}`),
    },
  };
}

function legacyReceivedEmailOf(item: Record<string, unknown>, key: Key, accountId: string): LegacyReceivedEmail {
  return {
    kind: 'received_email',
    key,
    accountId,
    id: String(item.id ?? ''),
    receivedAt: String(item.received_at ?? ''),
    ttl: ttlOf(item),
    fields: {
      from: String(item.from ?? ''),
      reply_to: strings(item.reply_to),
      to: strings(item.to),
      cc: strings(item.cc),
      mail_from: String(item.mail_from ?? ''),
      rcpt_to: strings(item.rcpt_to),
    },
    rawKey: String(item.raw_key ?? ''),
    attachmentIds: (Array.isArray(item.attachments) ? (item.attachments as Record<string, unknown>[]) : [])
      .map((attachment) => str(attachment.id))
      .filter((id): id is string => id !== null),
    contentKept: item.content_kept !== false,
  };
}
