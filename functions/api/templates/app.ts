/**
 * The templates group (docs/templates.md): create, list, read, edit (the draft), delete, publish, and
 * render a template with sample values without sending. Templates are addressed by alias.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import {
  createTemplateSchema,
  listTemplatesQuerySchema,
  renderTemplateQuerySchema,
  renderTemplateSchema,
  updateTemplateSchema,
} from '../../../shared/domain/templates/schemas';
import { toPublicTemplate, toPublicTemplateSummary } from '../../../shared/domain/templates/template';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { jsonBody, parseWith, readJson } from '../../../shared/http/validate';
import type { CoreServices } from '../../../shared/services';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  publishTemplate,
  renderTemplatePreview,
  requireTemplateAccess,
  updateTemplate,
} from '../../../shared/usecases/templates';

/** A key limited to a tenant is refused (403) before its request is read, as on every account-wide group. */
const accountKeyOnly: MiddlewareHandler<ApiEnv> = async (c, next) => {
  requireTemplateAccess(c.get('principal'));
  await next();
};

/** What the group uses (its handler composes exactly this: shared/services/). */
export type TemplatesServices = CoreServices;

export function createTemplatesApp(services: TemplatesServices): Hono<ApiEnv> {
  const app = createApi(services);
  const read = requireScope('templates:write', 'account:read');
  const write = requireScope('templates:write');
  app.use('/templates', accountKeyOnly);
  app.use('/templates/*', accountKeyOnly);

  app.post('/templates', write, async (c) => {
    const template = await createTemplate(services, c.get('principal'), await jsonBody(c, createTemplateSchema));
    return c.json({ template: toPublicTemplate(template) }, 201);
  });

  app.get('/templates', read, async (c) => {
    const query = parseWith(listTemplatesQuerySchema, c.req.query(), 'query');
    const page = await listTemplates(services, c.get('principal'), query);
    return c.json({ templates: page.items.map(toPublicTemplateSummary), has_more: page.next_cursor !== null, next_cursor: page.next_cursor });
  });

  app.get('/templates/:alias', read, async (c) => {
    return c.json({ template: toPublicTemplate(await getTemplate(services, c.get('principal'), c.req.param('alias'))) });
  });

  app.patch('/templates/:alias', write, async (c) => {
    const changes = await jsonBody(c, updateTemplateSchema);
    return c.json({ template: toPublicTemplate(await updateTemplate(services, c.get('principal'), c.req.param('alias'), changes)) });
  });

  app.delete('/templates/:alias', write, async (c) => {
    await deleteTemplate(services, c.get('principal'), c.req.param('alias'));
    return c.json({ ok: true });
  });

  app.post('/templates/:alias/publish', write, async (c) => {
    return c.json({ template: toPublicTemplate(await publishTemplate(services, c.get('principal'), c.req.param('alias'))) });
  });

  // Writes nothing: a read scope is enough. An empty body renders without values.
  app.post('/templates/:alias/render', read, async (c) => {
    const { version } = parseWith(renderTemplateQuerySchema, c.req.query(), 'query');
    const body = (await c.req.text()).trim() === '' ? {} : await readJson(c);
    const input = parseWith(renderTemplateSchema, body);
    return c.json(await renderTemplatePreview(services, c.get('principal'), c.req.param('alias'), input, version));
  });

  return app;
}
