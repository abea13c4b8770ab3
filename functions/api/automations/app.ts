/**
 * The automations group (docs/automations.md): create, list, read, edit, delete, and activate or pause
 * an automation; read its runs; and POST /events (./events-routes.ts), which starts, resumes and cancels runs.
 */
import type { Hono } from 'hono';
import { toPublicAutomation } from '#shared/domain/automations/automation';
import { toRunDetail, toRunSummary } from '#shared/domain/automations/run-view';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { automationOps } from './operations';
import type { AccessServices, AutomationServices, Platform, TemplateServices, TenantServices } from '#shared/services';
import { getAutomationRun, listAutomationRuns } from '#shared/usecases/automations/automation-runs';
import {
  changeAutomationStatus,
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomations,
  updateAutomation,
} from '#shared/usecases/automations/automations';
import { accountKeyOnly, addEventRoutes } from './events-routes';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type AutomationsServices = Platform & AccessServices & TenantServices & AutomationServices & TemplateServices;

export function createAutomationsApp(services: AutomationsServices): Hono<ApiEnv> {
  const app = createApi(services);
  app.use('/automations', accountKeyOnly);
  app.use('/automations/*', accountKeyOnly);
  addEventRoutes(app, services);
  // No scope of its own: automations send email on the account's behalf, so writing them needs `full` (the operations' scopes).
  const route = routes(app);

  route(automationOps.createAutomation, async (c, { body }) => {
    return c.json({ automation: toPublicAutomation(await createAutomation(services, c.get('principal'), body)) }, 201);
  });

  route(automationOps.listAutomations, async (c, { query }) => {
    return c.json(listPage('automations', await listAutomations(services, c.get('principal'), query), toPublicAutomation));
  });

  route(automationOps.getAutomation, async (c, { params }) => {
    return c.json({ automation: toPublicAutomation(await getAutomation(services, c.get('principal'), params.id)) });
  });

  route(automationOps.updateAutomation, async (c, { body, params }) => {
    return c.json({ automation: toPublicAutomation(await updateAutomation(services, c.get('principal'), params.id, body)) });
  });

  route(automationOps.deleteAutomation, async (c, { params }) => {
    await deleteAutomation(services, c.get('principal'), params.id);
    return c.json({ ok: true });
  });

  // Runs (docs/automations.md, "Runs API"): read-only, newest first.
  route(automationOps.listAutomationRuns, async (c, { query, params }) => {
    return c.json(listPage('runs', await listAutomationRuns(services, c.get('principal'), params.id, query), toRunSummary));
  });

  route(automationOps.getAutomationRun, async (c, { params }) => {
    return c.json({ run: toRunDetail(await getAutomationRun(services, c.get('principal'), params.id, params.run_id)) });
  });

  // The spec's activation: {action: activate}; pause too.
  route(automationOps.changeAutomationStatus, async (c, { body, params }) => {
    return c.json({ automation: toPublicAutomation(await changeAutomationStatus(services, c.get('principal'), params.id, body.action)) });
  });

  return app;
}
