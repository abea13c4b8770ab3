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
 * The unsubscribe routes are ./unsubscribe-routes.ts's, the tracking routes ./tracking-routes.ts's. Tokens may be
 * up to 4 KB: createApi's path segment guard is not part of this frame.
 */
import type { Hono } from 'hono';
import { createFrame } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import type { LinkSigner } from '#shared/usecases/links/link-signing';
import type { TrackDeps } from '#shared/usecases/links/track';
import type { UnsubscribeDeps } from '#shared/usecases/links/unsubscribe';
import { addTrackingRoutes } from './tracking-routes';
import { addUnsubscribeRoutes } from './unsubscribe-routes';

export { maskAddress } from './pages';
export { PIXEL_GIF } from './tracking-routes';

export type LinksAppDeps = UnsubscribeDeps & TrackDeps & { linkSigning: Pick<LinkSigner, 'resolve'> };

export function createLinksApp(deps: LinksAppDeps): Hono<ApiEnv> {
  const app = createFrame();
  addUnsubscribeRoutes(app, deps);
  addTrackingRoutes(app, deps);
  return app;
}
