/**
 * The links group's unsubscribe routes: GET /unsubscribe/{token}, the confirmation page (no side effects:
 * prefetchers do not unsubscribe), and POST /unsubscribe/{token}, RFC 8058 one-click (any body, no cookies,
 * no redirect: 200), which the confirmation page's form posts to too (source=confirmation_page).
 */
import type { Context, Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import type { LinkSigner } from '#shared/usecases/links/link-signing';
import { unsubscribe, type UnsubscribeDeps, type UnsubscribeSource } from '#shared/usecases/links/unsubscribe';
import { linkOps } from './operations';
import { confirmationPage, donePage, invalidLinkPage, NO_STORE } from './pages';
import { logRefused, notALink } from './refused-links';

/** The form field `source` of a urlencoded or multipart body; anything else (or no body) is the one-click POST. */
async function sourceOf(c: Context<ApiEnv>): Promise<UnsubscribeSource> {
  try {
    const body = await c.req.parseBody();
    return body.source === 'confirmation_page' ? 'confirmation_page' : 'one_click';
  } catch {
    return 'one_click';
  }
}

export function addUnsubscribeRoutes(app: Hono<ApiEnv>, deps: UnsubscribeDeps & { linkSigning: Pick<LinkSigner, 'resolve'> }): void {
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
}
