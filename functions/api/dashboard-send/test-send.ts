/**
 * The emails page's test send (docs/dashboard.md): its form (functions/api/dashboard-emails/email-pages.ts)
 * posts to /dashboard/emails/test, which API Gateway sends here (the most specific route wins), to the
 * function holding the send core, so dashboard-emails holds none of it (the 1 MiB bundle limit).
 */
import { sendRequestSchema } from '#shared/domain/emails/send-request';
import { parseWith } from '#shared/doors/http/request-validation';
import { sendEmail } from '#shared/usecases/send';
import { field, formAction, redirectTo } from '../dashboard/pages/forms';
import type { PageRoutes } from '../dashboard/pages/page-routes';
import type { DashboardSendServices } from './services';

export function addTestSend(routes: PageRoutes<DashboardSendServices>): void {
  const { services } = routes;
  routes.action('/emails/test', (c, form) =>
    formAction(c, '/dashboard/emails', async () => {
      const request = parseWith(sendRequestSchema, {
        from: `Dashboard test <dashboard@${services.sandboxDomain}>`,
        to: field(form, 'to') ?? '',
        subject: field(form, 'subject') ?? '',
        html: '<p>This is a test email sent from the dashboard.</p><p>If you can read it, sending works.</p>',
        text: 'This is a test email sent from the dashboard.\n\nIf you can read it, sending works.',
        tags: [{ name: 'source', value: 'dashboard_test' }],
      });
      const result = await sendEmail(services, { principal: c.get('principal') }, request);
      return redirectTo(c, `/dashboard/emails/${result.id}`, {
        kind: 'ok',
        text: 'Test email accepted. This page follows it until it is delivered.',
      });
    }),
  );
}
