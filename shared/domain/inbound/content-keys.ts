/**
 * Where a received email's parts live in the mail bucket: `<prefix>inbound/<inb id>/...`, the prefix being
 * the account's retention class (`retention/<days>d/`, docs/retention.md) kept on the record as
 * `objects_prefix`; records written before it have none and their objects are at `inbound/<inb id>/...`.
 * The MX listener stores the raw message once at `inbound/raw/<id>.eml` (before it knows the accounts);
 * each receiving account's worker keeps its own copy beside its parts (`message.eml`), which the record's
 * `raw_key` names. Pure.
 */

/**
 * Bodies (html and text together) up to this size are stored with the header list as one object, answered
 * inline by GET /received-emails/{id} whatever they hold (six times this, a body of quotes JSON-escaped twice, is
 * well under the answer's budget); larger ones each as an object of their own, which the answer may link to.
 */
export const CONTENT_OBJECT_MAX_BODY_BYTES = 256 * 1024;

/** What the content object holds. */
export interface InboundContent {
  html: string | null;
  text: string | null;
  headers: { name: string; value: string }[];
}
/**
 * The keys; `prefix` is the record's `objects_prefix` ('' for records written before retention classes:
 * readers build keys from the record with receivedEmailKeys, never from the id alone).
 */
export const inboundKeys = {
  /** The listener's shared copy (all receiving accounts'), expired by the `inbound/raw/` lifecycle rule. */
  raw: (rawId: string) => `inbound/raw/${rawId}.eml`,
  /** A receiving account's own copy of the raw message. */
  rawCopy: (emailId: string, prefix = '') => `${prefix}inbound/${emailId}/message.eml`,
  html: (emailId: string, prefix = '') => `${prefix}inbound/${emailId}/body.html`,
  text: (emailId: string, prefix = '') => `${prefix}inbound/${emailId}/body.txt`,
  headers: (emailId: string, prefix = '') => `${prefix}inbound/${emailId}/headers.json`,
  /** The html and text bodies and the header list in one JSON object (`ReceivedEmail.content_object`). */
  content: (emailId: string, prefix = '') => `${prefix}inbound/${emailId}/content.json`,
  attachment: (emailId: string, attachmentId: string, prefix = '') => `${prefix}inbound/${emailId}/attachments/${attachmentId}`,
};

/** The shared raw messages' prefix: one lifecycle rule (infra/constructs/data.ts) expires them after INBOUND_RAW_DAYS. */
export const INBOUND_RAW_PREFIX = 'inbound/raw/';
/**
 * How long the listener's shared copy is kept: past every queue message that can name it (SQS keeps 14
 * days in the DLQ) and its marker (30 days: shared/adapters/store/inbound-raw-markers.ts). Each account's
 * copy follows the account's retention.
 */
export const INBOUND_RAW_DAYS = 30;

/** A record's keys, from its `objects_prefix` (absent: the keys of before retention classes). */
export function receivedEmailKeys(email: { id: string; objects_prefix?: string | null }) {
  const prefix = email.objects_prefix ?? '';
  return {
    html: inboundKeys.html(email.id, prefix),
    text: inboundKeys.text(email.id, prefix),
    headers: inboundKeys.headers(email.id, prefix),
    content: inboundKeys.content(email.id, prefix),
    attachment: (attachmentId: string) => inboundKeys.attachment(email.id, attachmentId, prefix),
  };
}
