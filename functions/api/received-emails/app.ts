/**
 * The received-emails group (docs/inbound.md): the account's received (inbound) email, newest first
 * with filters, and one received email whole (bodies, headers, attachments, raw message link).
 */
import type { Hono } from 'hono';
import { listReceivedEmailsQuerySchema } from '../../../shared/domain/inbound/schemas';
import { createApi } from '../../../shared/http/create-api';
import type { ApiEnv } from '../../../shared/http/env';
import { requireScope } from '../../../shared/http/middleware/require-scope';
import { parseWith } from '../../../shared/http/validate';
import type { BlobServices, CoreServices } from '../../../shared/services';
import { getReceivedEmail, listReceivedEmails } from '../../../shared/usecases/inbound/received-emails';

/** What the group uses (its handler composes exactly this: shared/services/). */
export type ReceivedEmailsServices = CoreServices & BlobServices;

export function createReceivedEmailsApp(services: ReceivedEmailsServices): Hono<ApiEnv> {
  const app = createApi(services);
  const read = requireScope('account:read');

  app.get('/received-emails', read, async (c) => {
    const query = parseWith(listReceivedEmailsQuerySchema, c.req.query(), 'query');
    const page = await listReceivedEmails(services, c.get('principal'), query);
    return c.json({ received_emails: page.items, has_more: page.next_cursor !== null, next_cursor: page.next_cursor });
  });

  app.get('/received-emails/:id', read, async (c) => {
    return c.json({ received_email: await getReceivedEmail(services, c.get('principal'), c.req.param('id')) });
  });

  return app;
}
