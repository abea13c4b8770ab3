/**
 * Where a send's content is kept, as names and sizes only (no store): the body's inline bound and the blob
 * keys of a body and of a raw message. Apart from ./content.ts so that ./early-body.ts (built for every
 * function with the blob store) does not load the attachment code.
 */
/**
 * Bodies above this size (bytes of JSON) go to the blob store. Every later write of the email (claim, sent, the
 * outcome, an open) is billed on the whole item, 1 write unit per KB: a body inline costs its size about five
 * times over (a 30 KB html body was 155 write units an email, $97 per million), one in S3 a PUT and a GET
 * ($5.40 per million) whatever its size. 2 KB is where the two meet: below it the item keeps each write at
 * 3 units or fewer (docs/benchmarks.md, "Bodies and write units").
 */
export const INLINE_BODY_LIMIT = 2 * 1024;

/**
 * A raw MIME message (the SMTP relay) up to this size (bytes) stays in the email item (`mime_inline`), as a body
 * up to INLINE_BODY_LIMIT does, for the same reason: below it the item's later writes stay cheap, and the
 * send saves the S3 PUT before its 250 and the send worker's GET (two calls, $5.40 a million). A short text
 * message through the relay is 0.5-1.5 KB.
 */
export const INLINE_MIME_LIMIT = INLINE_BODY_LIMIT;

/** Whether a body (its JSON) or a raw message stays in the email item: the one rule the accept step and the early PUT share. */
export function keptInItem(content: { json: string } | { raw: Buffer }): boolean {
  return 'raw' in content ? content.raw.length <= INLINE_MIME_LIMIT : Buffer.byteLength(content.json, 'utf8') <= INLINE_BODY_LIMIT;
}

/** Where a body kept outside the item is, under its class's prefix. */
export const bodyBlobKey = (emailId: string) => `bodies/${emailId}.json`;

/** Where a raw MIME message is kept (the email item holds only the key). */
export const mimeBlobKey = (emailId: string) => `raw/${emailId}.eml`;
