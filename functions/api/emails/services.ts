/** What the emails group uses (its handler composes exactly this: shared/services/). */
import type { BlobServices, CoreServices, MessagingServices, ScheduleServices } from '#shared/services';

export type EmailsServices = CoreServices & MessagingServices & BlobServices & ScheduleServices;
