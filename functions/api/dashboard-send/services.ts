/**
 * What the dashboard-send function uses: the dashboard's session and members (the table) and the
 * send core for the test send and the invitation email (the mail bucket, the queues and schedules the send core's type names;
 * an invitation never schedules and publishes nothing: the outbox relay enqueues it). Its handler composes
 * exactly this.
 */
import type { BlobServices, CoreServices, MessagingServices, ScheduleServices } from '#shared/services';

export type DashboardSendServices = CoreServices & MessagingServices & BlobServices & ScheduleServices;
