/**
 * GET /received-emails and GET /received-emails/{id}. Received email belongs to the whole account: a
 * key limited to a tenant gets 403 (spec, Authentication 3).
 *
 * The full record carries the html and text bodies, the header list and each attachment's bytes in
 * base64, while the response stays well under what API Gateway and Lambda can return (6 MB): bodies up
 * to BODY_INLINE_MAX_BYTES together are inline, else `html`/`text` are null and `html_url`/`text_url`
 * are presigned GET URLs; attachments are inline (`content`) when all of them together are at most
 * ATTACHMENTS_INLINE_MAX_BYTES and fit beside the bodies, else every one has a `download_url`. The raw
 * message is always a `download_url`. Links are valid DOWNLOAD_URL_SECONDS (1 hour, as Resend's).
 */
import { NotFoundError } from '../../domain/errors';
import { isId } from '../../domain/ids';
import { inboundKeys } from '../../domain/inbound/content-keys';
import { toPublicReceivedEmail, type ReceivedEmail } from '../../domain/inbound/received-email';
import type { ListReceivedEmailsQuery } from '../../domain/inbound/schemas';
import type { BlobStore, Clock } from '../../ports';
import type { Page } from '../../store/cursor';
import type { ReceivedEmailRepository } from '../../store/received-emails';
import type { Principal } from '../principal';
import { requireAccountKey } from '../tenant-scope';

export const BODY_INLINE_MAX_BYTES = 3 * 1024 * 1024;
export const ATTACHMENTS_INLINE_MAX_BYTES = 2 * 1024 * 1024;
/** What the whole response may hold, base64 included (Lambda's 6 MB, with room for the JSON around it). */
const RESPONSE_BUDGET_BYTES = 5 * 1024 * 1024;
export const DOWNLOAD_URL_SECONDS = 3600;

export interface ReceivedEmailsDeps {
  receivedEmails: Pick<ReceivedEmailRepository, 'list' | 'get'>;
  blobs: Pick<BlobStore, 'get' | 'presignGet'>;
  clock: Clock;
}

export async function listReceivedEmails(deps: ReceivedEmailsDeps, principal: Principal, query: ListReceivedEmailsQuery): Promise<Page<ReturnType<typeof toPublicReceivedEmail>>> {
  requireAccountKey(principal, 'read received email');
  const page = await deps.receivedEmails.list(
    principal.account.id,
    { limit: query.limit, cursor: query.cursor },
    { ...(query.to ? { to: query.to } : {}), ...(query.from ? { from: query.from } : {}), ...(query.since ? { since: new Date(query.since) } : {}) },
  );
  return { items: page.items.map(toPublicReceivedEmail), next_cursor: page.next_cursor };
}

export async function getReceivedEmail(deps: ReceivedEmailsDeps, principal: Principal, id: string) {
  requireAccountKey(principal, 'read received email');
  const email = isId('inb', id) ? await deps.receivedEmails.get(principal.account.id, id) : null;
  if (!email) throw new NotFoundError('Received email', id);
  const expiresAt = new Date(deps.clock.now().getTime() + DOWNLOAD_URL_SECONDS * 1000).toISOString();
  const link = (key: string, options: { downloadName?: string; contentType?: string } = {}) => deps.blobs.presignGet(key, { expiresInSeconds: DOWNLOAD_URL_SECONDS, ...options });
  const optional = async (key: string) => {
    try {
      return (await deps.blobs.get(key)).toString('utf8');
    } catch {
      return null;
    }
  };

  const bodiesInline = email.body_bytes <= BODY_INLINE_MAX_BYTES;
  const attachmentBytes = email.attachments.reduce((sum, attachment) => sum + attachment.size, 0);
  const attachmentsInline = attachmentBytes <= ATTACHMENTS_INLINE_MAX_BYTES && (bodiesInline ? email.body_bytes : 0) + Math.ceil(attachmentBytes / 3) * 4 <= RESPONSE_BUDGET_BYTES;

  const [html, text, headers, attachments, raw] = await Promise.all([
    bodiesInline ? optional(inboundKeys.html(id)) : null,
    bodiesInline ? optional(inboundKeys.text(id)) : null,
    optional(inboundKeys.headers(id)),
    Promise.all(email.attachments.map((attachment) => attachmentView(email, attachment, attachmentsInline, expiresAt, deps, link))),
    link(email.raw_key, { downloadName: `${id}.eml`, contentType: 'message/rfc822' }),
  ]);
  return {
    ...toPublicReceivedEmail(email),
    html,
    text,
    html_url: !bodiesInline ? await link(inboundKeys.html(id), { contentType: 'text/html; charset=utf-8' }) : null,
    text_url: !bodiesInline ? await link(inboundKeys.text(id), { contentType: 'text/plain; charset=utf-8' }) : null,
    headers: headers ? (JSON.parse(headers) as { name: string; value: string }[]) : [],
    attachments,
    raw: { download_url: raw, expires_at: expiresAt, size: email.size },
  };
}

async function attachmentView(
  email: ReceivedEmail,
  attachment: ReceivedEmail['attachments'][number],
  inline: boolean,
  expiresAt: string,
  deps: ReceivedEmailsDeps,
  link: (key: string, options: { downloadName?: string; contentType?: string }) => Promise<string>,
) {
  const key = inboundKeys.attachment(email.id, attachment.id);
  if (inline) return { ...attachment, content: (await deps.blobs.get(key)).toString('base64'), download_url: null, expires_at: null };
  const url = await link(key, { downloadName: attachment.filename ?? attachment.id, contentType: attachment.content_type });
  return { ...attachment, content: null, download_url: url, expires_at: expiresAt };
}
