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
import type { Context, Hono } from 'hono';
import { NotFoundError } from '#shared/domain/errors';
import type { LinkKind } from '#shared/domain/links/token';
import { createFrame } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { logError, logInfo } from '#shared/lib/log';
import { linkOps } from './operations';
import type { LinkSigner, ResolvedLink } from '#shared/usecases/links/link-signing';
import { trackHit, type TrackDeps, type TrackedLink } from '#shared/usecases/links/track';
import { unsubscribe, type UnsubscribeDeps, type UnsubscribeSource } from '#shared/usecases/links/unsubscribe';
import { confirmationPage, donePage, invalidLinkPage, NO_STORE } from './pages';

export { maskAddress } from './pages';

export type LinksAppDeps = UnsubscribeDeps & TrackDeps & { linkSigning: Pick<LinkSigner, 'resolve'> };

/** A transparent 1x1 GIF (43 bytes). */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

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
  const route = routes(app);

  route(linkOps.unsubscribePage, async (c, { params }) => {
    const resolved = await deps.linkSigning.resolve(params.token, 'unsubscribe');
    if (!resolved.ok) {
      logRefused(c, 'unsubscribe', resolved);
      return invalidLinkPage(c);
    }
    return confirmationPage(c, resolved.link);
  });

  route(linkOps.unsubscribe, async (c, { params }) => {
    const resolved = await deps.linkSigning.resolve(params.token, 'unsubscribe');
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
      await trackHit(deps, tracked, {
        id: c.get('requestId'),
        method: c.req.method,
        userAgent: c.req.header('user-agent') ?? null,
        ip: sourceIp(c),
      });
    } catch (error) {
      logError('tracking hit not recorded', error, { request_id: c.get('requestId'), kind: tracked.kind, email_id: tracked.link.emailId });
    }
  };

  // GET handlers answer HEAD too (Hono); c.req.method says which it was.
  route(linkOps.trackOpen, async (c, { params }) => {
    const resolved = await deps.linkSigning.resolve(params.token, 'open');
    if (!resolved.ok) {
      logRefused(c, 'open', resolved);
      throw notALink('open');
    }
    await track(c, { kind: 'open', link: resolved.link });
    return c.body(new Uint8Array(PIXEL_GIF), 200, {
      'Content-Type': 'image/gif',
      'Cache-Control': NO_STORE,
      Pragma: 'no-cache',
      Expires: '0',
    });
  });

  route(linkOps.trackClick, async (c, { params }) => {
    const resolved = await deps.linkSigning.resolve(params.token, 'click');
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
