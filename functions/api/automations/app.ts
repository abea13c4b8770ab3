/**
 * The automations group (docs/automations.md): create, list, read, edit, delete, and activate or pause
 * an automation; read its runs; and POST /events (./events-routes.ts), which starts, resumes and cancels runs.
 */
import type { Hono } from 'hono';
import { automationActionSchema, createAutomationSchema, listAutomationsQuerySchema, updateAutomationSchema } from '../../../shared/domain/automations/schemas';
import { toPublicAutomation } from '../../../shared/domain/automations/automation';
import { listRunsQuerySchema, toRunDetail, toRunSummary } from '../../../shared/domain/automations/run-view';
import { accountKeyOnly, addEventRoutes } from './events-routes';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { jsonBody, parseWith } from '../../../shared/http/validate';
import type { CoreServices } from '../../../shared/services';
import {
  changeAutomationStatus,
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomations,
  updateAutomation,
} from '../../../shared/usecases/automations';
import { getAutomationRun, listAutomationRuns } from '../../../shared/usecases/automation-runs';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type AutomationsServices = CoreServices;

export function createAutomationsApp(services: AutomationsServices): Hono<ApiEnv> {
  const app = createApi(services);
  // No scope of its own: automations send email on the account's behalf, so writing them needs `full`.
  const read = requireScope('account:read');
  const write = requireScope('full');
  app.use('/automations', accountKeyOnly);
  app.use('/automations/*', accountKeyOnly);
  addEventRoutes(app, services);

  app.post('/automations', write, async (c) => {
    const automation = await createAutomation(services, c.get('principal'), await jsonBody(c, createAutomationSchema));
    return c.json({ automation: toPublicAutomation(automation) }, 201);
  });

  app.get('/automations', read, async (c) => {
    const query = parseWith(listAutomationsQuerySchema, c.req.query(), 'query');
    const page = await listAutomations(services, c.get('principal'), query);
    return c.json({ automations: page.items.map(toPublicAutomation), has_more: page.next_cursor !== null, next_cursor: page.next_cursor });
  });

  app.get('/automations/:id', read, async (c) => {
    return c.json({ automation: toPublicAutomation(await getAutomation(services, c.get('principal'), c.req.param('id'))) });
  });

  app.patch('/automations/:id', write, async (c) => {
    const changes = await jsonBody(c, updateAutomationSchema);
    return c.json({ automation: toPublicAutomation(await updateAutomation(services, c.get('principal'), c.req.param('id'), changes)) });
  });

  app.delete('/automations/:id', write, async (c) => {
    await deleteAutomation(services, c.get('principal'), c.req.param('id'));
    return c.json({ ok: true });
  });

  // Runs (docs/automations.md, "Runs API"): read-only, newest first.
  app.get('/automations/:id/runs', read, async (c) => {
    const query = parseWith(listRunsQuerySchema, c.req.query(), 'query');
    const page = await listAutomationRuns(services, c.get('principal'), c.req.param('id'), query);
    return c.json({ runs: page.items.map(toRunSummary), has_more: page.next_cursor !== null, next_cursor: page.next_cursor });
  });

  app.get('/automations/:id/runs/:run_id', read, async (c) => {
    return c.json({ run: toRunDetail(await getAutomationRun(services, c.get('principal'), c.req.param('id'), c.req.param('run_id'))) });
  });

  // The spec's activation: {action: activate}; pause too.
  app.post('/automations/:id', write, async (c) => {
    const { action } = await jsonBody(c, automationActionSchema);
    return c.json({ automation: toPublicAutomation(await changeAutomationStatus(services, c.get('principal'), c.req.param('id'), action)) });
  });

  return app;
}
