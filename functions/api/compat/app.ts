/**
 * The provider-compatible sending doors (docs/compat.md): SendGrid's `POST /v3/mail/send`, Postmark's
 * `POST /email`, `/email/batch` and `/email/withTemplate`, Mailgun's `POST /v3/{domain}/messages`. Each is
 * a thin adapter onto the one send core (shared/usecases/send), with the provider's own authentication
 * scheme carrying our API key and the provider's own answer and error bodies, so each provider's official
 * SDK works unchanged but for its base URL and key.
 *
 * Not in the OpenAPI reference (they follow the providers' interfaces, not ours): their routes are the
 * group's `pages` (infra/definitions/api-groups.ts).
 */
import { Hono } from 'hono';
import type { ApiEnv } from '#shared/doors/http/env';
import { requestId } from '#shared/doors/http/middleware/request-id';
import { responseWithinLambdaLimit } from '#shared/doors/http/lambda-response-budget';
import { mountSendgrid } from '#shared/doors/compat/sendgrid/routes';
import { mountPostmark } from '#shared/doors/compat/postmark/routes';
import { mountMailgun } from '#shared/doors/compat/mailgun/routes';
import type { CompatServices } from '#shared/doors/compat/services';

export function createCompatApp(services: CompatServices): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use('*', responseWithinLambdaLimit());
  app.use('*', requestId());
  // Each door answers its own 404s and errors in its provider's shape (its routes.ts).
  mountSendgrid(app, services);
  mountPostmark(app, services);
  mountMailgun(app, services);
  return app;
}
