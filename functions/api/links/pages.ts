/**
 * The unsubscribe pages of the public links group (docs/tracking.md): the confirmation page (a form
 * posting back to the same URL), the done page and the invalid-link page. Self-contained HTML: one inline
 * style allowed by its hash, nothing loaded, nothing run, never framed; every value escaped.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { UnsubscribeLink } from '#shared/domain/links/link-urls';
import { escapeHtml } from '#shared/domain/html';
import type { ApiEnv } from '#shared/doors/http/env';
import { CATEGORY_LABELS } from '#shared/usecases/links/unsubscribe';

export const NO_STORE = 'no-store, no-cache, must-revalidate, max-age=0';

const PAGE_STYLE =
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;background:#f6f7f9;color:#1f2328}' +
  'main{max-width:30rem;margin:12vh auto;padding:2rem;background:#fff;border:1px solid #d8dee4;border-radius:8px}' +
  'h1{font-size:1.35rem;margin:0 0 1rem}p{margin:0 0 1rem}' +
  'button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:6px;background:#1f2328;color:#fff;cursor:pointer}';

/** Only this inline style may apply; nothing loads, nothing runs, and the form posts only back here. */
const PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** The address as the page shows it: the local part partly hidden (a forwarded email shows little). */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '•••';
  const local = address.slice(0, at);
  return `${local[0]}•••${local.length > 2 ? local[local.length - 1] : ''}${address.slice(at)}`;
}

function page(c: Context<ApiEnv>, status: 200 | 404, title: string, body: string) {
  c.header('Content-Security-Policy', PAGE_CSP);
  c.header('Cache-Control', NO_STORE);
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('X-Frame-Options', 'DENY');
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head>` +
      `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    status,
  );
}

function whatStops(link: UnsubscribeLink): string {
  if (link.scope === 'all') return 'all email from this sender';
  // Mid-sentence: "Stop sending product updates to ...?"
  const label = CATEGORY_LABELS[link.category];
  return escapeHtml(label.charAt(0).toLowerCase() + label.slice(1));
}

export function confirmationPage(c: Context<ApiEnv>, link: UnsubscribeLink) {
  const address = escapeHtml(maskAddress(link.recipient));
  const keeps =
    link.scope === 'category' ? '<p>Other email from this sender, such as receipts and account notices, will still arrive.</p>' : '';
  return page(
    c,
    200,
    'Unsubscribe',
    `<p>Stop sending ${whatStops(link)} to <strong>${address}</strong>?</p>${keeps}` +
      `<form method="post"><input type="hidden" name="source" value="confirmation_page"><button type="submit">Unsubscribe</button></form>`,
  );
}

export function donePage(c: Context<ApiEnv>, link: UnsubscribeLink) {
  return page(
    c,
    200,
    'You are unsubscribed',
    `<p><strong>${escapeHtml(maskAddress(link.recipient))}</strong> will no longer receive ${whatStops(link)}.</p>`,
  );
}

export function invalidLinkPage(c: Context<ApiEnv>) {
  return page(
    c,
    404,
    'This link is not valid',
    '<p>The unsubscribe link is incomplete or was changed. Use the link from the email itself.</p>',
  );
}
