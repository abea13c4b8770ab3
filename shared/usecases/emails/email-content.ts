/**
 * One email of the caller's account with what the dashboard's email page shows beside the public record
 * (docs/dashboard.md, "Pages"): the first open and click (the timeline), the bodies (the preview) and the
 * message's header block (raw headers). Read only.
 *
 * - An email composed from a body: the bodies as stored, and the header block as the service composes
 *   it (shared/domain/mime/compose.ts, the same composer the send worker uses). Fields added at sending (the
 *   DKIM-Signature, List-Unsubscribe for managed unsubscribe) and tracking rewrites are not in it.
 * - A raw message (the SMTP relay): its stored header block as written, and the bodies read from it
 *   (shared/domain/mime/parse-bodies.ts: as mailparser reads them, without its charset tables and HTML converter).
 *
 * - A redacted email (docs/redaction.md) whose content was dropped after sending: no bodies, no header
 *   block, `content: 'not_kept'` (the page says "content not kept").
 *
 * Visibility as GET /emails/{id} (the same lookup: ./get-email.ts findVisibleEmail): another account's
 * email, or another tenant's for a tenant-limited principal, is not found.
 */
import { toPublicEmail, type EmailBody } from '../../domain/emails/email';
import { NotFoundError } from '../../domain/errors';
import { isId } from '../../domain/ids';
import { contentState, type ContentState } from '../../domain/emails/email';
import { composeMime } from '../../domain/mime/compose';
import { splitHeaderBlock } from '../../domain/mime/header-block';
import { parseBodies } from '../../domain/mime/parse-bodies';
import type { BlobStore } from '../../ports/blobs';
import type { StoredEmail } from '../../adapters/store/emails/stored-email';
import { findVisibleEmail, type GetEmailDeps } from './get-email';
import type { Principal } from '../access/principal';
import { rawMessageBytes } from './raw-message-bytes';

export type EmailContentDeps = GetEmailDeps & { blobs: Pick<BlobStore, 'get'> };

export interface EmailContent {
  email: ReturnType<typeof toPublicEmail> & { opened_at: string | null; clicked_at: string | null };
  html: string | null;
  text: string | null;
  /** The top-level header block, one field per line (folded lines kept). */
  headers: string;
  /** `composed`: headers as the service composes the message; `raw`: the message as the SMTP client wrote it. */
  source: 'composed' | 'raw';
  /**
   * Content redaction (docs/redaction.md): `kept`; `until_sent` for a redacted email not yet sent (its
   * content is still there, dropped once SES accepts it); `not_kept` once dropped (html, text null, no headers).
   */
  content: ContentState;
}

async function storedBody(deps: Pick<EmailContentDeps, 'blobs'>, stored: StoredEmail): Promise<EmailBody> {
  if ('inline' in stored.body) return stored.body.inline;
  return JSON.parse((await deps.blobs.get(stored.body.blobKey)).toString('utf8')) as EmailBody;
}

/** The header block as text: its bytes read as UTF-8 (8-bit header bytes are UTF-8 in practice). */
function headerText(raw: Buffer): string {
  const { fields } = splitHeaderBlock(raw);
  return Buffer.from(fields.map((field) => field.text).join(''), 'latin1')
    .toString('utf8')
    .replace(/\r\n/g, '\n')
    .replace(/\n$/, '');
}

export async function getEmailContent(deps: EmailContentDeps, principal: Principal, emailId: string): Promise<EmailContent> {
  const found = isId('msg', emailId) ? await findVisibleEmail(deps, principal, emailId) : null;
  if (!found) throw new NotFoundError('Email', emailId);
  const { stored, email } = found;
  const view = { ...toPublicEmail(email), opened_at: email.opened_at ?? null, clicked_at: email.clicked_at ?? null };
  // A redacted email whose content was dropped: nothing to read (its objects are gone).
  const content = contentState(email);
  if (content === 'not_kept') return { email: view, html: null, text: null, headers: '', source: 'composed', content };
  if (stored.mime) {
    const raw = await rawMessageBytes(deps.blobs, stored.mime);
    const { html, text } = parseBodies(raw);
    return {
      email: view,
      html,
      text,
      headers: headerText(raw),
      source: 'raw',
      content,
    };
  }
  const body = await storedBody(deps, stored);
  return {
    email: view,
    html: body.html ?? null,
    text: body.text ?? null,
    headers: headerText(await composeMime(email, body)),
    source: 'composed',
    content,
  };
}
