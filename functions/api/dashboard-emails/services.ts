/**
 * What the dashboard-emails function uses: the emails pages (the list, search and charts, an email's
 * page with its bodies and header block, the test send through the send core) and the received-email
 * pages, hence the table, the mail bucket, the queues and schedules the send core's type names (the test
 * send never schedules and publishes nothing: the outbox relay enqueues it). Its handler composes exactly this.
 */
import type { BlobServices, CoreServices, MessagingServices, ScheduleServices } from '../../../shared/services';

export type DashboardEmailsServices = CoreServices & MessagingServices & BlobServices & ScheduleServices;
