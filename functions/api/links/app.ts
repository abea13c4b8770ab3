/**
 * The public links group (docs/tracking.md): what the links in sent emails lead to. No API key: the
 * signed token in the path is the only authority, and a token that does not verify (forged, altered,
 * unknown key, another kind of link) is a 404 that records nothing and never redirects.
 *
 *   POST /unsubscribe/{token}   RFC 8058 one-click (any body, no cookies, no redirect): 200; the
 *                               confirmation page's form posts here too (source=confirmation_page)
 *   GET  /unsubscribe/{token}   the confirmation page (no side effects: prefetchers do not unsubscribe)
 *   GET  /t/open/{token}        the 1x1 pixel (also HEAD): records the open
 *   GET  /t/click/{token}       302 to the signed URL (also HEAD): records the click
 *
 * Tokens may be up to 4 KB: createApi's path segment guard is not part of this frame.
 */
import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { NotFoundError } from '../../../shared/domain/errors';
import type { UnsubscribeLink } from '../../../shared/domain/links/link-urls';
import type { LinkKind } from '../../../shared/domain/links/token';
import { escapeHtmlAttribute } from '../../../shared/domain/tracking/transform';
import { createFrame } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { logError, logInfo } from '../../../shared/log';
import type { LinkSigner, ResolvedLink } from '../../../shared/usecases/links/link-signing';
import { trackHit, type TrackDeps, type TrackedLink } from '../../../shared/usecases/links/track';
import { CATEGORY_LABELS, unsubscribe, type UnsubscribeDeps, type UnsubscribeSource } from '../../../shared/usecases/links/unsubscribe';

export type LinksAppDeps = UnsubscribeDeps & TrackDeps & { linkSigning: Pick<LinkSigner, 'resolve'> };

/** A transparent 1x1 GIF (43 bytes). */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

const NO_STORE = 'no-store, no-cache, must-revalidate, max-age=0';

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

const escape = escapeHtmlAttribute;

function page(c: Context<ApiEnv>, status: 200 | 404, title: string, body: string) {
  c.header('Content-Security-Policy', PAGE_CSP);
  c.header('Cache-Control', NO_STORE);
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('X-Frame-Options', 'DENY');
  return c.html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<meta name="robots" content="noindex"><title>${escape(title)}</title><style>${PAGE_STYLE}</style></head>` +
      `<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`,
    status,
  );
}

function whatStops(link: UnsubscribeLink): string {
  return link.scope === 'all' ? 'all email from this sender' : escape(CATEGORY_LABELS[link.category]);
}

function confirmationPage(c: Context<ApiEnv>, link: UnsubscribeLink) {
  const address = escape(maskAddress(link.recipient));
  const keeps = link.scope === 'category' ? '<p>Other email from this sender, such as receipts and account notices, will still arrive.</p>' : '';
  return page(
    c,
    200,
    'Unsubscribe',
    `<p>Stop sending ${whatStops(link)} to <strong>${address}</strong>?</p>${keeps}` +
      `<form method="post"><input type="hidden" name="source" value="confirmation_page"><button type="submit">Unsubscribe</button></form>`,
  );
}

function donePage(c: Context<ApiEnv>, link: UnsubscribeLink) {
  return page(c, 200, 'You are unsubscribed', `<p><strong>${escape(maskAddress(link.recipient))}</strong> will no longer receive ${whatStops(link)}.</p>`);
}

function invalidLinkPage(c: Context<ApiEnv>) {
  return page(c, 404, 'This link is not valid', '<p>The unsubscribe link is incomplete or was changed. Use the link from the email itself.</p>');
}

/** The client's address as API Gateway saw it (payload 2.0, or 1.0). */
function sourceIp(c: Context<ApiEnv>): string | null {
  const context = c.env?.event?.requestContext as { http?: { sourceIp?: string }; identity?: { sourceIp?: string } } | undefined;
  return context?.http?.sourceIp ?? context?.identity?.sourceIp ?? null;
}

/** A 404 of the error envelope: the same answer for every token that does not verify. */
function notALink(kind: LinkKind): NotFoundError {
  return new NotFoundError(`The ${kind === 'unsubscribe' ? 'unsubscribe' : 'tracking'} link (not a valid link)`);
}

function logRefused(c: Context<ApiEnv>, kind: LinkKind, resolved: ResolvedLink<LinkKind>): void {
  if (!resolved.ok) logInfo('link refused', { kind, failure: resolved.failure, request_id: c.get('requestId') });
}

/** The form field `source` of a urlencoded or multipart body; anything else (or no body) is the one-click POST. */
async function sourceOf(c: Context<ApiEnv>): Promise<UnsubscribeSource> {
  try {
    const body = await c.req.parseBody();
    return body.source === 'confirmation_page' ? 'confirmation_page' : 'one_click';
  } catch {
    return 'one_click';
  }
}

export function createLinksApp(deps: LinksAppDeps): Hono<ApiEnv> {
  const app = createFrame();

  app.get('/unsubscribe/:token', async (c) => {
    const resolved = await deps.linkSigning.resolve(c.req.param('token'), 'unsubscribe');
    if (!resolved.ok) {
      logRefused(c, 'unsubscribe', resolved);
      return invalidLinkPage(c);
    }
    return confirmationPage(c, resolved.link);
  });

  app.post('/unsubscribe/:token', async (c) => {
    const resolved = await deps.linkSigning.resolve(c.req.param('token'), 'unsubscribe');
    if (!resolved.ok) {
      logRefused(c, 'unsubscribe', resolved);
      throw notALink('unsubscribe');
    }
    const source = await sourceOf(c);
    await unsubscribe(deps, resolved.link, source);
    c.header('Cache-Control', NO_STORE);
    if (source === 'confirmation_page' && (c.req.header('accept') ?? '').includes('text/html')) return donePage(c, resolved.link);
    return c.json({ unsubscribed: true });
  });

  /** Records a hit; a failure to record never costs the reader the pixel or the redirect. */
  const track = async (c: Context<ApiEnv>, tracked: TrackedLink) => {
    try {
      await trackHit(deps, tracked, { id: c.get('requestId'), method: c.req.method, userAgent: c.req.header('user-agent') ?? null, ip: sourceIp(c) });
    } catch (error) {
      logError('tracking hit not recorded', error, { request_id: c.get('requestId'), kind: tracked.kind, email_id: tracked.link.emailId });
    }
  };

  // GET handlers answer HEAD too (Hono); c.req.method says which it was.
  app.get('/t/open/:token', async (c) => {
    const resolved = await deps.linkSigning.resolve(c.req.param('token'), 'open');
    if (!resolved.ok) {
      logRefused(c, 'open', resolved);
      throw notALink('open');
    }
    await track(c, { kind: 'open', link: resolved.link });
    return c.body(new Uint8Array(PIXEL_GIF), 200, { 'Content-Type': 'image/gif', 'Cache-Control': NO_STORE, Pragma: 'no-cache', Expires: '0' });
  });

  app.get('/t/click/:token', async (c) => {
    const resolved = await deps.linkSigning.resolve(c.req.param('token'), 'click');
    if (!resolved.ok) {
      logRefused(c, 'click', resolved);
      throw notALink('click');
    }
    await track(c, { kind: 'click', link: resolved.link });
    const url = resolved.link.url;
    // Header values are bytes: a URL written with non-ASCII characters goes out in its encoded form.
    const location = /^[\x21-\x7e]+$/.test(url) ? url : new URL(url).href;
    c.header('Cache-Control', NO_STORE);
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(location, 302);
  });

  return app;
}
