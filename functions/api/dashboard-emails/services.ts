/**
 * What the dashboard-emails function uses: the emails pages (the list, search and charts, an email's page
 * with its bodies and header block) and the received-email pages, hence the table and the mail bucket. The
 * test send is the dashboard-send function's (functions/api/dashboard-send/test-send.ts). Its handler
 * composes exactly this.
 */
import type {
  AccessServices,
  BlobServices,
  TeamServices,
  EmailServices,
  InboundServices,
  Platform,
  TenantServices,
} from '#shared/services';

export type DashboardEmailsServices = Platform &
  AccessServices &
  BlobServices &
  TeamServices &
  TenantServices &
  EmailServices &
  InboundServices;
