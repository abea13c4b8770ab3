/**
 * The received-emails group (docs/inbound.md): the account's received (inbound) email, newest first
 * with filters, and one received email whole (bodies, headers, attachments, raw message link).
 */
import type { Hono } from 'hono';
import { createApi } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { listPage } from '#shared/doors/http/pagination';
import { routes } from '#shared/doors/http/route';
import { receivedEmailOps } from './operations';
import type { AccessServices, BlobServices, InboundServices, Platform, TenantServices } from '#shared/services';
import { getReceivedEmail, listReceivedEmails } from '#shared/usecases/inbound/received-emails';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type ReceivedEmailsServices = Platform & AccessServices & BlobServices & TenantServices & InboundServices;

export function createReceivedEmailsApp(services: ReceivedEmailsServices): Hono<ApiEnv> {
  const app = createApi(services);
  const route = routes(app);

  route(receivedEmailOps.listReceivedEmails, async (c, { query }) => {
    return c.json(listPage('received_emails', await listReceivedEmails(services, c.get('principal'), query)));
  });

  route(receivedEmailOps.getReceivedEmail, async (c, { params }) => {
    return c.json({ received_email: await getReceivedEmail(services, c.get('principal'), params.id) });
  });

  return app;
}
