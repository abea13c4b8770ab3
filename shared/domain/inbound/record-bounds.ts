/**
 * Byte bounds on what a received email's record keeps from the message's header fields, so that the
 * record stays far under DynamoDB's 400 KB item limit
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html) and its
 * email.received event far under SQS's 1 MiB message limit
 * (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/quotas-messages.html),
 * whatever the sender wrote. The MX takes a header block of up to 1 MB (shared/doors/mx/mx-server.ts): one
 * From field of 450 KB would otherwise make an item DynamoDB refuses, and the message, already accepted
 * with a 250, would never be recorded. Entry counts are bounded elsewhere (MAX_LIST_ENTRIES, 100); these
 * bound the bytes. Every field cut sets the record's `truncated`; the whole header list and the raw
 * message keep everything. Pure.
 *
 * Worst case kept (UTF-8): 4 single values x 2 KB, 4 lists x 16 KB, 100 attachments x (255 + 255 + 255)
 * bytes, with the subject (2,000 characters, <= 8 KB) and the stripped text (16,000 characters, <= 64 KB):
 * about 220 KB, and at most twice that JSON-escaped in the event.
 */

/** Longest single value kept (from, message_id, in_reply_to, an entry of a list), in UTF-8 bytes. */
export const MAX_VALUE_BYTES = 2 * 1024;
/** Most bytes one list keeps (to, cc, reply_to, references), its entries together. */
export const MAX_LIST_BYTES = 16 * 1024;
/** Longest attachment filename, content type or content id kept, in UTF-8 bytes. */
export const MAX_ATTACHMENT_FIELD_BYTES = 255;

/** `value` cut to at most `maxBytes` of UTF-8, never inside a character; `cut` says whether it was. */
export function clipUtf8(value: string, maxBytes: number): { value: string; cut: boolean } {
  if (Buffer.byteLength(value, 'utf8') <= maxBytes) return { value, cut: false };
  let clipped = Buffer.from(value, 'utf8').subarray(0, maxBytes).toString('utf8');
  // A character cut in two decodes as U+FFFD at the end: drop it.
  if (clipped.endsWith('\uFFFD') && !value.startsWith(clipped)) clipped = clipped.slice(0, -1);
  return { value: clipped, cut: true };
}

/** The first `maxEntries` entries, each clipped to MAX_VALUE_BYTES, while together within MAX_LIST_BYTES. */
export function boundedList(values: readonly string[], maxEntries: number): { values: string[]; cut: boolean } {
  const kept: string[] = [];
  let bytes = 0;
  let cut = values.length > maxEntries;
  for (const entry of values.slice(0, maxEntries)) {
    const clipped = clipUtf8(entry, MAX_VALUE_BYTES);
    const size = Buffer.byteLength(clipped.value, 'utf8');
    if (bytes + size > MAX_LIST_BYTES) {
      cut = true;
      break;
    }
    kept.push(clipped.value);
    bytes += size;
    cut ||= clipped.cut;
  }
  return { values: kept, cut };
}
