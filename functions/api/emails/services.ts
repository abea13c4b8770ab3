/** What the emails group uses (its handler composes exactly this: shared/services/). */
import type {
  BlobServices,
  MessagingServices,
  Platform,
  ScheduleServices,
  SendingStackServices,
  MailDomainServices,
} from '#shared/services';

export type EmailsServices = Platform & SendingStackServices & MailDomainServices & MessagingServices & BlobServices & ScheduleServices;
