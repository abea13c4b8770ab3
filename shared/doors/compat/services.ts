/** What the provider-compatible doors use: the emails group's services (the send core's and the batch's). */
import type {
  BlobServices,
  MessagingServices,
  Platform,
  ScheduleServices,
  SendingStackServices,
  MailDomainServices,
  ImportServices,
} from '../../services';

export type CompatServices = Platform &
  SendingStackServices &
  MailDomainServices &
  ImportServices &
  MessagingServices &
  BlobServices &
  ScheduleServices;
