/**
 * GET /received-emails and GET /received-emails/{id}. Received email belongs to the whole account: a
 * key limited to a tenant gets 403 (spec, Authentication 3).
 *
 * The full record carries the html and text bodies, the header list and each attachment's bytes in
 * base64, while the response stays well under what API Gateway and Lambda can return (6 MB): bodies up
 * to BODY_INLINE_MAX_BYTES together are inline, else `html`/`text` are null and `html_url`/`text_url`
 * are presigned GET URLs (both null for a body the message does not have); attachments are inline (`content`) when all of them together are at most
 * ATTACHMENTS_INLINE_MAX_BYTES and fit beside the bodies, else every one has a `download_url`. Those
 * first choices come from the stored sizes; the answer is then measured as Lambda counts it (JSON-escaped
 * once more: ../../domain/lambda-payload.ts) and attachments, then bodies, become links until it is under
 * RESPONSE_BODY_BUDGET_BYTES (a body of quotes or control characters grows up to sixfold). The raw
 * message is always a `download_url`. Links are valid DOWNLOAD_URL_SECONDS (1 hour, as Resend's).
 *
 * Every link is to a stranger's content, on the bucket's origin: each is a download (Content-Disposition:
 * attachment, a file name) with an inert type, never a page a browser renders. The HTML body is served as
 * text/plain (`<id>.html`), the text body as text/plain (`<id>.txt`), the raw message as message/rfc822
 * (`<id>.eml`), an attachment with its own type unless a browser could run script in it
 * (../../domain/inbound/download-type.ts).
 */
import { NotFoundError } from '../../domain/errors';
import { isId } from '../../domain/ids';
import { receivedEmailKeys, type InboundContent } from '../../domain/inbound/content-keys';
import { downloadContentType } from '../../domain/inbound/download-type';
import { toPublicReceivedEmail, type ReceivedEmail } from '../../domain/inbound/received-email';
import type { ListReceivedEmailsQuery } from '../../domain/inbound/schemas';
import { jsonPayloadBytes, RESPONSE_BODY_BUDGET_BYTES } from '../../domain/lambda-payload';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';
import type { Page } from '../../adapters/store/cursor';
import type { ReceivedEmailRepository } from '../../adapters/store/received-emails';
import type { Principal } from '../access/principal';
import { requireAccountKey } from '../access/tenant-scope';

export const BODY_INLINE_MAX_BYTES = 3 * 1024 * 1024;
export const ATTACHMENTS_INLINE_MAX_BYTES = 2 * 1024 * 1024;
/** What the whole response may hold, base64 included (Lambda's 6 MB, with room for the JSON around it). */
const RESPONSE_BUDGET_BYTES = 5 * 1024 * 1024;
export const DOWNLOAD_URL_SECONDS = 3600;

/** A presigned download of a stored object: always a file name (attachment disposition) and a type. */
type Link = (key: string, options: { downloadName: string; contentType: string }) => Promise<string>;

export interface ReceivedEmailsDeps {
  receivedEmails: Pick<ReceivedEmailRepository, 'list' | 'get'>;
  blobs: Pick<BlobStore, 'get' | 'presignGet'>;
  clock: Clock;
}

export async function listReceivedEmails(
  deps: ReceivedEmailsDeps,
  principal: Principal,
  query: ListReceivedEmailsQuery,
): Promise<Page<ReturnType<typeof toPublicReceivedEmail>>> {
  requireAccountKey(principal, 'read received email');
  const page = await deps.receivedEmails.list(
    principal.account.id,
    { limit: query.limit, cursor: query.cursor },
    {
      ...(query.to ? { to: query.to } : {}),
      ...(query.from ? { from: query.from } : {}),
      ...(query.since ? { since: new Date(query.since) } : {}),
    },
  );
  return { items: page.items.map(toPublicReceivedEmail), next_cursor: page.next_cursor };
}

export async function getReceivedEmail(deps: ReceivedEmailsDeps, principal: Principal, id: string) {
  requireAccountKey(principal, 'read received email');
  const email = isId('inb', id) ? await deps.receivedEmails.get(principal.account.id, id) : null;
  if (!email) throw new NotFoundError('Received email', id);
  // Whole seconds, as the signature's X-Amz-Date: the link must not die before the time shown.
  const expiresAt = new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000 + DOWNLOAD_URL_SECONDS * 1000).toISOString();
  const link: Link = (key, options) => deps.blobs.presignGet(key, { expiresInSeconds: DOWNLOAD_URL_SECONDS, ...options });
  // A first choice from the stored sizes, without reading what will not be inline.
  const bodyBytes = (email.html_bytes ?? 0) + (email.text_bytes ?? 0);
  const bodiesInline = bodyBytes <= BODY_INLINE_MAX_BYTES;
  const attachmentBytes = email.attachments.reduce((sum, attachment) => sum + attachment.size, 0);
  const attachmentsInline =
    attachmentBytes <= ATTACHMENTS_INLINE_MAX_BYTES &&
    (bodiesInline ? bodyBytes : 0) + Math.ceil(attachmentBytes / 3) * 4 <= RESPONSE_BUDGET_BYTES;
  const view = (inline: { bodies: boolean; attachments: boolean }) => receivedEmailView(deps, email, expiresAt, link, inline);
  // Then the answer as Lambda counts it (escaping included: a body of quotes or control characters
  // grows up to sixfold): attachments, then bodies, become links until it fits.
  let answer = await view({ bodies: bodiesInline, attachments: attachmentsInline });
  if (jsonPayloadBytes({ received_email: answer }) > RESPONSE_BODY_BUDGET_BYTES && attachmentsInline)
    answer = await view({ bodies: bodiesInline, attachments: false });
  if (jsonPayloadBytes({ received_email: answer }) > RESPONSE_BODY_BUDGET_BYTES && bodiesInline)
    answer = await view({ bodies: false, attachments: false });
  return answer;
}

/** The full record with bodies and attachments inline or as links, as `inline` says. */
async function receivedEmailView(
  deps: ReceivedEmailsDeps,
  email: ReceivedEmail,
  expiresAt: string,
  link: Link,
  inline: { bodies: boolean; attachments: boolean },
) {
  const id = email.id;
  const [bodies, attachments, raw] = await Promise.all([
    email.content_object ? contentObjectBodies(deps, email) : separateBodies(deps, email, inline.bodies, link),
    Promise.all(email.attachments.map((attachment) => attachmentView(email, attachment, inline.attachments, expiresAt, deps, link))),
    // Content not kept (docs/redaction.md): the raw message was deleted once recorded, so no link to it.
    email.content_kept === false ? null : link(email.raw_key, { downloadName: `${id}.eml`, contentType: 'message/rfc822' }),
  ]);
  return {
    ...toPublicReceivedEmail(email),
    ...bodies,
    attachments,
    raw: raw === null ? null : { download_url: raw, expires_at: expiresAt, size: email.size },
  };
}

interface BodiesView {
  html: string | null;
  text: string | null;
  html_url: string | null;
  text_url: string | null;
  headers: { name: string; value: string }[];
}

/** Bodies and headers stored as one object: always inline (small enough by construction: content-keys.ts). */
async function contentObjectBodies(deps: ReceivedEmailsDeps, email: ReceivedEmail): Promise<BodiesView> {
  const content = JSON.parse((await deps.blobs.get(receivedEmailKeys(email).content)).toString('utf8')) as InboundContent;
  return { html: content.html, text: content.text, html_url: null, text_url: null, headers: content.headers };
}

/** Bodies stored each on its own (larger ones, and every message of before the content object): inline or links. */
async function separateBodies(deps: ReceivedEmailsDeps, email: ReceivedEmail, inline: boolean, link: Link): Promise<BodiesView> {
  /** A body the message has: its text inline, or a link to it; nothing when the message has none. */
  const body = async (key: string, bytes: number | null, downloadName: string) => {
    if (bytes === null) return { content: null, url: null };
    if (inline) return { content: (await deps.blobs.get(key)).toString('utf8'), url: null };
    // Both bodies as text: the HTML one is the message's source, downloaded, never rendered here.
    return { content: null, url: await link(key, { downloadName, contentType: 'text/plain; charset=utf-8' }) };
  };
  const keys = receivedEmailKeys(email);
  const [html, text, headers] = await Promise.all([
    body(keys.html, email.html_bytes, `${email.id}.html`),
    body(keys.text, email.text_bytes, `${email.id}.txt`),
    deps.blobs.get(keys.headers),
  ]);
  return {
    html: html.content,
    text: text.content,
    html_url: html.url,
    text_url: text.url,
    headers: JSON.parse(headers.toString('utf8')) as { name: string; value: string }[],
  };
}

async function attachmentView(
  email: ReceivedEmail,
  attachment: ReceivedEmail['attachments'][number],
  inline: boolean,
  expiresAt: string,
  deps: ReceivedEmailsDeps,
  link: Link,
) {
  const key = receivedEmailKeys(email).attachment(attachment.id);
  if (inline) return { ...attachment, content: (await deps.blobs.get(key)).toString('base64'), download_url: null, expires_at: null };
  const url = await link(key, {
    downloadName: attachment.filename ?? attachment.id,
    contentType: downloadContentType(attachment.content_type),
  });
  return { ...attachment, content: null, download_url: url, expires_at: expiresAt };
}
