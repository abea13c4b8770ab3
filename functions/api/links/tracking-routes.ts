/**
 * The links group's tracking routes: GET /t/open/{token}, the 1x1 pixel, records the open; GET
 * /t/click/{token}, 302 to the signed URL, records the click. Both answer HEAD too (Hono's GET handlers do).
 */
import type { Context, Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { logError } from '#shared/lib/log';
import type { LinkSigner } from '#shared/usecases/links/link-signing';
import { trackHit, type TrackDeps, type TrackedLink } from '#shared/usecases/links/track';
import { linkOps } from './operations';
import { NO_STORE } from './pages';
import { logRefused, notALink } from './refused-links';

/** A transparent 1x1 GIF (43 bytes). */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

type TrackingDeps = TrackDeps & { linkSigning: Pick<LinkSigner, 'resolve'> };

/** The client's address as API Gateway saw it (payload 2.0, or 1.0). */
function sourceIp(c: Context<ApiEnv>): string | null {
  const context = c.env?.event?.requestContext as { http?: { sourceIp?: string }; identity?: { sourceIp?: string } } | undefined;
  return context?.http?.sourceIp ?? context?.identity?.sourceIp ?? null;
}

/** Records a hit; a failure to record never costs the reader the pixel or the redirect. */
async function track(deps: TrackingDeps, c: Context<ApiEnv>, tracked: TrackedLink): Promise<void> {
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
}

export function addTrackingRoutes(app: Hono<ApiEnv>, deps: TrackingDeps): void {
  const route = routes(app);

  // GET handlers answer HEAD too (Hono); c.req.method says which it was.
  route(linkOps.trackOpen, async (c, { params }) => {
    const resolved = await deps.linkSigning.resolve(params.token, 'open');
    if (!resolved.ok) {
      logRefused(c, 'open', resolved);
      throw notALink('open');
    }
    await track(deps, c, { kind: 'open', link: resolved.link });
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
    await track(deps, c, { kind: 'click', link: resolved.link });
    const url = resolved.link.url;
    // Header values are bytes: a URL written with non-ASCII characters goes out in its encoded form.
    const location = /^[\x21-\x7e]+$/.test(url) ? url : new URL(url).href;
    c.header('Cache-Control', NO_STORE);
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(location, 302);
  });
}
