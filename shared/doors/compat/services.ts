/** What the provider-compatible doors use: the emails group's services (the send core's and the batch's), and imports (a Postmark TemplateId). */
import type { ImportServices, SendDoorServices } from '../../services';

export type CompatServices = SendDoorServices & ImportServices;
