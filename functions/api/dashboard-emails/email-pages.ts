/**
 * Emails: the list (newest first, search, pagination), activity charts, the test send's form (its action is
 * the dashboard-send function's: functions/api/dashboard-send/test-send.ts): ./email-list-page.ts; and one
 * email's page (timeline, preview in a sandboxed frame, raw headers): ./email-page.ts.
 *
 * The list is the listEmails use case (GET /emails): one page query of the account's (or a tenant's)
 * index, whatever the account holds. Recipient, subject, status and tag are not keys of that index, so a
 * search reads at most SEARCH_READS pages of SEARCH_PAGE emails from where it stands (500 emails), shows
 * the matches, and "Older" goes on from there: bounded work per page, stated on the page. The charts
 * count the CHART_SAMPLE most recent emails the same way (5 queries), per UTC day, and say so
 * (./email-list-limits.ts, ./email-activity.ts).
 */
import type { PageRoutes } from '../dashboard/pages/page-routes';
import { emailListPage } from './email-list-page';
import { emailPage } from './email-page';
import type { DashboardEmailsServices } from './services';

export function addEmailPages(routes: PageRoutes<DashboardEmailsServices>): void {
  const { services } = routes;
  routes.page('/emails', (c) => emailListPage(services, c));
  routes.page('/emails/:id', (c) => emailPage(services, c));
}
