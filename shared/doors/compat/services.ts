/** What the provider-compatible doors use: the emails group's services (the send core's and the batch's). */
import type { BlobServices, CoreServices, MessagingServices, ScheduleServices } from '../../services';

export type CompatServices = CoreServices & MessagingServices & BlobServices & ScheduleServices;
