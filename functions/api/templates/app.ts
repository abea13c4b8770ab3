/**
 * The templates group (docs/templates.md): create, list, read, edit (the draft), delete, publish, and
 * render a template with sample values without sending. Templates are addressed by alias.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import { toPublicTemplate, toPublicTemplateSummary } from '#shared/domain/templates/template';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { templateOps } from './operations';
import type { AccessServices, Platform, TemplateServices, TenantServices } from '#shared/services';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  publishTemplate,
  renderTemplatePreview,
  requireTemplateAccess,
  updateTemplate,
} from '#shared/usecases/templates/templates';

/** A key limited to a tenant is refused (403) before its request is read, as on every account-wide group. */
const accountKeyOnly: MiddlewareHandler<ApiEnv> = async (c, next) => {
  requireTemplateAccess(c.get('principal'));
  await next();
};

/** What the group uses (its handler composes exactly this: shared/services/). */
export type TemplatesServices = Platform & AccessServices & TenantServices & TemplateServices;

export function createTemplatesApp(services: TemplatesServices): Hono<ApiEnv> {
  const app = createApi(services);
  app.use('/templates', accountKeyOnly);
  app.use('/templates/*', accountKeyOnly);
  const route = routes(app);

  route(templateOps.createTemplate, async (c, { body }) => {
    return c.json({ template: toPublicTemplate(await createTemplate(services, c.get('principal'), body)) }, 201);
  });

  route(templateOps.listTemplates, async (c, { query }) => {
    return c.json(listPage('templates', await listTemplates(services, c.get('principal'), query), toPublicTemplateSummary));
  });

  route(templateOps.getTemplate, async (c, { params }) => {
    return c.json({ template: toPublicTemplate(await getTemplate(services, c.get('principal'), params.alias)) });
  });

  route(templateOps.updateTemplate, async (c, { body, params }) => {
    return c.json({ template: toPublicTemplate(await updateTemplate(services, c.get('principal'), params.alias, body)) });
  });

  route(templateOps.deleteTemplate, async (c, { params }) => {
    await deleteTemplate(services, c.get('principal'), params.alias);
    return c.json({ ok: true });
  });

  route(templateOps.publishTemplate, async (c, { params }) => {
    return c.json({ template: toPublicTemplate(await publishTemplate(services, c.get('principal'), params.alias)) });
  });

  // Writes nothing: a read scope is enough. An empty body renders without values.
  route(templateOps.renderTemplate, async (c, { body, query, params }) => {
    return c.json(await renderTemplatePreview(services, c.get('principal'), params.alias, body, query.version));
  });

  return app;
}
