/**
 * What the dashboard-invitations function uses: the dashboard's session and members (the table) and the
 * send core for the invitation email (the mail bucket, the queues and schedules the send core's type names;
 * an invitation never schedules and publishes nothing: the outbox relay enqueues it). Its handler composes
 * exactly this.
 */
import type { BlobServices, CoreServices, MessagingServices, ScheduleServices } from '../../../shared/services';

export type DashboardInvitationsServices = CoreServices & MessagingServices & BlobServices & ScheduleServices;
