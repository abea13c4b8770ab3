/** What the emails group uses (its handler composes exactly this: shared/services/). */
import type { SendDoorServices } from '#shared/services';

export type EmailsServices = SendDoorServices;
