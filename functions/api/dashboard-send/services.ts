/**
 * What the dashboard-send function uses: the dashboard's sign-in (team), and the send core for the test send
 * and the invitation email: the table's sending capabilities, the mail bucket (a large body), and a scheduler
 * that refuses (both sends are immediate: ImmediateSendsOnly, no schedules grant). Its handler composes exactly this.
 */
import type { BlobServices, TeamServices, Platform, SendingStackServices, MailDomainServices } from '#shared/services';
import type { EmailScheduler } from '#shared/ports/scheduling';

export type DashboardSendServices = Platform &
  SendingStackServices &
  MailDomainServices &
  TeamServices &
  BlobServices & { scheduler: EmailScheduler };
