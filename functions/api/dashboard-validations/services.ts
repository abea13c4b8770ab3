/**
 * What the dashboard-validations function uses: sessions (core), and address validation's deps: the table
 * (the hourly allowance's counter, suppressions, tenants), DNS (core's mail hosts) and the disposable
 * domains list. Its handler composes exactly this.
 */
import type {
  AccessServices,
  TeamServices,
  MailDomainServices,
  Platform,
  SuppressionServices,
  TenantServices,
  ValidationServices,
} from '#shared/services';

export type DashboardValidationsServices = Platform &
  AccessServices &
  ValidationServices &
  TeamServices &
  SuppressionServices &
  TenantServices &
  MailDomainServices;
