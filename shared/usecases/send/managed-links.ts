/**
 * The links the service puts into a message as the send worker composes it (docs/tracking.md):
 *  - managed unsubscribe (spec rule 10): `List-Unsubscribe: <signed https link>` and
 *    `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058; both in the DKIM h= list, see
 *    shared/lib/dkim/sign.ts), and `{{unsubscribe_url}}` replaced by that link in subject, html and text. The
 *    link is bound to the first `to` address and to the email's category: transactional mail unsubscribes
 *    from everything (a suppression), product and newsletter mail from that category only (an opt-out);
 *  - open tracking (the domain's open_tracking): a 1x1 pixel at the end of the html;
 *  - click tracking (the domain's click_tracking): absolute http(s) links of the html and of the text
 *    through a signed redirect to exactly that URL; mailto:, tel:, relative links and the unsubscribe link
 *    are never rewritten.
 * Pure once the signer is loaded: the same email and settings give the same message.
 */
import { parseMailbox } from '../../domain/mail/address';
import type { Email, EmailBody } from '../../domain/emails/email';
import { escapeHtml } from '../../domain/html';
import { unsubscribeScopeOf, type LinkUrls } from '../../domain/links/link-urls';
import { addOpenPixel, rewriteHtmlLinks, rewriteTextLinks } from '../../domain/tracking/transform';

export interface TrackingSettings {
  open: boolean;
  click: boolean;
}

export const NO_TRACKING: TrackingSettings = { open: false, click: false };

/**
 * What an email from a verified domain is tracked with (docs/tracking.md, "Per message"): the send's own
 * `track_opens` / `track_clicks` where it gave them, else the sending domain's settings.
 */
export function emailTracking(
  email: Pick<Email, 'track_opens' | 'track_clicks'>,
  domain: { openTracking: boolean; clickTracking: boolean },
): TrackingSettings {
  return { open: email.track_opens ?? domain.openTracking, click: email.track_clicks ?? domain.clickTracking };
}

/** The reserved placeholder (with optional spaces inside the braces, as the template renderer reads them). */
const UNSUBSCRIBE_PLACEHOLDER = /\{\{\s*unsubscribe_url\s*\}\}/g;

/** True when composing this email needs signed links (so the signer is loaded only then). */
export function needsLinks(email: Pick<Email, 'unsubscribe'>, tracking: TrackingSettings): boolean {
  return Boolean(email.unsubscribe) || tracking.open || tracking.click;
}

/** The header fields of managed unsubscribe (RFC 8058 section 3.1). */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The managed unsubscribe link of an email: for its first `to` address, scoped by its category. */
export function unsubscribeUrlOf(email: Email, urls: LinkUrls): string {
  const first = email.to[0] ?? '';
  const recipient = (parseMailbox(first)?.email ?? first).toLowerCase();
  const category = email.category ?? 'transactional';
  return urls.unsubscribeUrl({
    accountId: email.account_id,
    emailId: email.id,
    recipient,
    scope: unsubscribeScopeOf(category),
    category,
    tenantId: email.tenant_id ?? null,
  });
}

/** The email (subject, headers) and body as they are sent: links added as the email and its domain ask. */
export function withManagedLinks(
  email: Email,
  body: EmailBody,
  tracking: TrackingSettings,
  urls: LinkUrls,
): { email: Email; body: EmailBody } {
  let { subject, headers } = email;
  let { html, text } = body;
  const unsubscribeUrl = email.unsubscribe ? unsubscribeUrlOf(email, urls) : null;
  if (unsubscribeUrl !== null) {
    subject = subject.replace(UNSUBSCRIBE_PLACEHOLDER, unsubscribeUrl);
    html = html?.replace(UNSUBSCRIBE_PLACEHOLDER, escapeHtml(unsubscribeUrl));
    text = text?.replace(UNSUBSCRIBE_PLACEHOLDER, unsubscribeUrl);
    headers = { ...headers, ...unsubscribeHeaders(unsubscribeUrl) };
  }
  if (tracking.click) {
    const rewrite = (url: string) =>
      url === unsubscribeUrl ? null : urls.clickUrl({ accountId: email.account_id, emailId: email.id, url });
    html = html === undefined ? undefined : rewriteHtmlLinks(html, rewrite);
    text = text === undefined ? undefined : rewriteTextLinks(text, rewrite);
  }
  if (tracking.open && html !== undefined) html = addOpenPixel(html, urls.openUrl({ accountId: email.account_id, emailId: email.id }));
  return {
    email: { ...email, subject, headers },
    body: { ...(html === undefined ? {} : { html }), ...(text === undefined ? {} : { text }) },
  };
}
