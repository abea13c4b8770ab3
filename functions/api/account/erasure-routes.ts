/** The account group's Erasure routes (docs/erasure.md): each handler one use case of shared/usecases/privacy. */
import type { Hono } from 'hono';
import { toPublicErasure } from '#shared/domain/privacy/erasure';
import type { ApiEnv } from '#shared/doors/http/env';
import { routes } from '#shared/doors/http/route';
import { privacyOps } from './erasure-operations';
import type { AccountServices } from './services';
import type { ErasureDeps } from '#shared/usecases/privacy/deps';
import { getErasure, startErasure } from '#shared/usecases/privacy/erasures';

/** The erasure use cases' deps from the group's services. */
export function erasureDepsOf(services: AccountServices): ErasureDeps {
  return { erasures: services.erasures, exports: services.exports, blobs: services.blobs, clock: services.clock };
}

export function addErasureRoutes(app: Hono<ApiEnv>, services: AccountServices): void {
  const route = routes(app, services);
  const deps = erasureDepsOf(services);

  route(privacyOps.createErasure, async (c, { body }) =>
    c.json({ erasure: toPublicErasure(await startErasure(deps, c.get('principal'), body)) }, 201),
  );

  route(privacyOps.getErasure, async (c, { params }) =>
    c.json({ erasure: toPublicErasure(await getErasure(deps, c.get('principal'), params.id)) }),
  );
}
