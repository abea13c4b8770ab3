/** What the export use cases take (shared/services builds them; the unit tests pass in-memory fakes). */
import type { AutomationRepository } from '../../adapters/store/automations';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { EmailListingRepository } from '../../adapters/store/email-listing';
import type { ExportRepository } from '../../adapters/store/exports';
import type { ReceivedEmailRepository } from '../../adapters/store/received-emails';
import type { SuppressionRepository } from '../../adapters/store/suppressions';
import type { TemplateRepository } from '../../adapters/store/templates';
import type { TenantRepository } from '../../adapters/store/tenants';
import type { WebhookRepository } from '../../adapters/store/webhooks';
import type { BlobStore } from '../../ports/blobs';
import type { Clock } from '../../ports/clock';

export interface ExportSettings {
  /** How long one request works (the API's time budget: MIGRATION_REQUEST_BUDGET_MS, 20 s by default). */
  budgetMs: number;
  /** For tests: stop after this many saved stretches (MIGRATION_MAX_STRETCHES_PER_REQUEST); null: the budget only. */
  maxStretchesPerRequest: number | null;
  /** Records per part file (a stretch stops reading once it has this many). */
  partRecords: number;
  /** How long a request's claim lasts (past the budget: room for the last stretch and the answer). */
  leaseMs: number;
}

/** Records per part file by default. */
export const PART_RECORDS = 1000;

export interface ExportSources {
  emailListing: Pick<EmailListingRepository, 'list'>;
  tenants: Pick<TenantRepository, 'list' | 'existing'>;
  domains: Pick<DomainCrud, 'list'>;
  webhooks: Pick<WebhookRepository, 'list'>;
  suppressions: Pick<SuppressionRepository, 'list'>;
  templates: Pick<TemplateRepository, 'list'>;
  automations: Pick<AutomationRepository, 'list'>;
  receivedEmails: Pick<ReceivedEmailRepository, 'list'>;
}

export interface ExportDeps extends ExportSources {
  exports: Pick<ExportRepository, 'create' | 'release' | 'get' | 'claim' | 'saveStretch' | 'finish' | 'list' | 'nameAddresses'>;
  blobs: Pick<BlobStore, 'put' | 'presignGet'>;
  clock: Clock;
  exportSettings: ExportSettings;
}

/** The settings from the service's configuration (the imports' request budget: docs/exports.md, "Long exports"). */
export function exportSettingsOf(imports: { budgetMs: number; maxStretchesPerRequest: number | null }): ExportSettings {
  return {
    budgetMs: imports.budgetMs,
    maxStretchesPerRequest: imports.maxStretchesPerRequest,
    partRecords: PART_RECORDS,
    leaseMs: imports.budgetMs + 35_000,
  };
}
